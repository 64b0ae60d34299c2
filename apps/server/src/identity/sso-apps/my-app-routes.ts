import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';

const MyApplicationSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  icon: Type.String({ description: '相对路径，前端加文件服务地址；空：无图标' }),
  category: Type.String(),
  description: Type.String(),
  url: Type.String({ description: '应用的第一个服务地址：打开它即经统一身份认证登录' }),
});

/**
 * 我的应用: the enabled applications of the user's enterprise that 应用授权 lets them use,
 * each opened at its own address (its CAS client sends the user through the central login).
 */
const myAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/web-api/portal/v1/my-apps',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['sso-app'],
        summary: '我的应用：当前账号可使用的应用',
        response: { 200: Envelope(MyApplicationSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.ssoApps.usableBy(request.principal!.accountId)),
  );
};

export default myAppRoutes;
