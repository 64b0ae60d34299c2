import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, EmptyAnswerSchema, MyTwoFactorSchema, ReauthBodySchema, ReauthMessage, RecoveryCodesSchema } from '@portal/shared';
import { auditBy } from '../../platform/audit/audit-log.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, TokenError, TooManyRequestsError } from '../../platform/lib/errors.js';
import { callerOf } from './auth.js';

/** 验证身份 tries per account and minute: the lockout counts wrong ones too, this only slows a script. */
const REAUTH_PER_MINUTE = 10;

/**
 * 个人信息's account security: 验证身份 (a recent proof of identity for sensitive changes,
 * `requireRecentAuth`), and the account's own 二次验证 with 重新生成恢复码, which needs one.
 */
const accountSecurityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['portal-auth'];

  app.post(
    `${ApiPrefix.portalAuth}/account/reauth`,
    {
      onRequest: app.authenticate,
      config: {
        rateLimit: {
          limit: 'reauth',
          max: REAUTH_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) => `account:${request.principal?.accountId ?? request.ip}`,
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(`验证身份尝试过于频繁，请 ${Math.ceil(context.ttl / 1000)} 秒后再试`),
        },
      },
      schema: {
        tags,
        summary: '验证身份：以当前密码（RSA-OAEP 加密）或动态验证码重新验证，之后数分钟内可修改敏感信息',
        body: ReauthBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (!principal) throw new TokenError('missing');
      const client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log };
      await app.reauthService.verify(principal, request.body, client);
      return ok([], ReauthMessage.verified);
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/account/two-factor`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '我的二次验证：是否已绑定身份验证器，剩余恢复码数',
        response: { 200: Envelope(MyTwoFactorSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.twoFactorService.stateOf(callerOf(request).accountId)),
  );

  app.post(
    `${ApiPrefix.portalAuth}/account/two-factor/recovery-codes`,
    {
      onRequest: app.requireRecentAuth,
      config: { auditAction: 'two-factor.recovery-codes' },
      schema: {
        tags,
        summary: '重新生成恢复码（需近期验证身份；旧恢复码立即失效，新恢复码只显示一次）',
        response: { 200: Envelope(RecoveryCodesSchema), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const codes = await app.twoFactorService.regenerateRecoveryCodes(caller.accountId, (trx) =>
        auditBy(trx, caller, 'two-factor.recovery-codes', caller.username),
      );
      if (!codes) throw new BadRequestError('尚未绑定二次验证');
      return ok({ codes }, '恢复码已重新生成');
    },
  );
};

export default accountSecurityRoutes;
