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
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * Versioned metadata templates of a prefix (identifier:template writes; every identifier authority
 * reads; the rules: template-admin-service.ts). */
const templateAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const templates = app.templateRepository;
  const { prefixFor, templateFor } = identifierAdminContext(app);
  const canRead = { onRequest: identifierAccess(app, Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canTemplates = { onRequest: identifierAccess(app, Authority.IdentifierTemplate) };

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
      const scope = scopeOf(callerOf(request));
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
      const scope = scopeOf(callerOf(request));
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
      await templateFor(scopeOf(callerOf(request)), request.params.id);
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
    async (request) => ok(await app.templateAdminService.create(callerOf(request), request.body), '模板已创建'),
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
      const { template, message } = await app.templateAdminService.update(callerOf(request), request.params.id, request.body);
      return ok(template, message);
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
      await app.templateAdminService.delete(callerOf(request), request.params.id);
      return ok([], '模板已删除');
    },
  );
};

export default templateAdminRoutes;
