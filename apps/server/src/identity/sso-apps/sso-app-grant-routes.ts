import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, RowIdParamsSchema, SsoAppGrantsBodySchema, SsoAppGrantsSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['sso-app'];
const BASE = `${ApiPrefix.console}/sso-app`;

/**
 * 应用授权 (authority app:authorization): who of the enterprise may sign in to one of its
 * applications: account groups, roles, single accounts, or 企业全员; none by default. The CAS checks
 * it at every ticket and every validation, so a change holds at once.
 */
const ssoAppGrantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const apps = app.ssoAppService;
  const canGrant = { onRequest: app.requireAuthority(Authority.AppAuthorization) };

  app.get(
    `${BASE}/:id/grants`,
    {
      ...canGrant,
      schema: {
        tags,
        summary: '应用授权：可登录该应用的账号组、角色与账号',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SsoAppGrantsSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.grants(callerOf(request), request.params.id)),
  );

  app.put(
    `${BASE}/:id/grants`,
    {
      ...canGrant,
      config: { auditAction: 'sso-app.grants' },
      schema: {
        tags,
        summary: '保存应用授权（整体替换）',
        params: RowIdParamsSchema,
        body: SsoAppGrantsBodySchema,
        response: { 200: Envelope(SsoAppGrantsSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.setGrants(callerOf(request), request.params.id, request.body), '应用授权已保存'),
  );
};

export default ssoAppGrantRoutes;
