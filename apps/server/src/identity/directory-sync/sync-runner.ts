import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { SyncMessage, type SyncCounts, type SyncTrigger } from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import type { SyncRunResult } from '../../platform/lib/metrics.js';
import { type AuditEntry, recordAudit } from '../../platform/audit/audit-log.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import { DirectoryError, type DirectorySnapshot } from '../auth-sources/directory.js';
import { openDirectory } from '../auth-sources/open-directory.js';
import { type ApplyActor, SyncApplier } from './sync-apply.js';
import { countItems, normalizePhone, planSync, snapshotFingerprint, usernameFor } from './sync-plan.js';
import type { RunRow } from '../auth-sources/sync-run-summary.js';
import { type JobRow, SyncRepository } from './sync-repository.js';

/** How long a lease lasts without renewal; each batch renews it, so only a stopped instance lets it run out. */
export const LEASE_MS = 10 * 60_000;

const ABANDONED = '执行中断：执行该任务的服务已停止，已提交的批次保留，其余未执行';
const INTERRUPTED = '执行中断：数据库写入出错，已提交的批次保留，其余未执行';
const LEASE_LOST = '执行中断：同步任务的租约已失效，其余未执行';
const READ_FAILED = '读取认证源失败，请检查认证源配置后重试';
/** A directory that answers with nobody (a narrowed filter, a service account that lost its rights). */
const EMPTY_DIRECTORY = '认证源未返回任何用户：为免误停用全部账号，定时同步未执行；请检查认证源设置，或手动预览后执行';

class LeaseLost extends Error {}

/** Who runs a sync and how its outcome is told: the administrator's request, or the schedule. */
export interface SyncCaller extends ApplyActor {
  origin: SyncTrigger;
  log: FastifyBaseLogger;
  /** The audit row of the executed run (written in its final transaction). */
  auditEntry(outcome: AuditEntry['outcome'], target: string, detail: string): AuditEntry;
  /** Single logout to the applications of sessions a 停用 ended (after each batch commits). */
  notify(tickets: EndedTickets): Promise<void>;
}

const countsText = (c: SyncCounts) => `新增 ${c.create}，更新 ${c.update}，停用 ${c.disable}，移动 ${c.move}，失败 ${c.failed}`;

function finalStatus(counts: SyncCounts): SyncRunResult {
  if (counts.failed === 0) return 'succeeded';
  return counts.create + counts.update + counts.disable + counts.move > 0 ? 'partial' : 'failed';
}

/**
 * 同步 runs: 预览 reads the source and stores the plan; 执行 takes the job's lease, reads
 * the source again and applies the plan only when the directory still says what the preview saw;
 * a scheduled run does both at once. Every end is recorded: a failure is never a success.
 */
export class SyncRunner {
  private readonly instance = `${os.hostname()}:${process.pid}`.slice(0, 40);
  private readonly applier: SyncApplier;

  constructor(
    private readonly app: FastifyInstance,
    readonly repo: SyncRepository,
  ) {
    this.applier = new SyncApplier(app, repo);
  }

  /** A lease holder: this instance, and which of its attempts (two requests on one instance are two holders). */
  newHolder(): string {
    return `${this.instance}:${randomBytes(8).toString('hex')}`;
  }

  /**
   * The source's users and groups as of now; throws DirectoryError (with the source's own text). Any
   * other failure of a directory is one too, told without its internals (they go to the log).
   */
  private async read(job: JobRow, log: FastifyBaseLogger): Promise<DirectorySnapshot> {
    const source = await this.app.authSourceRepository.loadAny(job.sourceId);
    if (!source) throw new DirectoryError('认证源不存在');
    try {
      return await openDirectory(this.app, source).read({ groups: job.mapping.groups });
    } catch (err) {
      if (err instanceof DirectoryError) throw err;
      log.error({ err, sourceId: source.id }, 'directory read failed');
      throw new DirectoryError(READ_FAILED);
    }
  }

