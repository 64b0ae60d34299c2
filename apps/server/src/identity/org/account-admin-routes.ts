import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ACCOUNT_EXPORT_MAX_ROWS,
  AccountCreateBodySchema,
  AccountFilterQuerySchema,
  AccountImportResultSchema,
  AccountImportTemplateQuerySchema,
  AccountPageQuerySchema,
  AccountPasswordBodySchema,
  AccountRowSchema,
  AccountStatusBodySchema,
  AccountUpdateBodySchema,
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { attachment } from '../../platform/audit/audit-csv.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError } from '../../platform/lib/errors.js';
import { callerOf } from '../portal-auth/auth.js';
import type { AccountFilters } from './account-admin-repository.js';
import { accountsCsv } from './account-export.js';
import { MAX_IMPORT_BYTES, csvTemplate, xlsxTemplate } from './account-import.js';

const BASE = ApiPrefix.console;
const tags = ['org'];
/** A file answer: documented as a string, typed as the stream the handler answers. */
const FileAnswer = (mime: string) => Type.Unsafe<Readable>({ type: 'string', description: mime });

/** The one file of a multipart 导入 request, read whole (at most MAX_IMPORT_BYTES). */
async function uploadOf(request: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  let file;
  try {
    file = await request.file();
  } catch {
    throw new BadRequestError('请以 multipart/form-data 上传 CSV 或 Excel 文件');
  }
  if (!file) throw new BadRequestError('请选择要导入的文件');
  try {
    return { filename: file.filename, bytes: await file.toBuffer() };
  } catch (err) {
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 1 MB', 413);
    throw err;
  }
}

const filtersOf = (q: AccountFilters): AccountFilters => ({ keyword: q.keyword, state: q.state, groupId: q.groupId, roleId: q.roleId });

/**
 * 账号管理 (org:account): the HTTP side of the account administration service. An account of another
 * enterprise, or a deleted one, answers 404 on every route.
 */
const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 10 } });
  const accounts = app.accountAdminService;
  const guard = { onRequest: app.requireAuthority(Authority.OrgAccount) };

  app.get(
    `${BASE}/account/page/list`,
    {
      // 应用授权 picks single accounts from this list, so it reads it too.
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.AppAuthorization),
      schema: {
        tags,
        summary: '账号分页列表（本企业；可按账号/姓名/手机号、状态、账号组、角色筛选；最新创建的在前）',
        querystring: AccountPageQuerySchema,
        response: { 200: Envelope(Page(AccountRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit } = request.query;
      return ok(await accounts.page(callerOf(request), filtersOf(request.query), offset, limit));
    },
  );

  app.post(
    `${BASE}/account`,
    {
      ...guard,
      config: { auditAction: 'account.create' },
      schema: {
        tags,
        summary: '新增账号（手动设置初始密码，或随机密码并短信通知；首次登录须修改密码）',
        body: AccountCreateBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { id, bySms } = await accounts.create(callerOf(request), request.body);
      return ok({ id }, bySms ? '账号已创建，初始密码已通过短信发送' : '账号已创建');
    },
  );

  app.put(
    `${BASE}/account/:id`,
    {
      ...guard,
      config: { auditAction: 'account.update' },
      schema: {
        tags,
        summary: '编辑账号（姓名、手机号、邮箱、账号组、角色；账号不可修改）',
        params: RowIdParamsSchema,
        body: AccountUpdateBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await accounts.update(callerOf(request), request.params.id, request.body);
      return ok([], '账号已保存');
    },
  );

  app.put(
    `${BASE}/account/:id/status`,
    {
      ...guard,
      config: { auditAction: 'account.disable' },
      schema: {
        tags,
        summary: '停用或启用账号（停用即结束其门户会话与单点登录会话，并向持有其票据的应用发送单点登出）',
        params: RowIdParamsSchema,
        body: AccountStatusBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { status } = request.body;
      await accounts.setStatus(callerOf(request), request.params.id, status);
      return ok([], status === 'disabled' ? '账号已停用' : '账号已启用');
    },
  );

  app.post(
    `${BASE}/account/:id/unlock`,
    {
      ...guard,
      config: { auditAction: 'account.unlock' },
      schema: {
        tags,
        summary: '解锁账号（清除密码错误次数与锁定）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await accounts.unlock(callerOf(request), request.params.id);
      return ok([], '账号已解锁');
    },
  );

  app.post(
    `${BASE}/account/:id/password`,
    {
      ...guard,
      config: { auditAction: 'account.reset-password' },
      schema: {
        tags,
        summary: '重置密码（手动设置或随机密码并短信通知；结束其全部会话，下次登录须修改密码）',
        params: RowIdParamsSchema,
        body: AccountPasswordBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { passwordMode, password } = request.body;
      const { bySms } = await accounts.resetPassword(callerOf(request), request.params.id, passwordMode, password);
      return ok([], bySms ? '密码已重置，新密码已通过短信发送' : '密码已重置');
    },
  );

  app.delete(
    `${BASE}/account/:id`,
    {
      ...guard,
      config: { auditAction: 'account.delete' },
      schema: {
        tags,
        summary: '删除账号（保留账号与手机号不可再用；结束其全部会话，移出账号组并收回角色）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await accounts.remove(callerOf(request), request.params.id);
      return ok([], '账号已删除');
    },
  );

  app.get(
    `${BASE}/account/import/template`,
    {
      ...guard,
      schema: {
        tags,
        summary: '下载账号导入模板（CSV 或 Excel）',
        querystring: AccountImportTemplateQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: FileAnswer('text/csv 或 xlsx'), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (request.query.format === 'csv') {
        reply.type('text/csv; charset=utf-8').header('content-disposition', attachment('账号导入模板.csv', 'account-import-template.csv'));
        return csvTemplate();
      }
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment('账号导入模板.xlsx', 'account-import-template.xlsx'));
      return xlsxTemplate();
    },
  );

  app.post(
    `${BASE}/account/import`,
    {
      ...guard,
      config: { auditAction: 'account.import' },
      schema: {
        tags,
        summary:
          '批量导入账号（multipart 字段 file，CSV 或 XLSX，列同导入模板）：逐行校验，任何一行有误则全部不导入并列出每个有误的行号；未填初始密码的行生成随机密码并短信通知',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(AccountImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { result, message } = await accounts.importSheet(callerOf(request), () => uploadOf(request));
      return ok(result, message);
    },
  );

  app.get(
    `${BASE}/account/export`,
    {
      ...guard,
      config: { auditAction: 'account.export' },
      schema: {
        tags,
        summary: `导出账号 CSV（UTF-8 带 BOM，筛选条件同列表，列同列表，最多 ${ACCOUNT_EXPORT_MAX_ROWS} 个）`,
        querystring: AccountFilterQuerySchema,
        produces: ['text/csv'],
        response: { 200: FileAnswer('text/csv; charset=utf-8'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = await accounts.exportRows(callerOf(request), filtersOf(request.query));
      const stamp = chinaTime(new Date()).replace(/[-: ]/g, '');
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`账号-${stamp}.csv`, `accounts-${stamp}.csv`));
      return accountsCsv(rows);
    },
  );
};

export default accountAdminRoutes;
