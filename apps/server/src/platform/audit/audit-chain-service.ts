import type { AuditChainVerification } from '@portal/shared';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from '../db/schema.js';
import { chinaTime, chinaTimeToIso } from '../lib/china-time.js';
import { BadRequestError, TooManyRequestsError } from '../lib/errors.js';
import { CHAIN_BREAK_TEXT, CHAIN_LOGS, type ChainBreak, type ChainLog, type ChainRow, ChainWalker } from './audit-chain.js';
import { AuditChainRepository, type ChainHead } from './audit-chain-repository.js';

/** What a verification found: the rows of the period checked, the hashes at its ends, and the first break. */
export interface ChainVerification {
  intact: boolean;
  /** Rows of the period whose hashes and links were checked. */
  checked: number;
  /** The first and last place of the period (null: the period holds no chained row). */
  firstSeq: number | null;
  lastSeq: number | null;
  /** The hash the period's first row follows, and the last row's hash: an export of the period carries the same. */
  startHash: string | null;
  endHash: string | null;
  problem: ChainBreak | null;
  /** The chain's anchor: rows up to this place are archived (0: none), and verify with their archive files. */
  archivedSeq: number;
}

/** A period, ISO instants, both bounds included. */
export interface ChainPeriod {
  from?: string | undefined;
  to?: string | undefined;
}

/** Verifications of one log an enterprise may run per minute (each may read a long chain). */
export const VERIFICATIONS_PER_MINUTE = 30;

/** The named limit of 校验完整性 (all instances together), per enterprise and log. */
export function verifyRateLimit(log: ChainLog): RateLimitOptions {
  return {
    limit: 'audit-chain-verify',
    max: VERIFICATIONS_PER_MINUTE,
    timeWindow: 60_000,
    // After the authority check: the caller's enterprise is known.
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) =>
      `${log}:${request.principal?.profile.enterpriseId ?? `account-${request.principal?.accountId ?? request.ip}`}`,
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(`完整性校验过于频繁，请 ${Math.ceil(context.ttl / 1000)} 秒后再试`),
  };
}

/** An exported or archived range: JSON lines, a header with the anchor, the rows, the end's place and hash. */
export const CHAIN_FILE_FORMAT = 'portal-audit-chain/1';

export type ChainFileLine =
  | {
      kind: 'header';
      format: string;
      log: ChainLog;
      enterpriseId: number | null;
      from: string | null;
      to: string | null;
      anchor: { seq: number; hash: string };
    }
  | { kind: 'unchained'; row: Record<string, unknown> }
  | { kind: 'row'; row: ChainRow }
  | { kind: 'end'; seq: number; hash: string; rows: number };

const enterpriseOf = (key: number) => (key === 0 ? null : key);

/**
 * The chain's rows at or before its anchor: archived rows whose purge has not ended yet, which must
 * still be a gapless, intact run that ends at the anchor's hash (then their ids may be purged), or
 * rows put in at an archived place (a break: 被插入 or 被篡改, and nothing is purged).
 */
export async function rowsUpToAnchor(
  repo: AuditChainRepository,
  log: ChainLog,
  key: number,
  head: ChainHead,
): Promise<{ ids: number[]; problem: ChainBreak | undefined }> {
  const lowest = await repo.lowestPlaceUpTo(log, key, head.anchorSeq);
  if (lowest === undefined) return { ids: [], problem: undefined };
  const walker = new ChainWalker(log, { seq: lowest - 1, hash: null });
  const ids: number[] = [];
  for await (const row of repo.rows(log, key, lowest, head.anchorSeq)) {
    if (!walker.next(row)) break;
    ids.push(row.id);
  }
  const problem = walker.finish(head.anchorSeq, head.anchorHash);
  if (!problem) return { ids, problem: undefined };
  // The true rows of archived places are in the archive: a row there that is not part of that run was put in.
  return { ids: [], problem: { ...problem, kind: 'inserted', reason: `已归档的位置上有不属于链的记录（${problem.reason}）` } };
}

/**
 * Verification (the console's 校验完整性, `npm run audit:verify`): walks one enterprise's chain over a
 * period and one row past each end, so a row removed at either end is found too; and the same over
 * an exported or archived file, which carries the hashes of its ends.
 */
