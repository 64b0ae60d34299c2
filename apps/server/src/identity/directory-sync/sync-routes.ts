import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
  SyncJobInputSchema,
  SyncJobSchema,
  SyncRunItemQuerySchema,
  SyncRunItemSchema,
  SyncRunQuerySchema,
  SyncRunSummarySchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { type RunRow, runSummary } from '../auth-sources/sync-run-summary.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['auth-sync'];
const BASE = `${ApiPrefix.console}/auth/sync`;

/** What the run's answer says in its `msg`. */
function outcomeMessage(run: RunRow): string {
  if (run.status === 'succeeded') return '同步完成';
  if (run.status === 'partial') return `同步完成，${run.counts.failed} 项失败`;
  return run.error ? `同步失败：${run.error}` : `同步失败：${run.counts.failed} 项全部失败`;
}

/**
 * 同步 (authority auth:sync): the HTTP side of the sync service (jobs, 预览, 执行, 同步日志).
 * Another enterprise's jobs and runs answer 404.
 */
const syncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sync = app.syncService;
  const guard = { onRequest: app.requireAuthority(Authority.AuthSync) };

  app.get(
    `${BASE}/jobs`,
    {
      ...guard,
      schema: {
        tags,
        summary: '同步任务列表（含下次执行时间与最近一次执行）',
        response: { 200: Envelope(SyncJobSchema), ...errorResponses },
      },
    },
    async (request) => ok(await sync.jobs(callerOf(request))),
  );

  app.post(
    `${BASE}/jobs`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.job.create' },
      schema: {
        tags,
        summary: '新建同步任务（认证源、字段映射、定时表达式、离职处理）',
        body: SyncJobInputSchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => ok({ id: await sync.createJob(callerOf(request), request.body) }, '同步任务已创建'),
  );

  app.put(
    `${BASE}/jobs/:id`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.job.update' },
      schema: {
        tags,
        summary: '修改同步任务（待执行的预览随之过期）',
        params: RowIdParamsSchema,
        body: SyncJobInputSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await sync.updateJob(callerOf(request), request.params.id, request.body);
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
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await sync.deleteJob(callerOf(request), request.params.id);
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
        params: RowIdParamsSchema,
        response: { 200: Envelope(SyncRunSummarySchema), ...errorResponses },
      },
    },
    async (request) => ok(runSummary(await sync.preview(callerOf(request), request.params.id)), '预览已生成'),
  );

  app.post(
    `${BASE}/runs/:id/execute`,
    {
      ...guard,
      config: { auditAction: 'auth-sync.execute' },
      schema: {
        tags,
        summary: '执行预览（重新读取认证源；目录已变化则预览过期，不写入任何数据）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SyncRunSummarySchema), ...errorResponses },
      },
    },
    async (request) => {
      const done = await sync.execute(callerOf(request), request.params.id);
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
        querystring: SyncRunQuerySchema,
        response: { 200: Envelope(Page(SyncRunSummarySchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { jobId, status, offset, limit } = request.query;
      const page = await sync.runs(callerOf(request), { jobId, status: status || undefined }, offset, limit);
      return ok({ total: page.total, rows: page.rows.map(runSummary) });
    },
  );

  app.get(
    `${BASE}/runs/:id`,
    {
      ...guard,
      schema: {
        tags,
        summary: '同步记录',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SyncRunSummarySchema), ...errorResponses },
      },
    },
    async (request) => ok(runSummary(await sync.run(callerOf(request), request.params.id))),
  );

  app.get(
    `${BASE}/runs/:id/items`,
    {
      ...guard,
      schema: {
        tags,
        summary: '同步记录的对象明细（预览或执行结果；可按动作、结果筛选）',
        params: RowIdParamsSchema,
        querystring: SyncRunItemQuerySchema,
        response: { 200: Envelope(Page(SyncRunItemSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { action, status, offset, limit } = request.query;
      return ok(
        await sync.items(callerOf(request), request.params.id, { action: action || undefined, status: status || undefined }, offset, limit),
      );
    },
  );
};

export default syncRoutes;
