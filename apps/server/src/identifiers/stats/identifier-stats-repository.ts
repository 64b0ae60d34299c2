import type { LookupOutcome } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { HandleRow, LookupBatch, RollupRow, ValueRow } from './lookup-tally.js';

declare module 'fastify' {
  interface FastifyInstance {
    identifierStatsRepository: IdentifierStatsRepository;
  }
}

export type IdentifierStatsRepository = ReturnType<typeof createIdentifierStatsRepository>;

/** The China dates (`yyyy-MM-dd`, inclusive) and prefixes a statistics query reads; `prefixes` undefined: every one. */
export interface StatsFilter {
  from: string;
  to: string;
  prefixes?: readonly string[] | undefined;
}

/** Rows one upsert statement writes (6 parameters each, well under both databases' limits). */
const UPSERT_ROWS = 500;

/** Rows in the order of their table's primary key, so concurrent flushes of two instances lock rows in one order (no deadlock). */
function byKey<T>(rows: readonly T[], key: (row: T) => string[]): T[] {
  const compare = (a: string[], b: string[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  return [...rows].sort((a, b) => compare(key(a), key(b)));
}

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += UPSERT_ROWS) out.push(rows.slice(i, i + UPSERT_ROWS));
  return out;
}

/** 标识统计: the lookup rollups every instance adds to, and what the statistics page reads of them. */
export function createIdentifierStatsRepository(db: Kysely<Database>) {
  /** An empty `prefixes` list matches nothing: no query is sent for it. */
  const none = (f: StatsFilter) => f.prefixes !== undefined && f.prefixes.length === 0;

  const rollups = (f: StatsFilter) =>
    db
      .selectFrom('idf_lookup_rollup')
      .where('day', '>=', f.from)
      .where('day', '<=', f.to)
      .$if(f.prefixes !== undefined, (q) => q.where('prefix', 'in', f.prefixes!));
  const handles = (f: StatsFilter) =>
    db
      .selectFrom('idf_lookup_handle')
      .where('day', '>=', f.from)
      .where('day', '<=', f.to)
      .$if(f.prefixes !== undefined, (q) => q.where('prefix', 'in', f.prefixes!));
  const values = (f: StatsFilter) =>
    db
      .selectFrom('idf_lookup_value')
      .where('day', '>=', f.from)
      .where('day', '<=', f.to)
      .$if(f.prefixes !== undefined, (q) => q.where('prefix', 'in', f.prefixes!));

  return {
    /**
     * Adds a flush's counts to the rollups (`lookups = lookups + n`) in one transaction (the caller's,
     * if `db` is one): a batch is written whole or not at all, and several instances add to the same
     * rows without losing any.
     */
    async addLookups(batch: LookupBatch): Promise<void> {
      await inTransaction(db, async (trx) => {
        for (const rows of chunks(byKey(batch.rollups, (r: RollupRow) => [r.prefix, r.day, r.channel, r.region, r.outcome]))) {
          await trx
            .insertInto('idf_lookup_rollup')
            .values(rows)
            .onConflict((oc) =>
              oc
                .columns(['prefix', 'day', 'channel', 'region', 'outcome'])
                .doUpdateSet((eb) => ({ lookups: eb('idf_lookup_rollup.lookups', '+', eb.ref('excluded.lookups')) })),
            )
            .execute();
        }
        for (const rows of chunks(byKey(batch.handles, (r: HandleRow) => [r.prefix, r.day, r.outcome, r.handle]))) {
          await trx
            .insertInto('idf_lookup_handle')
            .values(rows)
            .onConflict((oc) =>
              oc
                .columns(['prefix', 'day', 'outcome', 'handle'])
                .doUpdateSet((eb) => ({ lookups: eb('idf_lookup_handle.lookups', '+', eb.ref('excluded.lookups')) })),
            )
            .execute();
        }
        for (const rows of chunks(byKey(batch.values, (r: ValueRow) => [r.prefix, r.day, r.item, r.value]))) {
          await trx
            .insertInto('idf_lookup_value')
            .values(rows)
            .onConflict((oc) =>
              oc
                .columns(['prefix', 'day', 'item', 'value'])
                .doUpdateSet((eb) => ({ lookups: eb('idf_lookup_value.lookups', '+', eb.ref('excluded.lookups')) })),
            )
            .execute();
        }
      });
    },

    /** The prefixes of an enterprise, in order. */
    async prefixesOf(enterpriseId: number): Promise<string[]> {
      const rows = await db.selectFrom('idf_prefix').select('prefix').where('enterprise_id', '=', enterpriseId).orderBy('prefix').execute();
      return rows.map((r) => r.prefix);
    },

    /** The node's prefixes and every other prefix looked up between `from` and `to` (the unparsable '' aside), in order. */
    async nodePrefixes(from: string, to: string): Promise<string[]> {
      const [held, seen] = await Promise.all([
        db.selectFrom('idf_prefix').select('prefix').execute(),
        db.selectFrom('idf_lookup_rollup').select('prefix').distinct().where('day', '>=', from).where('day', '<=', to).execute(),
      ]);
      const all = new Set([...held, ...seen].map((r) => r.prefix).filter((p) => p !== ''));
      return [...all].sort();
    },

    /** Lookups per China date, channel and outcome. */
    async perDay(f: StatsFilter) {
      if (none(f)) return [];
      const rows = await rollups(f)
        .select((eb) => ['day', 'channel', 'outcome', eb.fn.sum<number | string>('lookups').as('n')])
        .groupBy(['day', 'channel', 'outcome'])
        .execute();
      return rows.map((r) => ({ day: r.day, channel: r.channel, outcome: r.outcome, lookups: Number(r.n) }));
    },

    /** Lookups per region, most first. */
    async perRegion(f: StatsFilter) {
      if (none(f)) return [];
      const rows = await rollups(f)
        .select((eb) => ['region', eb.fn.sum<number | string>('lookups').as('n')])
        .groupBy('region')
        .orderBy('n', 'desc')
        .orderBy('region')
        .execute();
      return rows.map((r) => ({ region: r.region, lookups: Number(r.n) }));
    },

    /** The most looked-up handles that were found, most first. */
    async topHandles(f: StatsFilter, limit: number) {
      if (none(f)) return [];
      const rows = await handles(f)
        .where('outcome', '=', 'found')
        .select((eb) => ['handle', eb.fn.sum<number | string>('lookups').as('n')])
        .groupBy('handle')
        .orderBy('n', 'desc')
        .orderBy('handle')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ handle: r.handle, lookups: Number(r.n) }));
    },

    /** The most common handles that were not found or did not parse, most first. */
    async topMissing(f: StatsFilter, limit: number) {
      if (none(f)) return [];
      const rows = await handles(f)
        .where('outcome', '!=', 'found')
        .select((eb) => ['handle', 'outcome', eb.fn.sum<number | string>('lookups').as('n')])
        .groupBy(['handle', 'outcome'])
        .orderBy('n', 'desc')
        .orderBy('handle')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        handle: r.handle,
        outcome: r.outcome as Exclude<LookupOutcome, 'found'>,
        lookups: Number(r.n),
      }));
    },

    /** The most frequent values of items marked 计入统计 among found lookups, most first. */
    async topValues(f: StatsFilter, limit: number) {
      if (none(f)) return [];
      const rows = await values(f)
        .select((eb) => ['item', 'value', eb.fn.sum<number | string>('lookups').as('n')])
        .groupBy(['item', 'value'])
        .orderBy('n', 'desc')
        .orderBy('item')
        .orderBy('value')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ item: r.item, value: r.value, lookups: Number(r.n) }));
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('identifierStatsRepository', createIdentifierStatsRepository(app.database.db));
  },
  { name: 'identifier-stats-repository' },
);
