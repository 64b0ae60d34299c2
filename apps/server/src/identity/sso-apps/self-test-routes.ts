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
  SsoMessage,
} from '@portal/shared';
import fp from 'fastify-plugin';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { runSelfTest, signInSkipReason } from './self-test.js';

/**
 * 接入自检 (tool 03 统一身份认证集成; authority app:list): runs the integration check of one
 * of the enterprise's applications (identity/sso-apps/self-test.ts). Another enterprise's id answers
 * 404. Each run makes up to three requests to addresses the enterprise configured, so runs are
 * limited per enterprise, and audited.
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
    async (request) => {
      const principal = request.principal;
      if (!principal) throw new UnauthorizedError();
      const application = await app.ssoApps.byId(callerEnterprise(request), request.params.id);
      if (!application) throw new NotFoundError(SsoMessage.notFound);
      const { username } = principal.profile;
      const skipped = await signInSkipReason(app, application, principal.accountId, username);
      return ok({ applicationId: application.id, username, signInSkipped: skipped ?? '' });
    },
  );

  app.post(
    `${ApiPrefix.console}/sso-app/:id/self-test`,
    {
      onRequest: app.requireAuthority(Authority.AppList),
      config: {
        auditAction: 'sso-app.self-test',
        rateLimit: {
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
        summary: '接入自检：服务地址登记与可访问、注销地址、以管理员本人会话测试登录、p3/serviceValidate 校验与属性释放',
        params: RowIdParamsSchema,
        body: SelfTestBodySchema,
        response: { 200: Envelope(SelfTestResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (!principal) throw new UnauthorizedError();
      const application = await app.ssoApps.byId(callerEnterprise(request), request.params.id);
      if (!application) throw new NotFoundError(SsoMessage.notFound);
      const result = await runSelfTest(app, application, request.body.service, {
        id: principal.accountId,
        username: principal.profile.username,
        serviceTicket: principal.serviceTicket,
      });
      const failed = result.steps.filter((s) => s.status === 'failed').map((s) => s.title);
      await app.auditRepository.recordRequest(
        request,
        'sso-app.self-test',
        application.name,
        'success',
        `${result.service}：${failed.length ? `未通过 ${failed.join('、')}` : '全部通过'}`,
      );
      return ok(result, result.passed ? SelfTestMessage.passed : SelfTestMessage.failed);
    },
  );
};

export default fp(selfTestRoutes, { name: 'self-test-routes' });