export class AuditChainService {
  readonly repo: AuditChainRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.repo = new AuditChainRepository(db);
  }

  /**
   * Runs `work` over one snapshot of the database (PostgreSQL REPEATABLE READ; SQLite's read
   * transaction): the head, the period's places and the rows agree even while an archive moves the
   * anchor and purges, so a verification never reports rows an archive took in between as 被删除.
   */
  private snapshot<T>(work: (repo: AuditChainRepository) => Promise<T>): Promise<T> {
    const begin = this.db.transaction();
    const trx = this.db.getExecutor().adapter instanceof PostgresAdapter ? begin.setIsolationLevel('repeatable read') : begin;
    return trx.execute((t) => work(new AuditChainRepository(t)));
  }

  /** The places to read for a period: those of its rows, one before and one after. */
  private async window(repo: AuditChainRepository, log: ChainLog, key: number, head: ChainHead, period: ChainPeriod) {
    const lo = (period.from ? await repo.placeAt(log, key, head.anchorSeq, { from: period.from }) : head.anchorSeq + 1) ?? head.seq + 1;
    const hi = (period.to ? await repo.placeAt(log, key, head.anchorSeq, { to: period.to }) : head.seq) ?? head.anchorSeq;
    const start = Math.max(head.anchorSeq + 1, Math.min(lo, hi + 1) - 1);
    const end = Math.min(head.seq, Math.max(hi, lo - 1) + 1);
    return { lo, hi, start, end };
  }

  verify(log: ChainLog, key: number, period: ChainPeriod): Promise<ChainVerification> {
    return this.snapshot((repo) => this.verifyIn(repo, log, key, period));
  }

  private async verifyIn(repo: AuditChainRepository, log: ChainLog, key: number, period: ChainPeriod): Promise<ChainVerification> {
    const result: ChainVerification = {
      intact: true,
      checked: 0,
      firstSeq: null,
      lastSeq: null,
      startHash: null,
      endHash: null,
      problem: null,
      archivedSeq: 0,
    };
    const head = await repo.head(log, key);
    result.archivedSeq = head?.anchorSeq ?? 0;
    const placed = (row: ChainRow, kind: ChainBreak['kind'], reason: string): ChainBreak => ({
      kind,
      rowId: row.id,
      seq: row.chain_seq,
      createdAt: row.created_at,
      reason,
    });
    if (!head) {
      // Every append moves the head first: placed rows without one mean the head was deleted.
      const orphan = await repo.anyChained(log, key);
      if (orphan) result.problem = placed(orphan, 'removed', '链头缺失：链中有记录，但链头（最后位置与哈希）被删除');
    }
    if (head) {
      const { lo, hi, start, end } = await this.window(repo, log, key, head, period);
      const walker = new ChainWalker(
        log,
        start === head.anchorSeq + 1 ? { seq: head.anchorSeq, hash: head.anchorHash } : { seq: start - 1, hash: null },
      );
      for await (const row of repo.rows(log, key, start, end)) {
        if (!walker.next(row)) break;
        if (row.chain_seq < lo || row.chain_seq > hi) continue;
        if (result.firstSeq === null) {
          result.firstSeq = row.chain_seq;
          result.startHash = row.prev_hash;
        }
        result.lastSeq = row.chain_seq;
        result.endHash = row.row_hash;
        result.checked++;
      }
      result.problem = walker.finish(end, end === head.seq ? head.lastHash : undefined) ?? null;
      if (!result.problem) {
        const past = await repo.firstPastHead(log, key, head.seq);
        if (past) result.problem = placed(past, 'inserted', `序号 ${past.chain_seq} 超出链头的最后位置 ${head.seq}：此行不属于链`);
      }
      result.problem ??= (await rowsUpToAnchor(repo, log, key, head)).problem ?? null;
    }
    if (!result.problem) {
      const stray = await repo.firstUnchained(log, key, period);
      if (stray) {
        result.problem = {
          kind: 'inserted',
          rowId: stray.id,
          seq: null,
          createdAt: stray.created_at,
          reason: '记录不在哈希链中（未经系统写入）',
        };
      }
    }
    result.intact = result.problem === null;
    return result;
  }

  /** 校验完整性 in the console: the period in China time (both optional, the end's second included), the answer as shown. */
  async consoleVerification(
    log: ChainLog,
    key: number,
    q: { filterStartTime?: string; filterEndTime?: string },
  ): Promise<AuditChainVerification> {
    const from = q.filterStartTime ? chinaTimeToIso(q.filterStartTime, '开始时间') : undefined;
    const to = q.filterEndTime ? chinaTimeToIso(q.filterEndTime, '结束时间').replace('.000Z', '.999Z') : undefined;
    if (from && to && from > to) throw new BadRequestError('开始时间不能晚于结束时间');
    const { problem, ...rest } = await this.verify(log, key, { from, to });
    return {
      ...rest,
      enterpriseId: enterpriseOf(key),
      problem: problem && {
        ...problem,
        kindText: CHAIN_BREAK_TEXT[problem.kind],
        createdAt: problem.createdAt ? chinaTime(new Date(problem.createdAt)) : '',
      },
    };
  }

  /**
   * The period's rows as an export file's lines, from the anchor its first row follows to its last
   * row's place and hash; an empty period exports its anchor alone.
   */
  async *exportRange(log: ChainLog, key: number, period: ChainPeriod): AsyncGenerator<ChainFileLine> {
    const head = await this.repo.head(log, key);
    const { lo, hi } = head ? await this.window(this.repo, log, key, head, period) : { lo: 1, hi: 0 };
    let first: ChainRow | undefined;
    if (lo <= hi) for await (const row of this.repo.rows(log, key, lo, lo)) first ??= row;
    const anchor = { seq: lo - 1, hash: first?.prev_hash ?? '' };
    yield {
      kind: 'header',
      format: CHAIN_FILE_FORMAT,
      log,
      enterpriseId: enterpriseOf(key),
      from: period.from ?? null,
      to: period.to ?? null,
      anchor,
    };
    let last = anchor;
    let count = 0;
    if (first) {
      for await (const row of this.repo.rows(log, key, lo, hi)) {
        yield { kind: 'row', row };
        last = { seq: row.chain_seq, hash: row.row_hash ?? '' };
        count++;
      }
    }
    yield { kind: 'end', seq: last.seq, hash: last.hash, rows: count };
  }
}

