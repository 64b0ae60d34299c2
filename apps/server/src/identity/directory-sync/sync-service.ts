import {
  AuthSourceMessage,
  isFederatedSourceType,
  SYNC_JOB_NAME_MAX,
  SYNC_USERNAME_PREFIX_MAX,
  type SyncJob,
  type SyncJobInput,
  SyncMessage,
  type SyncRunItem,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy, auditEntryOf } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { type RunRow, runSummary } from '../auth-sources/sync-run-summary.js';
import type { Caller } from '../portal-auth/auth.js';
import { isValidCron, nextRunAt } from './sync-cron.js';
import type { ItemFilters, JobRow, JobValues, RunFilters } from './sync-repository.js';
import { LEASE_MS, type SyncCaller } from './sync-runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    syncService: SyncService;
  }
}

const JOB_NOT_FOUND = '同步任务不存在';
const RUN_NOT_FOUND = '同步记录不存在';
const SOURCE_NOT_FOUND = '认证源不存在';
/** A username prefix: a letter, then letters, digits or `_` (so prefixed usernames still start with a letter). */
const PREFIX_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${SYNC_USERNAME_PREFIX_MAX - 1}}$`);

const toJob = (job: JobRow, lastRun: RunRow | undefined): SyncJob => ({
  id: job.id,
  sourceId: job.sourceId,
  sourceName: job.sourceName,
  sourceType: job.sourceType,
  name: job.name,
  mapping: job.mapping,
  cron: job.cron,
  leaverRule: job.leaverRule,
  enabled: job.enabled,
  nextRunAt: job.enabled && job.nextRunAt ? chinaTime(new Date(job.nextRunAt)) : null,
  lastRun: lastRun ? runSummary(lastRun) : null,
  updatedAt: chinaTime(new Date(job.updatedAt)),
});

/** A job name is checked first for its message; the constraint catches a concurrent twin. */
async function writing(work: () => Promise<void>) {
  try {
    await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(SyncMessage.jobNameTaken);
    throw err;
  }
}

const scheduleText = (values: JobValues) => (values.cron ? `定时 ${values.cron}` : '仅手动');

/**
 * 同步's rules (authority auth:sync): an enterprise's sync jobs, their 预览 and 执行 (through
 * `app.syncRunService`), and the 同步日志. Another enterprise's jobs and runs answer 404; writes commit
 * with their audit row. The caller decides the enterprise.
 */
export class SyncService {
  constructor(private readonly app: FastifyInstance) {}

  private get repo() {
    return this.app.syncRunService.repo;
  }

  private async jobOf(caller: Caller, id: number): Promise<JobRow> {
    const job = await this.repo.job(callerEnterprise(caller), id);
    if (!job) throw new NotFoundError(JOB_NOT_FOUND);
    return job;
  }

  /** A run of the caller's enterprise. */
  async run(caller: Caller, id: number): Promise<RunRow> {
    const run = await this.repo.run(callerEnterprise(caller), id);
    if (!run) throw new NotFoundError(RUN_NOT_FOUND);
    return run;
  }

  /** The body checked in the order the form shows it; the source must be the caller's enterprise's. */
  private async jobValues(caller: Caller, body: SyncJobInput): Promise<JobValues> {
    const name = body.name.trim();
    if (!name) throw new BadRequestError(SyncMessage.jobNameRequired);
    if ([...name].length > SYNC_JOB_NAME_MAX) throw new BadRequestError(SyncMessage.jobNameTooLong);
    const source = await this.app.authSourceRepository.load(callerEnterprise(caller), body.sourceId);
    if (!source) throw new NotFoundError(SOURCE_NOT_FOUND);
    if (isFederatedSourceType(source.type)) throw new BadRequestError(AuthSourceMessage.federatedNoSync);
    const prefix = body.mapping.usernamePrefix.trim();
    if (prefix && !PREFIX_PATTERN.test(prefix)) throw new BadRequestError(SyncMessage.prefixInvalid);
    const cron = body.cron.trim().replace(/\s+/g, ' ');
    if (cron && !isValidCron(cron)) throw new BadRequestError(SyncMessage.cronInvalid);
    const next = body.enabled ? nextRunAt(cron, new Date()) : null;
    return {
      sourceId: source.id,
      name,
      mapping: { ...body.mapping, usernamePrefix: prefix },
      cron,
      leaverRule: body.leaverRule,
      enabled: body.enabled,
      nextRunAt: next ? next.toISOString() : null,
    };
  }

  private syncCaller(caller: Caller): SyncCaller {
    return {
      accountId: caller.accountId,
      administers: administers(caller),
      origin: 'manual',
      log: caller.log,
      auditEntry: (outcome, target, detail) => auditEntryOf(caller, 'auth-sync.execute', target, outcome, detail),
      notify: (tickets) => this.app.ssoSessionService.notify(caller, tickets),
    };
  }

  /** The enterprise's jobs with their next run and last run. */
  async jobs(caller: Caller): Promise<SyncJob[]> {
    const jobs = await this.repo.listJobs(callerEnterprise(caller));
    const lastRuns = await this.repo.lastRuns(jobs.map((j) => j.id));
    return jobs.map((job) => toJob(job, lastRuns.get(job.id)));
  }

  /** 新建: answers the new job's id. */
  async createJob(caller: Caller, body: SyncJobInput): Promise<number> {
    const enterpriseId = callerEnterprise(caller);
    const values = await this.jobValues(caller, body);
    if (await this.repo.jobNameTaken(enterpriseId, values.name)) throw new ConflictError(SyncMessage.jobNameTaken);
    let id = 0;
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        id = await this.repo.createJob(trx, enterpriseId, values);
        await auditBy(trx, caller, 'auth-sync.job.create', values.name, 'success', scheduleText(values));
      }),
    );
    return id;
  }

  /** 修改 (a pending preview expires with it). */
  async updateJob(caller: Caller, id: number, body: SyncJobInput): Promise<void> {
    const current = await this.jobOf(caller, id);
    const values = await this.jobValues(caller, body);
    if (await this.repo.jobNameTaken(current.enterpriseId, values.name, current.id)) throw new ConflictError(SyncMessage.jobNameTaken);
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, current.enterpriseId, async (trx) => {
        await this.repo.updateJob(trx, current.id, values);
        const renamed = values.name === current.name ? current.name : `${current.name} → ${values.name}`;
        await auditBy(trx, caller, 'auth-sync.job.update', renamed, 'success', scheduleText(values));
      }),
    );
  }

  /** 删除 with its runs; synced accounts and groups stay. */
  async deleteJob(caller: Caller, id: number): Promise<void> {
    const current = await this.jobOf(caller, id);
    // Holding the lease while deleting: a run in progress is not cut off under its feet.
    const holder = this.app.syncRunService.newHolder();
    if (!(await this.repo.acquireLease(current.id, holder, new Date(), LEASE_MS))) throw new ConflictError(SyncMessage.busy);
    try {
      await inEnterpriseTransaction(this.app.database.db, current.enterpriseId, async (trx) => {
        await this.repo.deleteJob(trx, current.id);
        await auditBy(trx, caller, 'auth-sync.job.delete', current.name);
      });
    } catch (err) {
      await this.repo.releaseLease(current.id, holder);
      throw err;
    }
  }

  /** 预览: reads the source and stores the plan; answers the preview run. */
  async preview(caller: Caller, jobId: number): Promise<RunRow> {
    const job = await this.jobOf(caller, jobId);
    const runId = await this.app.syncRunService.preview(job, this.syncCaller(caller));
    return this.run(caller, runId);
  }

  /** 执行 of a preview; answers the run as it ended. */
  async execute(caller: Caller, runId: number): Promise<RunRow> {
    const run = await this.run(caller, runId);
    const job = await this.jobOf(caller, run.jobId);
    await this.app.syncRunService.execute(run, job, this.syncCaller(caller));
    return this.run(caller, run.id);
  }

  /** 同步日志, newest first. */
  async runs(caller: Caller, filters: RunFilters, offset: number, limit: number): Promise<{ total: number; rows: RunRow[] }> {
    return this.repo.runPage(callerEnterprise(caller), filters, offset, limit);
  }

  /** A run's items (the preview's plan or the execution's results). */
  async items(
    caller: Caller,
    runId: number,
    filters: ItemFilters,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: SyncRunItem[] }> {
    const run = await this.run(caller, runId);
    const page = await this.repo.itemPage(run.id, filters, offset, limit);
    const rows = page.rows.map((item) => ({
      id: item.id,
      kind: item.kind,
      action: item.action,
      externalId: item.externalId,
      name: item.name,
      username: item.username,
      changes: item.changes,
      status: item.status,
      error: item.error,
    }));
    return { total: page.total, rows };
  }
}

export default fp(
  async (app) => {
    app.decorate('syncService', new SyncService(app));
  },
  { name: 'sync-service', dependencies: ['sync-runner'] },
);
