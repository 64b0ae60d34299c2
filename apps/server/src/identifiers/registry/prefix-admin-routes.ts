import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  EnterpriseOptionSchema,
  IdentifierPrefixInputSchema,
  IdentifierPrefixListQuerySchema,
  IdentifierPrefixParamsSchema,
  IdentifierPrefixSchema,
  IdentifierPrefixUpdateSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { identifierAccess, scopeOf, tags } from './identifier-admin-context.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * Identifier prefixes: every user reads the prefixes they may see; platform operators assign them to
 * enterprises (the rules: prefix-admin-service.ts). */
const prefixAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const prefixes = app.prefixRepository;
  const canRead = { onRequest: identifierAccess(app, Authority.IdentifierTemplate, Authority.IdentifierRecord, Authority.IdentifierAll) };
  const canPrefixes = { onRequest: app.requireAuthority(Authority.IdentifierAll) };

  app.get(
    `${ApiPrefix.identity}/prefix/list`,
    {
      ...canRead,
      schema: {
        tags,
        summary: '标识前缀列表（运营人员可按企业筛选，其他用户只看本企业）',
        querystring: IdentifierPrefixListQuerySchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => ok(await prefixes.list(scopeOf(callerOf(request)), { enterpriseId: request.query.enterpriseId })),
  );

  app.get(
    `${ApiPrefix.identity}/enterprise/list`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '可分配标识前缀的企业（平台运营）',
        response: { 200: Envelope(EnterpriseOptionSchema), ...errorResponses },
      },
    },
    async () => ok(await prefixes.enterprises()),
  );

  app.post(
    `${ApiPrefix.identity}/prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '分配标识前缀给企业（平台运营）',
        body: IdentifierPrefixInputSchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.prefixAdminService.create(callerOf(request), request.body), '标识前缀已创建'),
  );

  app.put(
    `${ApiPrefix.identity}/prefix/:prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '修改标识前缀的名称或所属企业（平台运营）',
        params: IdentifierPrefixParamsSchema,
        body: IdentifierPrefixUpdateSchema,
        response: { 200: Envelope(IdentifierPrefixSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.prefixAdminService.update(callerOf(request), request.params.prefix, request.body), '标识前缀已保存'),
  );

  app.delete(
    `${ApiPrefix.identity}/prefix/:prefix`,
    {
      ...canPrefixes,
      schema: {
        tags,
        summary: '删除标识前缀（须无模板与标识）',
        params: IdentifierPrefixParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.prefixAdminService.delete(callerOf(request), request.params.prefix);
      return ok([], '标识前缀已删除');
    },
  );
};

export default prefixAdminRoutes;
