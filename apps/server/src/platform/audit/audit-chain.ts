import { createHash } from 'node:crypto';

/**
 * Tamper-evident audit (docs/architecture.md, "Tamper-evident audit"): 登录日志 and 操作日志 rows are
 * hash-chained per enterprise. A row's hash is SHA-256 over its canonical serialization: a JSON array of
 * the log's name, the row's place, the previous row's hash and its fields in a fixed order, so one
 * changed, removed or added row breaks the chain where it happened.
 */

export type ChainLog = 'login' | 'audit';
export const CHAIN_LOGS: readonly ChainLog[] = ['login', 'audit'];
export const CHAIN_TABLE = { login: 'login_log', audit: 'audit_log' } as const;

/** The fields each log's hash covers, in their canonical order (never reorder: stored hashes depend on it). */
export const CHAIN_FIELDS = {
  login: [
    'enterprise_id',
    'account_id',
    'username',
    'name',
    'result',
    'reason',
    'application_id',
    'application_name',
    'ip',
    'user_agent',
    'created_at',
    'session_handle',
    'method',
  ],
  audit: ['enterprise_id', 'account_id', 'username', 'action', 'target', 'ip', 'outcome', 'detail', 'request_id', 'created_at'],
} as const satisfies Record<ChainLog, readonly string[]>;

/**
 * What the database stores for a hashed field a row leaves out (the columns' defaults): the row is
 * inserted with them filled in, so that the hash covers what is stored.
 */
export const CHAIN_DEFAULTS = {
  login: {
    enterprise_id: null,
    account_id: null,
    name: '',
    reason: '',
    application_id: null,
    application_name: '',
    ip: '',
    user_agent: '',
    session_handle: null,
    method: '',
  },
  audit: { enterprise_id: null, account_id: null, target: '', detail: '', request_id: '' },
} as const satisfies Record<ChainLog, ChainFields>;

/** What a chain starts from: the anchor of a chain none of whose rows has been archived. */
export const GENESIS_HASH = '0'.repeat(64);

/** A row's hashed fields as stored (text, integers or null). */
export type ChainFields = Readonly<Record<string, unknown>>;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as both databases store it, at most `max` characters: a lone surrogate (which the drivers
 * store as U+FFFD) becomes U+FFFD, the cut falls between code points (never inside a surrogate
 * pair), and a NUL (PostgreSQL text cannot hold it) is written out as `\u0000`. Every chained row's
 * text passes here before it is hashed and inserted, so the stored row is the one hashed.
 */
export function storable(text: string, max: number): string {
  const clean = text.replaceAll('\0', '\\u0000').replace(LONE_SURROGATE, '\ufffd');
  if (clean.length <= max) return clean;
  let out = '';
  let count = 0;
  for (const point of clean) {
    if (count++ === max) break;
    out += point;
  }
  return out;
}

/** The row's own hash at place `seq` after a row hashed `prevHash`. */
export function chainHash(log: ChainLog, seq: number, prevHash: string, row: ChainFields): string {
  const values = CHAIN_FIELDS[log].map((field) => {
    const value = row[field];
    if (value === undefined || value === null) return null;
    return typeof value === 'number' ? value : String(value);
  });
  return createHash('sha256')
    .update(JSON.stringify([log, seq, prevHash, ...values]))
    .digest('hex');
}

/** The kinds of break a verification names (the console's 校验完整性 and the command). */
export type ChainBreakKind = 'altered' | 'removed' | 'inserted';
export const CHAIN_BREAK_TEXT: Record<ChainBreakKind, string> = { altered: '被篡改', removed: '被删除', inserted: '被插入' };

export interface ChainBreak {
  kind: ChainBreakKind;
  /** The row that shows the break (the altered or inserted one, or the one after a removed stretch); null at the chain's end. */
  rowId: number | null;
  seq: number | null;
  createdAt: string | null;
  reason: string;
}

/** A chained row as the walker reads it: its place, links and fields. */
export interface ChainRow {
  [field: string]: unknown;
  id: number;
  chain_seq: number;
  prev_hash: string | null;
  row_hash: string | null;
  created_at: string;
}

/**
 * Walks a chain's rows in place order and stops at the first break. Starts after `start` (the place
 * and hash the first row must follow; a null hash: the first row read is taken as given, its own
 * hash checked, since it lies before the range that matters) and expects rows up to `endSeq`, whose
 * hash must be `endHash` when given (the chain's head).
 */
export class ChainWalker {
  private expected: number;
  private prevHash: string | null;
  private prevRow: ChainRow | null = null;
  checked = 0;
  problem: ChainBreak | undefined;

  constructor(
    private readonly log: ChainLog,
    start: { seq: number; hash: string | null },
  ) {
    this.expected = start.seq + 1;
    this.prevHash = start.hash;
  }

  /** Feeds the next row (place order, then id); answers false once a break is found. */
  next(row: ChainRow): boolean {
    if (this.problem) return false;
    const at = (kind: ChainBreakKind, reason: string, which: ChainRow | null = row) =>
      (this.problem = { kind, rowId: which?.id ?? null, seq: which?.chain_seq ?? null, createdAt: which?.created_at ?? null, reason });
    const seq = Number(row.chain_seq);
    if (seq < this.expected) {
      at('inserted', `序号 ${seq} 重复：链中已有该位置的记录，此行不属于链`);
      return false;
    }
    if (seq > this.expected) {
      const missing = seq - 1 === this.expected ? `序号 ${this.expected}` : `序号 ${this.expected}–${seq - 1}`;
      at('removed', `${missing} 的记录缺失（位于此行之前）`);
      return false;
    }
    if (row.row_hash !== chainHash(this.log, seq, row.prev_hash ?? '', row)) {
      at('altered', '记录内容与其哈希不符');
      return false;
    }
    if (this.prevHash !== null && row.prev_hash !== this.prevHash) {
      // The row is intact, so the one before it (or the anchor) no longer hashes to what this one recorded.
      if (this.prevRow) at('altered', '记录的哈希与下一条记录所存的前一哈希不符', this.prevRow);
      else at('removed', '第一条记录与保留锚点不符（之前的记录被删除或锚点被改动）');
      return false;
    }
    this.prevHash = row.row_hash;
    this.prevRow = row;
    this.expected = seq + 1;
    this.checked++;
    return true;
  }

  /** The rows are done: anything expected up to `endSeq` that never came was removed. */
  finish(endSeq: number, endHash?: string): ChainBreak | undefined {
    if (this.problem) return this.problem;
    if (this.expected <= endSeq) {
      const missing = this.expected === endSeq ? `序号 ${endSeq}` : `序号 ${this.expected}–${endSeq}`;
      this.problem = { kind: 'removed', rowId: null, seq: this.expected, createdAt: null, reason: `${missing} 的记录缺失（位于链尾）` };
    } else if (endHash !== undefined && this.prevRow && this.prevRow.row_hash !== endHash) {
      const row = this.prevRow;
      this.problem = {
        kind: 'altered',
        rowId: row.id,
        seq: row.chain_seq,
        createdAt: row.created_at,
        reason: '链尾记录与链头所存哈希不符',
      };
    }
    return this.problem;
  }

  /** The hash of the last row accepted (or of the start). */
  get lastHash(): string | null {
    return this.prevHash;
  }
}
