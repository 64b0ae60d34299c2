import { type Insertable, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { AuditLogTable, Database, LoginLogTable } from '../db/schema.js';
import { CHAIN_DEFAULTS, CHAIN_TABLE, type ChainLog, type ChainRow, GENESIS_HASH, chainHash, storable } from './audit-chain.js';

/** A chain's head: its last place and hash, and the anchor the first remaining row follows. */
export interface ChainHead {
  seq: number;
  lastHash: string;
  anchorSeq: number;
  anchorHash: string;
}

/** A log row with every column, as read for verification, export and archiving. */
export type StoredChainRow = ChainRow;

/** The chain key of an enterprise: its id, or 0 for rows of no enterprise (platform operators, unknown accounts). */
export const chainKeyOf = (enterpriseId: number | null | undefined) => enterpriseId ?? 0;

const ofChain = (key: number): RawBuilder<unknown> => (key === 0 ? sql`enterprise_id is null` : sql`enterprise_id = ${key}`);

/**
 * Takes `count` places in the chain of (`log`, `key`) inside `trx`: the head's row is updated first,
 * which locks it until the transaction ends (PostgreSQL's row lock; SQLite's one writer), so appends to
 * one chain from several instances queue and never share a place. Answers the first place and the
 * hash the first new row follows; {@link finish} stores the new last hash.
 */
async function claimPlaces(trx: Kysely<Database>, log: ChainLog, key: number, count: number) {
  const advance = () =>
    trx
      .updateTable('audit_chain')
      .set((eb) => ({ seq: eb('seq', '+', count) }))
      .where('log', '=', log)
      .where('enterprise_key', '=', key)
      .returning(['seq', 'last_hash'])
      .executeTakeFirst();
  let head = await advance();
  if (!head) {
    // The chain's first row: its head starts at the genesis anchor (another instance may create it first).
    await trx
      .insertInto('audit_chain')
      .values({ log, enterprise_key: key, seq: 0, last_hash: GENESIS_HASH, anchor_seq: 0, anchor_hash: GENESIS_HASH })
      .onConflict((oc) => oc.columns(['log', 'enterprise_key']).doNothing())
      .execute();
    head = await advance();
    if (!head) throw new Error(`audit chain ${log}/${key} has no head`);
  }
  return { first: Number(head.seq) - count + 1, prevHash: head.last_hash };
}

/**
 * Gives each row its place, previous hash and own hash in its enterprise's chain, chain by chain in
 * key order (two transactions writing to the same chains lock their heads in one order), and inserts
 * them with `insert`. Must run inside a transaction: the head stays locked until it commits.
 */
async function appendChained<R extends { enterprise_id?: number | null } & Record<string, unknown>>(
  trx: Kysely<Database>,
  log: ChainLog,
  rows: readonly R[],
  insert: (rows: (R & { chain_seq: number; prev_hash: string; row_hash: string })[]) => Promise<unknown>,
): Promise<void> {
  if (!trx.isTransaction) throw new Error('chained rows are appended inside a transaction');
  const byKey = new Map<number, R[]>();
  for (const row of rows) {
    const key = chainKeyOf(row.enterprise_id);
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  if (log === 'audit' && trx.getExecutor().adapter instanceof PostgresAdapter) {
    // A sign-in writes its 登录日志 row, then its 操作日志 row; a console write that ends sessions may write them the
    // other way round. An 操作日志 append takes the enterprise's 登录日志 head first, so both heads are always
    // locked in one order and such transactions queue instead of deadlocking. (SQLite has one writer.)
    await trx
      .selectFrom('audit_chain')
      .select('seq')
      .where('log', '=', 'login')
      .where('enterprise_key', 'in', keys)
      .orderBy('enterprise_key')
      .forUpdate()
      .execute();
  }
  for (const key of keys) {
    const group = byKey.get(key) ?? [];
    const { first, prevHash } = await claimPlaces(trx, log, key, group.length);
    let prev = prevHash;
    const chained = group.map((given, i) => {
      const seq = first + i;
      // Well-formed text only: a lone surrogate would be stored as U+FFFD and no longer match its hash.
      const row = Object.fromEntries(
        Object.entries({ ...CHAIN_DEFAULTS[log], ...given }).map(([field, value]) => [
          field,
          typeof value === 'string' ? storable(value, Infinity) : value,
        ]),
      ) as R;
      const hash = chainHash(log, seq, prev, row);
      const withChain = { ...row, chain_seq: seq, prev_hash: prev, row_hash: hash };
      prev = hash;
      return withChain;
    });
    await insert(chained);
    await trx.updateTable('audit_chain').set({ last_hash: prev }).where('log', '=', log).where('enterprise_key', '=', key).execute();
  }
}

/** Inserts 登录日志 rows into their enterprises' chains (inside `trx`). */
export function appendLoginLog(trx: Kysely<Database>, rows: readonly Insertable<LoginLogTable>[]): Promise<void> {
  return appendChained(trx, 'login', rows, (chained) => trx.insertInto('login_log').values(chained).execute());
}

/** Inserts 操作日志 rows into their enterprises' chains (inside `trx`). */
export function appendAuditLog(trx: Kysely<Database>, rows: readonly Insertable<AuditLogTable>[]): Promise<void> {
  return appendChained(trx, 'audit', rows, (chained) => trx.insertInto('audit_log').values(chained).execute());
}

/** Rows read per query while a chain is walked or archived. */
export const CHAIN_BATCH = 1000;

/** Reads of the chains: heads, rows in place order, rows put in outside the chain; the archive's purge. */
export class AuditChainRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async head(log: ChainLog, key: number): Promise<ChainHead | undefined> {
    const row = await this.db
      .selectFrom('audit_chain')
      .selectAll()
      .where('log', '=', log)
      .where('enterprise_key', '=', key)
      .executeTakeFirst();
    return row && { seq: Number(row.seq), lastHash: row.last_hash, anchorSeq: Number(row.anchor_seq), anchorHash: row.anchor_hash };
  }

  /** Every chain of `log` that has a head. */
  async keys(log: ChainLog): Promise<number[]> {
    const rows = await this.db
      .selectFrom('audit_chain')
      .select('enterprise_key')
      .where('log', '=', log)
      .orderBy('enterprise_key')
      .execute();
    return rows.map((r) => Number(r.enterprise_key));
  }

  /** The place of the first row at or after `from` (min) or of the last row at or before `to` (max) past the anchor. */
  async placeAt(log: ChainLog, key: number, anchorSeq: number, bound: { from: string } | { to: string }): Promise<number | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result =
      'from' in bound
        ? await sql<{
            seq: number | null;
          }>`select min(chain_seq) as seq from ${table} where ${ofChain(key)} and chain_seq > ${anchorSeq} and created_at >= ${bound.from}`.execute(
            this.db,
          )
        : await sql<{
            seq: number | null;
          }>`select max(chain_seq) as seq from ${table} where ${ofChain(key)} and chain_seq > ${anchorSeq} and created_at <= ${bound.to}`.execute(
            this.db,
          );
    const seq = result.rows[0]?.seq;
    return seq === null || seq === undefined ? undefined : Number(seq);
  }

  /** The chain's rows with places from `fromSeq` to `toSeq`, in place order (then id), read in batches. */
  async *rows(log: ChainLog, key: number, fromSeq: number, toSeq: number): AsyncGenerator<StoredChainRow> {
    const table = sql.table(CHAIN_TABLE[log]);
    let after = { seq: fromSeq - 1, id: 0 };
    for (;;) {
      const { seq, id } = after;
      // `chain_seq >= seq` bounds the index range scan (enterprise_id, chain_seq): without it PostgreSQL
      // reads the chain from its start on every batch.
      const batch = await sql<StoredChainRow>`select * from ${table} where ${ofChain(key)} and chain_seq <= ${toSeq}
        and chain_seq >= ${seq} and (chain_seq > ${seq} or (chain_seq = ${seq} and id > ${id}))
        order by chain_seq, id limit ${CHAIN_BATCH}`.execute(this.db);
      for (const row of batch.rows) yield { ...row, id: Number(row.id), chain_seq: Number(row.chain_seq) };
      const last = batch.rows.at(-1);
      if (!last || batch.rows.length < CHAIN_BATCH) return;
      after = { seq: Number(last.chain_seq), id: Number(last.id) };
    }
  }

  /**
   * The first row of the chain's enterprise without a place (put in directly), within the period: one
   * with an id after the chain began, or one with an older id that claims a time after it began.
   */
  async firstUnchained(log: ChainLog, key: number, period: { from?: string; to?: string }): Promise<StoredChainRow | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const start = await this.db.selectFrom('audit_chain_start').selectAll().where('log', '=', log).executeTakeFirst();
    const firstId = Number(start?.first_id ?? 0);
    const from = period.from ? sql`and created_at >= ${period.from}` : sql``;
    const to = period.to ? sql`and created_at <= ${period.to}` : sql``;
    const result = await sql<StoredChainRow>`select * from ${table} where ${ofChain(key)} and chain_seq is null
      and (id >= ${firstId} or created_at >= ${start?.started_at ?? ''}) ${from} ${to}
      order by id limit 1`.execute(this.db);
    const row = result.rows[0];
    return row && { ...row, id: Number(row.id) };
  }

  /** The first row of the chain placed after its head's last place (put in directly: appends move the head first). */
  async firstPastHead(log: ChainLog, key: number, headSeq: number): Promise<StoredChainRow | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<StoredChainRow>`select * from ${table} where ${ofChain(key)} and chain_seq > ${headSeq}
      order by chain_seq, id limit 1`.execute(this.db);
    const row = result.rows[0];
    return row && { ...row, id: Number(row.id), chain_seq: Number(row.chain_seq) };
  }

  /** The lowest place of the chain's rows at or before the anchor (archived rows whose purge has not ended, or rows put in). */
  async lowestPlaceUpTo(log: ChainLog, key: number, anchorSeq: number): Promise<number | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<{ seq: number | null }>`select min(chain_seq) as seq from ${table}
      where ${ofChain(key)} and chain_seq <= ${anchorSeq}`.execute(this.db);
    const seq = result.rows[0]?.seq;
    return seq === null || seq === undefined ? undefined : Number(seq);
  }

  /** Any row of the enterprise with a place in the chain (a chain without a head whose rows remain lost its head). */
  async anyChained(log: ChainLog, key: number): Promise<StoredChainRow | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<StoredChainRow>`select * from ${table} where ${ofChain(key)} and chain_seq is not null
      order by chain_seq, id limit 1`.execute(this.db);
    const row = result.rows[0];
    return row && { ...row, id: Number(row.id), chain_seq: Number(row.chain_seq) };
  }

  /** The last place of the chain whose row is older than `cutoff`, past the anchor (the end of what retention archives). */
  async lastPlaceBefore(log: ChainLog, key: number, anchorSeq: number, cutoff: string): Promise<number | undefined> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<{ seq: number | null }>`select max(chain_seq) as seq from ${table}
      where ${ofChain(key)} and chain_seq > ${anchorSeq} and created_at < ${cutoff}`.execute(this.db);
    const seq = result.rows[0]?.seq;
    return seq === null || seq === undefined ? undefined : Number(seq);
  }

  /** Rows of the enterprise older than `cutoff` that were written before the chain began (at most `limit`, oldest first). */
  async unchainedBefore(log: ChainLog, key: number, cutoff: string, limit: number): Promise<StoredChainRow[]> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<StoredChainRow>`select * from ${table} where ${ofChain(key)} and chain_seq is null and created_at < ${cutoff}
      order by created_at, id limit ${limit}`.execute(this.db);
    return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** Enterprises (0: none) with rows older than `cutoff` (found through the time index): the only ones retention may touch. */
  async keysWithRowsBefore(log: ChainLog, cutoff: string): Promise<number[]> {
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql<{ enterprise_id: number | null }>`select distinct enterprise_id from ${table}
      where created_at < ${cutoff}`.execute(this.db);
    return result.rows.map((r) => chainKeyOf(r.enterprise_id === null ? null : Number(r.enterprise_id)));
  }

  /** Moves the chain's anchor to the archived row at `seq` (its hash): rows up to it may go. */
  async moveAnchor(log: ChainLog, key: number, seq: number, hash: string): Promise<void> {
    await this.db
      .updateTable('audit_chain')
      .set({ anchor_seq: seq, anchor_hash: hash })
      .where('log', '=', log)
      .where('enterprise_key', '=', key)
      .where('anchor_seq', '<', seq)
      .execute();
  }

  /** Deletes archived rows by id: only rows written to an archive file go (a row put in later stays as evidence). */
  async purgeIds(log: ChainLog, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const table = sql.table(CHAIN_TABLE[log]);
    const result = await sql`delete from ${table} where id in (${sql.join(ids)})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** The retention (days) of each enterprise that chose one; others (none saved, or null) keep the platform default. */
  async retentionDays(keys: readonly number[]): Promise<Map<number, number>> {
    const ids = keys.filter((k) => k !== 0);
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('security_policy')
      .select(['enterprise_id', 'audit_retention_days'])
      .where('enterprise_id', 'in', ids)
      .where('audit_retention_days', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [Number(r.enterprise_id), Number(r.audit_retention_days)]));
  }
}
