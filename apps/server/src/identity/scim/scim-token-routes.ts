import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  RowIdParamsSchema,
  ScimTokenBodySchema,
  ScimTokenRowSchema,
  ScimMessage,
  ScimTokenSecretSchema,
  TenantIntegrationsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ForbiddenError } from '../../platform/lib/errors.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['scim'];
const BASE = `${ApiPrefix.console}/auth/scim-tokens`;

/**
 * SCIM 同步's tokens (a card of 认证源, authority auth:source): list, 创建 (the token answered once),
 * 吊销. A token manages the enterprise's people and groups, so creating one also takes org:account and
 * org:group (what 企业管理员 holds) and a recent 验证身份. Operators (authority tenant) see any
 * enterprise's tokens with their last use in 租户管理.
 */
const scimTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tokens = app.scimTokenService;
  const canSource = { onRequest: app.requireAuthority(Authority.AuthSource) };
  const canCreate = {
    onRequest: [
      app.requireAuthority(Authority.AuthSource),
      async (request: FastifyRequest) => {
        const held = request.principal?.profile.authorities ?? [];
        if (!held.includes(Authority.OrgAccount) || !held.includes(Authority.OrgGroup))
          throw new ForbiddenError(ScimMessage.createForbidden);
      },
      app.requireRecentAuth,
    ],
  };

  app.get(
    BASE,
    {
      ...canSource,
      schema: {
        tags,
        summary: 'SCIM 令牌列表（含最近使用时间与地址）',
        response: { 200: Envelope(ScimTokenRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await tokens.list(callerOf(request))),
  );

  app.post(
    BASE,
    {
      ...canCreate,
      config: { auditAction: 'scim-token.create' },
      schema: {
        tags,
        summary: '创建 SCIM 令牌（令牌只返回这一次）',
        body: ScimTokenBodySchema,
        response: { 200: Envelope(ScimTokenSecretSchema), ...errorResponses },
      },
    },
    async (request) => ok(await tokens.create(callerOf(request), request.body.name), 'SCIM 令牌已创建'),
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canSource,
      config: { auditAction: 'scim-token.revoke' },
      schema: {
        tags,
        summary: '吊销 SCIM 令牌（立即失效）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await tokens.revoke(callerOf(request), request.params.id);
      return ok([], 'SCIM 令牌已吊销');
    },
  );

  app.get(
    `${ApiPrefix.console}/tenants/:id/scim-tokens`,
    {
      onRequest: app.requireAuthority(Authority.Tenant),
      schema: {
        tags,
        summary: '某企业的 SCIM 令牌与最近使用时间（平台运营）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(ScimTokenRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await tokens.listOf(request.params.id)),
  );

  // 租户管理's 详情 in one read: the enterprise's 认证源 and SCIM clients with their last activity.
  app.get(
    `${ApiPrefix.console}/tenants/:id/integrations`,
    {
      onRequest: app.requireAuthority(Authority.Tenant),
      schema: {
        tags,
        summary: '某企业的认证源与 SCIM 客户端及其最近活动（平台运营）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(TenantIntegrationsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const sources = await app.authSourceService.activityOfEnterprise(request.params.id);
      return ok([{ sources, scimClients: await tokens.activityOf(request.params.id) }]);
    },
  );
};

export default scimTokenRoutes;
