import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { APP_URL_MAX, Authority, SELF_TEST_STEPS, SELF_TESTS_PER_MINUTE, SelfTestMessage, SsoMessage } from '@portal/shared';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { Envelope, errorResponses, literals, ok } from '../../platform/lib/envelope.js';
import { NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { runSelfTest, signInSkipReason } from './self-test.js';

const SelfTestStepSchema = Type.Object({
  key: literals(SELF_TEST_STEPS),
  title: Type.String(),
  status: literals(['passed', 'failed', 'skipped'] as const),
  detail: Type.String({ description: '检查了什么；未通过时的确切原因（地址、HTTP 状态、连接错误）' }),
});

const SelfTestResultSchema = Type.Object({
  applicationId: Type.Integer(),
  service: Type.String(),
  username: Type.String({ description: '测试账号：发起自检的管理员本人（通过其当前的统一身份认证会话）' }),
  passed: Type.Boolean({ description: '没有未通过的检查项' }),
  steps: Type.Array(SelfTestStepSchema),
  attributes: Type.Record(Type.String(), Type.Array(Type.String()), { description: '票据校验返回的属性' }),
  ranAt: Type.String(),
});

const SelfTestPrecheckSchema = Type.Object({
  applicationId: Type.Integer(),
  username: Type.String({ description: '测试账号：将发起自检的管理员本人' }),
  signInSkipped: Type.String({
    description: '自检将跳过测试登录与票据校验的原因（未获应用授权、使用外部统一身份认证）；为空表示将测试登录',
  }),
});

const SelfTestBodySchema = Type.Object({
  service: Type.Optional(Type.String({ maxLength: APP_URL_MAX * 4, description: '要检查的服务地址（应用的服务地址之一）；缺省为第一个' })),
});

/**
 * 接入自检 (tool 03 统一身份认证集成; authority app:list): runs the integration check of one
 * of the enterprise's applications (identity/sso-apps/self-test.ts). Another enterprise's id answers
 * 404. Each run makes up to three requests to addresses the enterprise configured, so runs are
 * limited per enterprise, and audited.
 */
const selfTestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Before a run: the console says when the sign-in step will be skipped, and why. Reads only, contacts nothing.
  app.get(
    '/web-api/console/v1/sso-app/:id/self-test',
    {
      onRequest: app.requireAuthority(Authority.AppList),
      schema: {
        tags: ['sso-app'],
        summary: '接入自检预检：以当前管理员为测试账号时是否会跳过测试登录（如未获应用授权）及原因',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
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
    '/web-api/console/v1/sso-app/:id/self-test',
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
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
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
