import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  IdentifierRecordInputSchema,
  IdentifierRecordQuerySchema,
  IdentifierRecordSchema,
  IdentifierRecordUpdateSchema,
  IdParamsSchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { toRecord } from './record-repository.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * Identifier records: paged list and search, create and edit (identifier:record); delete
 * (identifier:record:manage: staff view, add and edit, administrators remove). Values are
 * checked against the template (the rules: record-admin-service.ts).
 */
const recordAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const records = app.recordRepository;
  const { recordFor, recordFilter } = identifierAdminContext(app);
  const canRecords = { onRequest: identifierAccess(app, Authority.IdentifierRecord) };
  const canManageRecords = { onRequest: identifierAccess(app, Authority.IdentifierRecordManage) };

  app.get(
    `${ApiPrefix.identity}/record/page/list`,
    {
      ...canRecords,
      schema: {
        tags,
        summary: '标识分页列表（新的在前）：按前缀、模板筛选，按标识或后缀开头搜索',
        querystring: IdentifierRecordQuerySchema,
        response: { 200: Envelope(Page(IdentifierRecordSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit, ...filters } = request.query;
      const filter = await recordFilter(scopeOf(callerOf(request)), filters);
      return ok(filter ? await records.page({ ...filter, offset, limit }) : { rows: [], total: 0 });
    },
  );

  app.get(
    `${ApiPrefix.identity}/record/:id`,
    {
      ...canRecords,
      schema: { tags, summary: '标识详情', params: IdParamsSchema, response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses } },
    },
    async (request) => ok(toRecord(await recordFor(scopeOf(callerOf(request)), request.params.id))),
  );

  app.post(
    `${ApiPrefix.identity}/record`,
    {
      ...canRecords,
      schema: {
        tags,
        summary: '新建标识：数据项按模板最新版本校验',
        body: IdentifierRecordInputSchema,
        response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses },
      },
    },
    async (request) => ok(toRecord(await app.recordAdminService.create(callerOf(request), request.body)), '标识已创建'),
  );

  app.put(
    `${ApiPrefix.identity}/record/:id`,
    {
      ...canRecords,
      schema: {
        tags,
        summary: '修改标识的数据项（按所选模板的最新版本校验，记录随之升到该版本）',
        params: IdParamsSchema,
        body: IdentifierRecordUpdateSchema,
        response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses },
      },
    },
    async (request) => ok(toRecord(await app.recordAdminService.update(callerOf(request), request.params.id, request.body)), '标识已保存'),
  );

  app.delete(
    `${ApiPrefix.identity}/record/:id`,
    {
      ...canManageRecords,
      schema: { tags, summary: '删除标识', params: IdParamsSchema, response: { 200: EmptyAnswerSchema, ...errorResponses } },
    },
    async (request) => {
      await app.recordAdminService.delete(callerOf(request), request.params.id);
      return ok([], '标识已删除');
    },
  );
};

export default recordAdminRoutes;
