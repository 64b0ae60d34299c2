import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  IdentifierTemplateInputSchema,
  IdentifierTemplateListQuerySchema,
  IdentifierTemplateSchema,
  IdentifierTemplateUpdateSchema,
  IdentifierTemplateVersionSchema,
  IdParamsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/lib/db-errors.js';
import { normaliseItems } from './template-items.js';

/** Versioned metadata templates of a prefix (identifier:template writes; every identifier authority reads). */
const templateAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const templates = app.templateRepository;
  const { audit, prefixFor, templateFor } = identifierAdminContext(app);
  const canRead = { onRequest: identifierAccess(app, Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canTemplates = { onRequest: identifierAccess(app, Authority.IdentifierTemplate) };

  const createdBy = (request: FastifyRequest) => request.principal?.profile.username ?? '';
  const checkedTemplateName = (raw: string) => {
    const name = raw.trim();
    if (!name) throw new BadRequestError('请输入模板名称');
    return name;
  };

  app.get(
    `${ApiPrefix.identity}/template/list`,
    {
      ...canRead,
      schema: {
        tags,
        summary: '模板列表（最新版本）',
        querystring: IdentifierTemplateListQuerySchema,
        response: { 200: Envelope(IdentifierTemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const prefix = request.query.prefix?.trim() || undefined;
      if (prefix) await prefixFor(scope, prefix, 'bad-request');
      return ok(await templates.list(scope, { prefix }));
    },
  );

  app.get(
    `${ApiPrefix.identity}/template/:id`,
    {
      ...canRead,
      schema: {
        tags,
        summary: '模板（最新版本）',
        params: IdParamsSchema,
        response: { 200: Envelope(IdentifierTemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      await templateFor(scope, request.params.id);
      return ok((await templates.list(scope, { id: request.params.id }))[0]!);
    },
  );

  app.get(
    `${ApiPrefix.identity}/template/:id/version/list`,
    {
      ...canRead,
      schema: {
        tags,
        summary: '模板的全部版本（新的在前）',
        params: IdParamsSchema,
        response: { 200: Envelope(IdentifierTemplateVersionSchema), ...errorResponses },
      },
    },
    async (request) => {
      await templateFor(scopeOf(request), request.params.id);
      return ok(await templates.versions(request.params.id));
    },
  );

  app.post(
    `${ApiPrefix.identity}/template`,
    {
      ...canTemplates,
      schema: {
        tags,
        summary: '新建模板（版本 1）',
        body: IdentifierTemplateInputSchema,
        response: { 200: Envelope(IdentifierTemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const prefix = await prefixFor(scope, request.body.prefix.trim(), 'bad-request');
      const name = checkedTemplateName(request.body.name);
      const items = normaliseItems(request.body.items);
      let id: number;
      try {
        id = await inTransaction(db, async (trx) => {
          const created = await templates.create({ prefixId: prefix.id, name, items, createdBy: createdBy(request) }, trx);
          await audit(trx, request, 'identifier.template.create', `${prefix.prefix} ${name}`, `版本 1，${items.length} 个数据项`);
          return created;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${prefix.prefix} 下已有名为“${name}”的模板`);
        throw err;
      }
      return ok((await templates.list(scope, { id }))[0]!, '模板已创建');
    },
  );

  app.put(
    `${ApiPrefix.identity}/template/:id`,
    {
      ...canTemplates,
      schema: {
        tags,
        summary: '修改模板：保存为新版本，已有标识仍按写入时的版本显示',
        params: IdParamsSchema,
        body: IdentifierTemplateUpdateSchema,
        response: { 200: Envelope(IdentifierTemplateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const existing = await templateFor(scope, request.params.id);
      const name = checkedTemplateName(request.body.name);
      const items = normaliseItems(request.body.items, await templates.itemsEverUsed(existing.id));
      if (name === existing.latest.name && JSON.stringify(items) === JSON.stringify(existing.latest.items)) {
        return ok((await templates.list(scope, { id: existing.id }))[0]!, '模板没有变化');
      }
      let version: number;
      try {
        version = await inTransaction(db, async (trx) => {
          const added = await templates.addVersion(existing.id, { name, items, createdBy: createdBy(request) }, trx);
          await audit(trx, request, 'identifier.template.update', `${existing.prefix} ${name}`, `版本 ${added}，${items.length} 个数据项`);
          return added;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`前缀 ${existing.prefix} 下已有名为“${name}”的模板`);
        throw err;
      }
      return ok((await templates.list(scope, { id: existing.id }))[0]!, `模板已保存为版本 ${version}`);
    },
  );

  app.delete(
    `${ApiPrefix.identity}/template/:id`,
    {
      ...canTemplates,
      schema: {
        tags,
        summary: '删除模板（须无标识使用）',
        params: IdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const existing = await templateFor(scopeOf(request), request.params.id);
      if (await templates.inUse(existing.id)) throw new ConflictError('该模板下还有标识，不能删除');
      try {
        await inTransaction(db, async (trx) => {
          await templates.delete(existing.id, trx);
          await audit(trx, request, 'identifier.template.delete', `${existing.prefix} ${existing.name}`);
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new ConflictError('该模板下还有标识，不能删除');
        throw err;
      }
      return ok([], '模板已删除');
    },
  );
};

export default templateAdminRoutes;
