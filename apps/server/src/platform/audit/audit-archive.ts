import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { CHAIN_LOGS, type ChainLog, ChainWalker } from './audit-chain.js';
import type { AuditChainRepository } from './audit-chain-repository.js';
import { CHAIN_FILE_FORMAT, type ChainFileLine, rowsUpToAnchor } from './audit-chain-service.js';

const DAY_MS = 86_400_000;
/** The least any enterprise keeps its logs (网络安全法 §21: six months): rows younger are never looked at. */
export const AUDIT_RETENTION_MIN_DAYS = 180;
/** Rows one run archives per chain at most; the rest go at the next run. */
const MAX_ROWS_PER_RUN = 100_000;
/** Ids per `in (…)` (one delete each). */
const SLICE = 500;

export interface AuditArchiveConfig {
  /** Where archives are written (AUDIT_ARCHIVE_DIR); the operator keeps them. */
  dir: string;
  /** The platform's retention: rows of no enterprise, and of enterprises that saved no policy. */
  defaultDays: number;
}

/** What one run archived and then deleted, per log. */
export interface ArchiveCounts {
  loginLog: number;
  auditLog: number;
}

/**
 * Audit retention (README, "Retention"): each enterprise's 登录日志 and 操作日志 rows older than its
 * 审计日志保留天数 are written to a gzip JSON-lines file (the chain's anchor, the rows, the last place
 * and hash: the file verifies on its own with `npm run audit:verify -- --file`), then the chain's
 * anchor moves to the last archived row and the rows are deleted in batches. A chain that does not
 * verify is not archived (its rows stay for the investigation; the run logs the break).
 */
export class AuditArchive {
  constructor(
    private readonly repo: AuditChainRepository,
    private readonly config: AuditArchiveConfig,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(now: Date, stopping: () => boolean = () => false): Promise<ArchiveCounts> {
    const counts: ArchiveCounts = { loginLog: 0, auditLog: 0 };
    this.removeStaleParts();
    for (const log of CHAIN_LOGS) {
      const earliest = new Date(now.getTime() - AUDIT_RETENTION_MIN_DAYS * DAY_MS).toISOString();
      const keys = [...new Set(await this.repo.keysWithRowsBefore(log, earliest))].sort((a, b) => a - b);
      const days = await this.repo.retentionDays(keys);
      for (const key of keys) {
        if (stopping()) break;
        const cutoff = new Date(now.getTime() - (days.get(key) ?? this.config.defaultDays) * DAY_MS).toISOString();
        try {
          const purged = await this.archiveChain(log, key, cutoff, now);
          counts[log === 'login' ? 'loginLog' : 'auditLog'] += purged;
        } catch (err) {
          // One chain that cannot be archived (an unwritable directory, a database error) keeps its rows
          // and does not stop the others or the rest of retention; the next run tries again.
          this.log.error({ err, log, enterpriseKey: key }, 'audit rows not archived');
        }
      }
    }
    return counts;
  }

  /** Archive files a run that died left half written (one run at a time holds the lease, so none is in progress). */
  private removeStaleParts(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.config.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.jsonl.gz.part')) continue;
      fs.rmSync(path.join(this.config.dir, name), { force: true });
      this.log.warn({ file: name }, 'stale partial audit archive removed');
    }
  }

