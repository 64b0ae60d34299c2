import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  checkNewSuffix,
  EmptyAnswerSchema,
  IdentifierRecordInputSchema,
  IdentifierRecordQuerySchema,
  IdentifierRecordSchema,
  IdentifierRecordUpdateSchema,
  IdParamsSchema,
  MAX_HANDLE_LENGTH,
} from '@portal/shared';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import type { TemplateVersionInfo } from './handle-values.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags, type Scope } from './identifier-admin-context.js';
import { toRecord } from './record-repository.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { checkValues } from './template-items.js';

/**
 * Identifier records: paged list and search, create and edit (identifier:record); delete
 * (identifier:record:manage: staff view, add and edit, administrators remove). Values are
 * checked against the template.
 */
const recordAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const records = app.recordRepository;
  const { audit, prefixFor, templateFor, recordFor, recordFilter } = identifierAdminContext(app);
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
      const filter = await recordFilter(scopeOf(request), filters);
      return ok(filter ? await records.page({ ...filter, offset, limit }) : { rows: [], total: 0 });
    },
  );

  app.get(
    `${ApiPrefix.identity}/record/:id`,
    {
      ...canRecords,
      schema: { tags, summary: '标识详情', params: IdParamsSchema, response: { 200: Envelope(IdentifierRecordSchema), ...errorResponses } },
    },
    async (request) => ok(toRecord(await recordFor(scopeOf(request), request.params.id))),
  );

  /** The template's latest version, which must belong to `prefixId`. */
  async function templateOfPrefix(scope: Scope, templateId: number, prefixId: number): Promise<TemplateVersionInfo> {
    const template = await templateFor(scope, templateId, 'bad-request');
    if (template.prefix_id !== prefixId) throw new BadRequestError('模板不属于该标识前缀');
    return template.latest;
  }

  const checkedValues = (template: TemplateVersionInfo, values: Record<string, string>) => {
    const checked = checkValues(template.items, values);
    if (!checked.ok) throw new BadRequestError(checked.message);
    return checked.values;
  };

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
    async (request) => {
      const scope = scopeOf(request);
      const prefix = await prefixFor(scope, request.body.prefix.trim(), 'bad-request');
      const suffix = request.body.suffix.trim();
      const suffixProblem = checkNewSuffix(suffix);
      if (suffixProblem) throw new BadRequestError(suffixProblem);
      const handle = `${prefix.prefix}/${suffix}`;
      if (handle.length > MAX_HANDLE_LENGTH) throw new BadRequestError(`标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符`);
      const template = await templateOfPrefix(scope, request.body.templateId, prefix.id);
      const values = checkedValues(template, request.body.values);
      let id: number;
      try {
        id = await inTransaction(db, async (trx) => {
          const created = await records.create({ handle, prefixId: prefix.id, template, itemValues: JSON.stringify(values) }, trx);
          await audit(trx, request, 'identifier.record.create', handle, `${template.name} v${template.version}`);
          return created;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`标识 ${handle} 已存在`);
        throw err;
      }
      // A rendered /mark page of this handle said 未找到.
      app.caches.clear('identifiers');
      return ok(toRecord(await recordFor(scope, id)), '标识已创建');
    },
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
    async (request) => {
      const scope = scopeOf(request);
      const existing = await recordFor(scope, request.params.id);
      const template = await templateOfPrefix(scope, request.body.templateId ?? existing.template_id, existing.prefix_id);
      const values = checkedValues(template, request.body.values);
      await inTransaction(db, async (trx) => {
        await records.update(existing.id, { template, itemValues: JSON.stringify(values) }, trx);
        await audit(trx, request, 'identifier.record.update', existing.handle, `${template.name} v${template.version}`);
      });
      app.caches.clear('identifiers');
      return ok(toRecord(await recordFor(scope, existing.id)), '标识已保存');
    },
  );

  app.delete(
    `${ApiPrefix.identity}/record/:id`,
    {
      ...canManageRecords,
      schema: { tags, summary: '删除标识', params: IdParamsSchema, response: { 200: EmptyAnswerSchema, ...errorResponses } },
    },
    async (request) => {
      const existing = await recordFor(scopeOf(request), request.params.id);
      await inTransaction(db, async (trx) => {
        await records.delete(existing.id, trx);
        await audit(trx, request, 'identifier.record.delete', existing.handle);
      });
      app.caches.clear('identifiers');
      return ok([], '标识已删除');
    },
  );
};

export default recordAdminRoutes;
