import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  RowIdParamsSchema,
  SELF_TESTS_PER_MINUTE,
  SelfTestBodySchema,
  SelfTestMessage,
  SelfTestPrecheckSchema,
  SelfTestResultSchema,
} from '@portal/shared';
import fp from 'fastify-plugin';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { TooManyRequestsError } from '../../platform/lib/errors.js';
import { selfTestPrecheck, selfTestRun } from './self-test-service.js';
import { callerOf } from '../portal-auth/auth.js';

/**
 * 接入自检 (tool 03 统一身份认证集成; authority app:list): runs the integration check of one
 * of the enterprise's applications (`self-test-service.ts`, the check itself in `self-test.ts` for CAS and
 * `oidc-self-test.ts` for OpenID Connect). Another enterprise's id answers 404. Each run makes up to
 * three requests to addresses the enterprise configured, so runs are limited per enterprise, and audited.
 */
const selfTestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Before a run: the console says when the sign-in step will be skipped, and why. Reads only, contacts nothing.
  app.get(
    `${ApiPrefix.console}/sso-app/:id/self-test`,
    {
      onRequest: app.requireAuthority(Authority.AppList),
      schema: {
        tags: ['sso-app'],
        summary: '接入自检预检：以当前管理员为测试账号时是否会跳过测试登录（如未获应用授权）及原因',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SelfTestPrecheckSchema), ...errorResponses },
      },
    },
    async (request) => ok(await selfTestPrecheck(app, callerOf(request), request.params.id)),
  );

  app.post(
    `${ApiPrefix.console}/sso-app/:id/self-test`,
    {
      onRequest: app.requireAuthority(Authority.AppList),
      config: {
        auditAction: 'sso-app.self-test',
        rateLimit: {
          limit: 'sso-self-test',
          max: SELF_TESTS_PER_MINUTE,
          timeWindow: 60_000,
          // After the authority check: the caller's enterprise is known.
          hook: 'preHandler',
          keyGenerator: (request) =>
            `self-test:${request.principal?.profile.enterpriseId ?? `account-${request.principal?.accountId ?? request.ip}`}`,
          errorResponseBuilder: (_request, context) => new TooManyRequestsError(SelfTestMessage.tooMany(Math.ceil(context.ttl / 1000))),
        },
      },
      schema: {
        tags: ['sso-app'],
        summary:
          '接入自检。CAS：服务地址登记与可访问、注销地址、以管理员本人会话测试登录、p3/serviceValidate 校验与属性释放；OpenID Connect：发现文档与 JWKS、回调地址登记与可访问、后端登出地址、以管理员本人会话完成授权码 + PKCE 登录、令牌交换（机密客户端用本次输入的密钥，不保存）、ID Token 校验与用户信息，测试令牌随即撤销',
        params: RowIdParamsSchema,
        body: SelfTestBodySchema,
        response: { 200: Envelope(SelfTestResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const result = await selfTestRun(app, callerOf(request), request.params.id, request.body);
      return ok(result, result.passed ? SelfTestMessage.passed : SelfTestMessage.failed);
    },
  );
};

export default fp(selfTestRoutes, { name: 'self-test-routes' });