  /** Deletes rows by id in slices; answers how many went. */
  private async purge(log: ChainLog, ids: readonly number[]): Promise<number> {
    let purged = 0;
    for (let i = 0; i < ids.length; i += SLICE) {
      purged += await this.repo.purgeIds(log, ids.slice(i, i + SLICE));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return purged;
  }

  /** Archives and purges one chain's rows older than `cutoff`; answers how many rows went. */
  private async archiveChain(log: ChainLog, key: number, cutoff: string, now: Date): Promise<number> {
    const head = await this.repo.head(log, key);
    const anchor = { seq: head?.anchorSeq ?? 0, hash: head?.anchorHash ?? '' };
    let purged = 0;
    if (head) {
      // Rows up to the anchor were archived by a run that stopped before its deletes ended: they go now,
      // unless rows were put in there (then the chain is kept as it is for the investigation).
      const pending = await rowsUpToAnchor(this.repo, log, key, head);
      if (pending.problem) {
        this.log.error({ log, enterpriseKey: key, problem: pending.problem }, 'audit chain does not verify: not archived');
        return 0;
      }
      purged += await this.purge(log, pending.ids);
    }
    // The end: the last old row with no younger row before it (a clock step back never archives a row within retention).
    const lastOld = head && (await this.repo.lastPlaceBefore(log, key, anchor.seq, cutoff));
    const firstYoung = head && (await this.repo.placeAt(log, key, anchor.seq, { from: cutoff }));
    const end =
      lastOld === undefined || lastOld === null
        ? anchor.seq
        : Math.max(anchor.seq, Math.min(lastOld, (firstYoung ?? Infinity) - 1, anchor.seq + MAX_ROWS_PER_RUN));
    const unchained = await this.repo.unchainedBefore(log, key, cutoff, MAX_ROWS_PER_RUN);
    if (end > anchor.seq || unchained.length > 0) {
      // The ids written to the file: the only rows the purge deletes.
      const written: number[] = unchained.map((r) => r.id);
      const walker = new ChainWalker(log, anchor);
      const repo = this.repo;
      const header: ChainFileLine = {
        kind: 'header',
        format: CHAIN_FILE_FORMAT,
        log,
        enterpriseId: key === 0 ? null : key,
        from: null,
        to: cutoff,
        anchor,
      };
      async function* lines() {
        yield `${JSON.stringify(header)}\n`;
        for (const row of unchained) yield `${JSON.stringify({ kind: 'unchained', row } satisfies ChainFileLine)}\n`;
        for await (const row of repo.rows(log, key, anchor.seq + 1, end)) {
          if (!walker.next(row)) throw new ChainBrokenError();
          written.push(row.id);
          yield `${JSON.stringify({ kind: 'row', row } satisfies ChainFileLine)}\n`;
        }
        if (walker.finish(end)) throw new ChainBrokenError();
        yield `${JSON.stringify({ kind: 'end', seq: end, hash: walker.lastHash ?? '', rows: end - anchor.seq } satisfies ChainFileLine)}\n`;
      }
      const who = key === 0 ? 'platform' : `enterprise-${key}`;
      const stamp = now
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const file = path.join(this.config.dir, `${log}-log-${who}-${stamp}-${anchor.seq + 1}-${end}.jsonl.gz`);
      fs.mkdirSync(this.config.dir, { recursive: true });
      const part = `${file}.part`;
      try {
        await pipeline(lines(), createGzip(), fs.createWriteStream(part, { mode: 0o600 }));
      } catch (err) {
        fs.rmSync(part, { force: true });
        if (!(err instanceof ChainBrokenError)) throw err;
        this.log.error({ log, enterpriseKey: key, problem: walker.problem }, 'audit chain does not verify: not archived');
        return 0;
      }
      // On disk before anything is deleted: a crash leaves the rows (and at worst an archive written twice).
      const handle = fs.openSync(part, 'r');
      fs.fsyncSync(handle);
      fs.closeSync(handle);
      fs.renameSync(part, file);
      // The rename itself is durable only once the directory is: before the anchor moves past the rows.
      const dir = fs.openSync(this.config.dir, 'r');
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
      this.log.info({ file, log, enterpriseKey: key, rows: end - anchor.seq, unchained: unchained.length }, 'audit rows archived');
      if (end > anchor.seq) await this.repo.moveAnchor(log, key, end, walker.lastHash ?? '');
      purged += await this.purge(log, written);
    }
    return purged;
  }
}

class ChainBrokenError extends Error {}