/** A file that is no export or archive of a chain at all (its header or a line cannot be read): the command's bad input. */
export class ChainFileError extends Error {}

const isAnchor = (value: unknown): value is { seq: number; hash: string } =>
  typeof value === 'object' &&
  value !== null &&
  Number.isInteger((value as { seq?: unknown }).seq) &&
  typeof (value as { hash?: unknown }).hash === 'string';

/** What a file's verification found. */
export interface FileVerification {
  intact: boolean;
  log: ChainLog | null;
  enterpriseId: number | null;
  rows: number;
  unchained: number;
  anchor: { seq: number; hash: string } | null;
  end: { seq: number; hash: string } | null;
  problem: ChainBreak | null;
}

/**
 * Verifies an exported or archived file's lines: each row hashes to what it holds, follows the
 * one before from the header's anchor without a gap, and the last one is the end line's place and
 * hash with the count it names (a file cut short, or with rows added or taken out, fails).
 */
export async function verifyChainLines(lines: AsyncIterable<string>): Promise<FileVerification> {
  const result: FileVerification = {
    intact: false,
    log: null,
    enterpriseId: null,
    rows: 0,
    unchained: 0,
    anchor: null,
    end: null,
    problem: null,
  };
  const broken = (reason: string, kind: ChainBreak['kind'] = 'altered') => {
    result.problem = { kind, rowId: null, seq: null, createdAt: null, reason };
    return result;
  };
  let walker: ChainWalker | undefined;
  let lineNo = 0;
  for await (const text of lines) {
    lineNo++;
    if (!text.trim()) continue;
    let line: ChainFileLine;
    try {
      line = JSON.parse(text) as ChainFileLine;
    } catch {
      return broken(`第 ${lineNo} 行不是 JSON`);
    }
    if (typeof line !== 'object' || line === null || Array.isArray(line)) throw new ChainFileError(`第 ${lineNo} 行不是对象`);
    if (result.end) return broken(`结束行之后还有内容（第 ${lineNo} 行）`, 'inserted');
    if (!walker) {
      if (line.kind !== 'header' || line.format !== CHAIN_FILE_FORMAT) return broken('文件缺少校验头（不是导出或归档的审计文件）');
      if (!CHAIN_LOGS.includes(line.log)) throw new ChainFileError(`校验头的日志类型无法识别：${String(line.log)}`);
      if (!isAnchor(line.anchor)) throw new ChainFileError('校验头缺少锚点（anchor 的 seq 与 hash）');
      result.log = line.log;
      result.enterpriseId = line.enterpriseId;
      result.anchor = line.anchor;
      walker = new ChainWalker(line.log, line.anchor);
      continue;
    }
    if (line.kind === 'unchained') result.unchained++;
    else if (line.kind === 'row') {
      if (typeof line.row !== 'object' || line.row === null) throw new ChainFileError(`第 ${lineNo} 行缺少记录`);
      if (!walker.next({ ...line.row, id: Number(line.row.id), chain_seq: Number(line.row.chain_seq) })) {
        result.problem = walker.problem ?? null;
        return result;
      }
      result.rows++;
    } else if (line.kind === 'end') {
      if (!isAnchor(line)) throw new ChainFileError(`第 ${lineNo} 行：结束行缺少 seq 与 hash`);
      result.end = { seq: line.seq, hash: line.hash };
    } else return broken(`第 ${lineNo} 行无法识别`);
  }
  if (!walker || !result.end || !result.anchor) return broken('文件不完整：缺少结束行', 'removed');
  const problem = walker.finish(result.end.seq);
  if (problem) {
    result.problem = problem;
    return result;
  }
  if ((walker.lastHash ?? '') !== result.end.hash) return broken('最后一条记录与结束行所存哈希不符');
  if (result.rows !== result.end.seq - result.anchor.seq) return broken('记录条数与结束行不符', 'inserted');
  result.intact = true;
  return result;
}

declare module 'fastify' {
  interface FastifyInstance {
    auditChainService: AuditChainService;
  }
}

export default fp(
  async (app) => {
    app.decorate('auditChainService', new AuditChainService(app.database.db));
  },
  { name: 'audit-chain-service' },
);
