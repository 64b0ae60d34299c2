import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTH_SOURCE_TYPES,
  Authority,
  SYNC_JOB_NAME_MAX,
  SYNC_USERNAME_PREFIX_MAX,
  type SyncJob,
  type SyncJobInput,
  SyncMessage,
  type SyncRunItem,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, literals, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest, requestAuditEntry } from '../../platform/audit/audit-log.js';
import { isValidCron, nextRunAt } from './sync-cron.js';
import { type RunRow, RunStatus, RunSummarySchema, runSummary } from '../auth-sources/sync-run-summary.js';
import type { JobRow, JobValues } from './sync-repository.js';
import { LEASE_MS, type SyncCaller } from './sync-runner.js';

const tags = ['auth-sync'];
const BASE = '/web-api/console/v1/auth/sync';
const JOB_NOT_FOUND = '同步任务不存在';
const RUN_NOT_FOUND = '同步记录不存在';
const SOURCE_NOT_FOUND = '认证源不存在';
/** A username prefix: a letter, then letters, digits or `_` (so prefixed usernames still start with a letter). */
const PREFIX_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${SYNC_USERNAME_PREFIX_MAX - 1}}$`);

const Action = literals(['create', 'update', 'disable', 'move'] as const);
const ItemStatus = literals(['planned', 'succeeded', 'failed'] as const);
const LeaverRule = literals(['disable', 'keep'] as const);

const MappingSchema = Type.Object({
  groups: Type.Boolean({ description: '部门或目录组同步为账号组（含成员）' }),
  usernameFrom: literals(['userid', 'email'] as const),
  usernamePrefix: Type.String({ maxLength: 64, description: `用户名前缀（最多 ${SYNC_USERNAME_PREFIX_MAX} 位），可为空` }),
  updatePhone: Type.Boolean(),
  updateEmail: Type.Boolean(),
});
const JobSchema = Type.Object({
  id: Type.Integer(),
  sourceId: Type.Integer(),
  sourceName: Type.String(),
  sourceType: literals(AUTH_SOURCE_TYPES),
  name: Type.String(),
  mapping: MappingSchema,
  cron: Type.String({ description: '5 段 cron 表达式（中国时间），空为仅手动' }),
  leaverRule: LeaverRule,
  enabled: Type.Boolean(),
  nextRunAt: Type.Union([Type.String(), Type.Null()]),
  lastRun: Type.Union([RunSummarySchema, Type.Null()]),
  updatedAt: Type.String(),
});
const JobBody = Type.Object({
  sourceId: Type.Integer({ minimum: 1 }),
  name: Type.String({ maxLength: 200 }),
  mapping: MappingSchema,
  cron: Type.String({ maxLength: 200 }),
  leaverRule: LeaverRule,
  enabled: Type.Boolean(),
});
const ItemSchema = Type.Object({
  id: Type.Integer(),
  kind: literals(['user', 'group'] as const),
  action: Action,
  externalId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  changes: Type.Array(Type.Object({ field: Type.String(), from: Type.String(), to: Type.String() })),
  status: ItemStatus,
  error: Type.String(),
});
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Paging = {
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
};
const Empty = Envelope(Type.Object({}));

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

/** What the run's answer says in its `msg`. */
function outcomeMessage(run: RunRow): string {
  if (run.status === 'succeeded') return '同步完成';
  if (run.status === 'partial') return `同步完成，${run.counts.failed} 项失败`;
  return run.error ? `同步失败：${run.error}` : `同步失败：${run.counts.failed} 项全部失败`;
}

/**
 * 同步 (authority auth:sync): an enterprise's sync jobs, their 预览 and 执行, and the 同步日志.
 * Another enterprise's jobs and runs answer 404; writes commit with their audit row.
 */
const syncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const runner = app.syncRunner;
  const { repo } = runner;
  const guard = { onRequest: app.requireAuthority(Authority.AuthSync) };

  async function jobOf(request: FastifyRequest, id: number): Promise<JobRow> {
    const job = await repo.job(callerEnterprise(request), id);
    if (!job) throw new NotFoundError(JOB_NOT_FOUND);
    return job;
  }

  async function runOf(request: FastifyRequest, id: number): Promise<RunRow> {
    const run = await repo.run(callerEnterprise(request), id);
    if (!run) throw new NotFoundError(RUN_NOT_FOUND);
    return run;
  }

  /** The body checked in the order the form shows it; the source must be the caller's enterprise's. */
  async function jobValues(request: FastifyRequest, body: SyncJobInput): Promise<JobValues> {
    const name = body.name.trim();
    if (!name) throw new BadRequestError(SyncMessage.jobNameRequired);
    if ([...name].length > SYNC_JOB_NAME_MAX) throw new BadRequestError(SyncMessage.jobNameTooLong);
    const source = await app.authSourceRepository.load(callerEnterprise(request), body.sourceId);
    if (!source) throw new NotFoundError(SOURCE_NOT_FOUND);
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

  /** A job name is checked first for its message; the constraint catches a concurrent twin. */
  async function writing(work: () => Promise<void>) {
    try {
      await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(SyncMessage.jobNameTaken);
      throw err;
    }
  }

  const callerOf = (request: FastifyRequest): SyncCaller => ({
    accountId: request.principal?.accountId ?? null,
    administers: administers(request),
    origin: 'manual',
    log: request.log,
    auditEntry: (outcome, target, detail) => requestAuditEntry(request, 'auth-sync.execute', target, outcome, detail),
    notify: (tickets) => app.ssoSessions.notify(request, tickets),
  });

  app.get(
    `${BASE}/jobs`,
    {
      ...guard,
      schema: { tags, summary: '同步任务列表（含下次执行时间与最近一次执行）', response: { 200: Envelope(JobSchema), ...errorResponses } },
    },
    async (request) => {
      const jobs = await repo.listJobs(callerEnterprise(request));
      const lastRuns = await repo.lastRuns(jobs.map((j) => j.id));
      return ok(jobs.map((job) => toJob(job, lastRuns.get(job.id))));
    },
  );

  app.post(
    `${BASE}/jobs`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.job.create' },
      schema: {
        tags,
        summary: '新建同步任务（认证源、字段映射、定时表达式、离职处理）',
        body: JobBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const values = await jobValues(request, request.body);
      if (await repo.jobNameTaken(enterpriseId, values.name)) throw new ConflictError(SyncMessage.jobNameTaken);
      let id = 0;
      await writing(() =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          id = await repo.createJob(trx, enterpriseId, values);
          await auditRequest(trx, request, 'auth-sync.job.create', values.name, 'success', values.cron ? `定时 ${values.cron}` : '仅手动');
        }),
      );
      return ok({ id }, '同步任务已创建');
    },
  );

  app.put(
    `${BASE}/jobs/:id`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.job.update' },
      schema: {
        tags,
        summary: '修改同步任务（待执行的预览随之过期）',
        params: IdParams,
        body: JobBody,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const current = await jobOf(request, request.params.id);
      const values = await jobValues(request, request.body);
      if (await repo.jobNameTaken(current.enterpriseId, values.name, current.id)) throw new ConflictError(SyncMessage.jobNameTaken);
      await writing(() =>
        inEnterpriseTransaction(db, current.enterpriseId, async (trx) => {
          await repo.updateJob(trx, current.id, values);
          const renamed = values.name === current.name ? current.name : `${current.name} → ${values.name}`;
          await auditRequest(trx, request, 'auth-sync.job.update', renamed, 'success', values.cron ? `定时 ${values.cron}` : '仅手动');
        }),
      );
      return ok([], '同步任务已保存');
    },
  );

  app.delete(
    `${BASE}/jobs/:id`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.job.delete' },
      schema: {
        tags,
        summary: '删除同步任务（连同其同步日志；已同步的账号与账号组保留）',
        params: IdParams,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const current = await jobOf(request, request.params.id);
      // Holding the lease while deleting: a run in progress is not cut off under its feet.
      const holder = runner.newHolder();
      if (!(await repo.acquireLease(current.id, holder, new Date(), LEASE_MS))) throw new ConflictError(SyncMessage.busy);
      try {
        await inEnterpriseTransaction(db, current.enterpriseId, async (trx) => {
          await repo.deleteJob(trx, current.id);
          await auditRequest(trx, request, 'auth-sync.job.delete', current.name);
        });
      } catch (err) {
        await repo.releaseLease(current.id, holder);
        throw err;
      }
      return ok([], '同步任务已删除');
    },
  );

  app.post(
    `${BASE}/jobs/:id/preview`,
    {
      ...guard,
      schema: {
        tags,
        summary: '预览同步（读取认证源，列出新增、更新、停用、移动，不写入账号）',
        params: IdParams,
        response: { 200: Envelope(RunSummarySchema), ...errorResponses },
      },
    },
    async (request) => {
      const job = await jobOf(request, request.params.id);
      const runId = await runner.preview(job, callerOf(request));
      return ok(runSummary(await runOf(request, runId)), '预览已生成');
    },
  );

  app.post(
    `${BASE}/runs/:id/execute`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.execute' },
      schema: {
        tags,
        summary: '执行预览（重新读取认证源；目录已变化则预览过期，不写入任何数据）',
        params: IdParams,
        response: { 200: Envelope(RunSummarySchema), ...errorResponses },
      },
    },
    async (request) => {
      const run = await runOf(request, request.params.id);
      const job = await jobOf(request, run.jobId);
      await runner.execute(run, job, callerOf(request));
      const done = await runOf(request, run.id);
      return ok(runSummary(done), outcomeMessage(done));
    },
  );

  app.get(
    `${BASE}/runs`,
    {
      ...guard,
      schema: {
        tags,
        summary: '同步日志（新的在前；可按任务、状态筛选）',
        querystring: Type.Object({
          jobId: Type.Optional(Type.Integer({ minimum: 1 })),
          status: Type.Optional(Type.Union([RunStatus, Type.Literal('')])),
          ...Paging,
        }),
        response: { 200: Envelope(Page(RunSummarySchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { jobId, status, offset, limit } = request.query;
      const page = await repo.runPage(callerEnterprise(request), { jobId, status: status || undefined }, offset, limit);
      return ok({ total: page.total, rows: page.rows.map(runSummary) });
    },
  );

  app.get(
    `${BASE}/runs/:id`,
    {
      ...guard,
      schema: { tags, summary: '同步记录', params: IdParams, response: { 200: Envelope(RunSummarySchema), ...errorResponses } },
    },
    async (request) => ok(runSummary(await runOf(request, request.params.id))),
  );

  app.get(
    `${BASE}/runs/:id/items`,
    {
      ...guard,
      schema: {
        tags,
        summary: '同步记录的对象明细（预览或执行结果；可按动作、结果筛选）',
        params: IdParams,
        querystring: Type.Object({
          action: Type.Optional(Type.Union([Action, Type.Literal('')])),
          status: Type.Optional(Type.Union([ItemStatus, Type.Literal('')])),
          ...Paging,
        }),
        response: { 200: Envelope(Page(ItemSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const run = await runOf(request, request.params.id);
      const { action, status, offset, limit } = request.query;
      const page = await repo.itemPage(run.id, { action: action || undefined, status: status || undefined }, offset, limit);
      const rows: SyncRunItem[] = page.rows.map((item) => ({
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
      return ok({ total: page.total, rows });
    },
  );
};

export default syncRoutes;
