import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, MyApplicationSchema } from '@portal/shared';
import { callerOf } from '../portal-auth/auth.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';

/**
 * 我的应用: the enabled applications of the user's enterprise that 应用授权 lets them use,
 * each opened at its own address (its CAS or OpenID Connect client sends the user through the central login).
 */
const myAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${ApiPrefix.portal}/my-apps`,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['sso-app'],
        summary: '我的应用：当前账号可使用的应用',
        response: { 200: Envelope(MyApplicationSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.ssoAppService.myApplications(callerOf(request).accountId)),
  );
};

export default myAppRoutes;
