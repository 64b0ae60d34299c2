import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AuditArchive, type ArchiveCounts } from '../audit/audit-archive.js';
import { AuditChainRepository } from '../audit/audit-chain-repository.js';
import type { RetentionConfig } from '../config.js';
import { chinaDate } from '../lib/china-time.js';
import { everyInterval } from '../lib/ticker.js';
import { RETENTION_TARGETS, RetentionRepository, type RetentionTarget } from './retention-repository.js';

const DAY_MS = 86_400_000;
/** Rows one statement deletes: short enough that no table stays locked for long (SQLite writes one at a time). */
export const PRUNE_BATCH = 1000;
/** Batches one run deletes per table at most; what is left goes at the next run. */
const MAX_BATCHES = 200;
/** How long a claimed run is this instance's; a run that outlives it (a crash) lets another take the next. */
const LEASE_MS = 10 * 60_000;
/** How often each instance looks whether the run is due (one conditional UPDATE). */
const TICK_MS = 60_000;
const TASK = 'retention';

/** A module's own housekeeping, run with the rest (idle SSO sessions by each enterprise's policy). */
export type RetentionStep = (now: Date) => Promise<unknown>;

/** What a run deleted, per table (登录日志 and 操作日志: archived, then deleted). */
export type PruneCounts = Record<RetentionTarget, number> & ArchiveCounts;

/**
 * Retention (docs/architecture.md, "Retention"): every interval one instance of all (a lease on the
 * `scheduled_task` row, claimed as a scheduled sync job is) deletes what has expired or outlived its
 * configured age, a batch at a time.
 */
export class RetentionService {
  private readonly steps: { name: string; run: RetentionStep }[] = [];
  /** Who holds the lease; the host name cut so that the whole fits the column (a pod's name may be 63 characters). */
  private readonly holder = `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private stopping = false;

  constructor(
    private readonly repo: RetentionRepository,
    private readonly config: RetentionConfig,
    private readonly log: FastifyBaseLogger,
    private readonly archive?: AuditArchive,
  ) {}

  /** The instance is closing: a run in progress ends after its current batch (the rest goes at the next run). */
  stop(): void {
    this.stopping = true;
  }

  /** Adds a module's own housekeeping to every run. */
  add(name: string, run: RetentionStep): void {
    this.steps.push({ name, run });
  }

  /** The cutoff below which a target's rows go at `now`. */
  cutoff(target: RetentionTarget, now: Date): string | number {
    const { lookupHandleDays, smsCodeDays, loginFailureDays } = this.config;
    const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    switch (target) {
      case 'smsCodes':
        return daysAgo(smsCodeDays);
      case 'loginFailures':
        return daysAgo(loginFailureDays);
      case 'lookupHandles':
        return chinaDate(new Date(now.getTime() - lookupHandleDays * DAY_MS));
      case 'rateLimits':
        return now.getTime();
      case 'ssoSessions':
      case 'portalSessions':
      case 'oidcModels':
      case 'samlSourceMessages':
      case 'samlSourceSessions':
        return now.toISOString();
    }
  }

  /** Prunes every table now (whichever instance asks); answers what went. */
  async prune(now = new Date()): Promise<PruneCounts> {
    const counts = { loginLog: 0, auditLog: 0 } as PruneCounts;
    if (this.archive) Object.assign(counts, await this.archive.run(now, () => this.stopping));
    for (const target of RETENTION_TARGETS) {
      const cutoff = this.cutoff(target, now);
      let total = 0;
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const deleted = await this.repo.prune(target, cutoff, PRUNE_BATCH, now);
        total += deleted;
        if (deleted < PRUNE_BATCH || this.stopping) break;
        // Lets requests waiting for the database (and, on SQLite, the event loop) in between.
        await new Promise((resolve) => setImmediate(resolve));
      }
      counts[target] = total;
    }
    for (const step of this.steps) {
      try {
        await step.run(now);
      } catch (err) {
        this.log.error({ err }, `retention step ${step.name} failed`);
      }
    }
    return counts;
  }

  /** Runs the prune if it is due at `now` and this instance wins it; answers what went, or undefined. */
  async tick(now = new Date()): Promise<PruneCounts | undefined> {
    const next = new Date(now.getTime() + this.config.intervalMinutes * 60_000);
    if (!(await this.repo.claim(TASK, this.holder, now, LEASE_MS, next))) return undefined;
    try {
      const counts = await this.prune(now);
      this.log.info({ deleted: counts }, 'retention run');
      return counts;
    } finally {
      await this.repo.release(TASK, this.holder);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    retentionService: RetentionService;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { db, dialect } = app.database;
    const archive = new AuditArchive(
      new AuditChainRepository(db),
      { dir: app.config.retention.auditArchiveDir, defaultDays: app.config.securityDefaults.auditRetentionDays ?? 180 },
      app.log,
    );
    const service = new RetentionService(new RetentionRepository(db, dialect), app.config.retention, app.log, archive);
    app.decorate('retentionService', service);
    // SYNC_SCHEDULER=0 turns this instance's scheduled work off (tests drive tick() themselves).
    if (!app.config.auth.syncScheduler) return;
    const ticker = everyInterval(TICK_MS, () => service.tick(), app.log, 'retention tick');
    app.addHook('onClose', () => {
      service.stop();
      return ticker.stop();
    });
  },
  { name: 'retention' },
);
