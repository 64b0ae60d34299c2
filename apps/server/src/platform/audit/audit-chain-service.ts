import type { AuditChainVerification } from '@portal/shared';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { chinaTime, chinaTimeToIso } from '../lib/china-time.js';
import { BadRequestError, TooManyRequestsError } from '../lib/errors.js';
import { CHAIN_BREAK_TEXT, type ChainBreak, type ChainLog, type ChainRow, ChainWalker } from './audit-chain.js';
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
 * Verification (the console's 校验完整性, `npm run audit:verify`): walks one enterprise's chain over a
 * period and one row past each end, so a row removed at either end is found too; and the same over
 * an exported or archived file, which carries the hashes of its ends.
 */
export class AuditChainService {
  readonly repo: AuditChainRepository;

  constructor(db: Kysely<Database>) {
    this.repo = new AuditChainRepository(db);
  }

  /** The places to read for a period: those of its rows, one before and one after. */
  private async window(log: ChainLog, key: number, head: ChainHead, period: ChainPeriod) {
    const lo =
      (period.from ? await this.repo.placeAt(log, key, head.anchorSeq, { from: period.from }) : head.anchorSeq + 1) ?? head.seq + 1;
    const hi = (period.to ? await this.repo.placeAt(log, key, head.anchorSeq, { to: period.to }) : head.seq) ?? head.anchorSeq;
    const start = Math.max(head.anchorSeq + 1, Math.min(lo, hi + 1) - 1);
    const end = Math.min(head.seq, Math.max(hi, lo - 1) + 1);
    return { lo, hi, start, end };
  }

  async verify(log: ChainLog, key: number, period: ChainPeriod): Promise<ChainVerification> {
    const result: ChainVerification = {
      intact: true,
      checked: 0,
      firstSeq: null,
      lastSeq: null,
      startHash: null,
      endHash: null,
      problem: null,
    };
    const head = await this.repo.head(log, key);
    if (head) {
      const { lo, hi, start, end } = await this.window(log, key, head, period);
      const walker = new ChainWalker(
        log,
        start === head.anchorSeq + 1 ? { seq: head.anchorSeq, hash: head.anchorHash } : { seq: start - 1, hash: null },
      );
      for await (const row of this.repo.rows(log, key, start, end)) {
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
    }
    if (!result.problem) {
      const stray = await this.repo.firstUnchained(log, key, period);
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
    const { lo, hi } = head ? await this.window(log, key, head, period) : { lo: 1, hi: 0 };
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
    if (result.end) return broken(`结束行之后还有内容（第 ${lineNo} 行）`, 'inserted');
    if (!walker) {
      if (line.kind !== 'header' || line.format !== CHAIN_FILE_FORMAT) return broken('文件缺少校验头（不是导出或归档的审计文件）');
      result.log = line.log;
      result.enterpriseId = line.enterpriseId;
      result.anchor = line.anchor;
      walker = new ChainWalker(line.log, line.anchor);
      continue;
    }
    if (line.kind === 'unchained') result.unchained++;
    else if (line.kind === 'row') {
      if (!walker.next({ ...line.row, id: Number(line.row.id), chain_seq: Number(line.row.chain_seq) })) {
        result.problem = walker.problem ?? null;
        return result;
      }
      result.rows++;
    } else if (line.kind === 'end') result.end = { seq: line.seq, hash: line.hash };
    else return broken(`第 ${lineNo} 行无法识别`);
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