  private async plan(job: JobRow, snapshot: DirectorySnapshot) {
    const state = await this.repo.planState(job.enterpriseId, job.sourceId, {
      usernames: snapshot.users.map((u) => usernameFor(u, job.mapping)),
      phones: snapshot.users.map((u) => normalizePhone(u.phone)),
    });
    return planSync(snapshot, state, job);
  }

  /** A run that ended before anything was planned (the source could not be read), with its audit row when it was an execution. */
  private async recordFailedRun(job: JobRow, caller: SyncCaller, error: string, audited: boolean, started?: number): Promise<number> {
    const counts = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };
    if (started !== undefined) this.app.metrics.syncRun('failed', (performance.now() - started) / 1000);
    return inEnterpriseTransaction(this.app.database.db, job.enterpriseId, async (trx) => {
      const runId = await this.repo.createRun(
        trx,
        {
          jobId: job.id,
          enterpriseId: job.enterpriseId,
          status: 'failed',
          origin: caller.origin,
          fingerprint: '',
          counts,
          error,
          operatorId: caller.accountId,
          finished: true,
        },
        [],
      );
      if (audited) await recordAudit(trx, caller.log, caller.auditEntry('failure', job.name, error));
      return runId;
    });
  }

  /**
   * 预览: the plan stored as a run awaiting 执行; nothing else is written. A source that cannot be read
   * leaves a failed run in the 同步日志 and answers 400 with the source's text.
   */
  async preview(job: JobRow, caller: SyncCaller): Promise<number> {
    if (!job.sourceEnabled) throw new BadRequestError(SyncMessage.sourceDisabled);
    let snapshot: DirectorySnapshot;
    try {
      snapshot = await this.read(job, caller.log);
    } catch (err) {
      if (!(err instanceof DirectoryError)) throw err;
      await this.recordFailedRun(job, caller, err.message, false);
      throw new BadRequestError(err.message);
    }
    const items = await this.plan(job, snapshot);
    const counts = countItems(items.map((i) => ({ action: i.action, failed: i.error !== '' })));
    return inEnterpriseTransaction(this.app.database.db, job.enterpriseId, (trx) =>
      this.repo.createRun(
        trx,
        {
          jobId: job.id,
          enterpriseId: job.enterpriseId,
          status: 'preview',
          origin: caller.origin,
          fingerprint: snapshotFingerprint(snapshot),
          counts,
          operatorId: caller.accountId,
        },
        items,
      ),
    );
  }

  /**
   * 执行 of a preview: 409 when another run of the job holds the lease, when the preview was used
   * or when the directory changed since (the preview becomes 预览已过期 and nothing is written).
   */
  async execute(run: RunRow, job: JobRow, caller: SyncCaller): Promise<void> {
    if (run.status !== 'preview') {
      throw new ConflictError(run.status === 'expired' || run.origin === 'schedule' ? SyncMessage.notPreview : SyncMessage.previewConsumed);
    }
    if (!job.sourceEnabled) throw new BadRequestError(SyncMessage.sourceDisabled);
    const holder = this.newHolder();
    if (!(await this.repo.acquireLease(job.id, holder, new Date(), LEASE_MS))) throw new ConflictError(SyncMessage.busy);
    const started = performance.now();
    try {
      await this.repo.failAbandonedRuns(job.id, ABANDONED);
      let snapshot: DirectorySnapshot;
      try {
        snapshot = await this.read(job, caller.log);
      } catch (err) {
        if (!(err instanceof DirectoryError)) throw err;
        if (!(await this.repo.moveRun(run.id, 'preview', 'running'))) throw new ConflictError(SyncMessage.previewConsumed);
        await this.finish(run.id, job, caller, 'failed', { create: 0, update: 0, disable: 0, move: 0, failed: 0 }, err.message, started);
        return;
      }
      if (snapshotFingerprint(snapshot) !== run.fingerprint) {
        await this.repo.moveRun(run.id, 'preview', 'expired', true);
        throw new ConflictError(SyncMessage.previewExpired);
      }
      if (!(await this.repo.moveRun(run.id, 'preview', 'running'))) throw new ConflictError(SyncMessage.previewConsumed);
      await this.applyRun(run.id, job, caller, holder, started);
    } finally {
      await this.repo.releaseLease(job.id, holder);
    }
  }

  /**
   * A scheduled run of a job whose lease this instance holds: read, plan and apply at once, recorded
   * as one run. Answers its id.
   */
  async runScheduled(job: JobRow, caller: SyncCaller, holder: string): Promise<number> {
    const started = performance.now();
    await this.repo.failAbandonedRuns(job.id, ABANDONED);
    let snapshot: DirectorySnapshot;
    try {
      snapshot = await this.read(job, caller.log);
    } catch (err) {
      if (!(err instanceof DirectoryError)) throw err;
      return this.recordFailedRun(job, caller, err.message, true, started);
    }
    const items = await this.plan(job, snapshot);
    // Unattended, an empty answer would disable everyone the source ever linked: a person decides that.
    if (snapshot.users.length === 0 && items.some((item) => item.action === 'disable')) {
      return this.recordFailedRun(job, caller, EMPTY_DIRECTORY, true, started);
    }
    const runId = await inEnterpriseTransaction(this.app.database.db, job.enterpriseId, (trx) =>
      this.repo.createRun(
        trx,
        {
          jobId: job.id,
          enterpriseId: job.enterpriseId,
          status: 'running',
          origin: 'schedule',
          fingerprint: snapshotFingerprint(snapshot),
          counts: { create: 0, update: 0, disable: 0, move: 0, failed: 0 },
          operatorId: null,
        },
        items,
      ),
    );
    await this.applyRun(runId, job, caller, holder, started);
    return runId;
  }

  private async applyRun(runId: number, job: JobRow, caller: SyncCaller, holder: string, started: number): Promise<void> {
    // Other previews of the job were computed from the accounts this run is about to change.
    await this.repo.expirePreviews(this.app.database.db, job.id);
    const items = await this.repo.plannedItems(runId);
    let counts: SyncCounts = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };
    const progress = (batchCounts: SyncCounts) => (counts = batchCounts);
    try {
      counts = await this.applier.apply(
        { runId, enterpriseId: job.enterpriseId, sourceId: job.sourceId, sourceName: job.sourceName, sourceType: job.sourceType },
        items,
        caller,
        {
          beforeBatch: async () => {
            if (!(await this.repo.renewLease(job.id, holder, new Date(), LEASE_MS))) throw new LeaseLost();
          },
          afterBatch: async (tickets, batchCounts) => {
            progress(batchCounts);
            if (tickets.length) await caller.notify(tickets);
          },
        },
      );
    } catch (err) {
      caller.log.error({ err, runId }, 'sync run interrupted');
      await this.finish(runId, job, caller, 'failed', counts, err instanceof LeaseLost ? LEASE_LOST : INTERRUPTED, started);
      return;
    }
    await this.finish(runId, job, caller, finalStatus(counts), counts, '', started);
  }

  /** The run's end and its audit row, committed together; `started`: when it began (performance.now()), for its duration. */
  private async finish(
    runId: number,
    job: JobRow,
    caller: SyncCaller,
    status: SyncRunResult,
    counts: SyncCounts,
    error: string,
    started: number,
  ) {
    this.app.metrics.syncRun(status, (performance.now() - started) / 1000);
    await inEnterpriseTransaction(this.app.database.db, job.enterpriseId, async (trx) => {
      await this.repo.finishRun(trx, runId, status, counts, error);
      const detail = `${caller.origin === 'schedule' ? '定时同步' : '手动同步'}：${countsText(counts)}${error ? `；${error}` : ''}`;
      await recordAudit(trx, caller.log, caller.auditEntry(status === 'failed' ? 'failure' : 'success', job.name, detail));
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    syncRunService: SyncRunner;
  }
}

export default fp(
  async (app) => {
    app.decorate('syncRunService', new SyncRunner(app, new SyncRepository(app.database.db)));
  },
  { name: 'sync-runner', dependencies: ['auth-source-repository'] },
);
