import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  PasskeyMessage,
  PasskeyOptionsSchema,
  PasskeyParamsSchema,
  PasskeyRegisterBodySchema,
  PasskeyRenameBodySchema,
  PasskeySchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ForbiddenError, TooManyRequestsError } from '../../platform/lib/errors.js';
import { actorOf, callerOf } from '../portal-auth/auth.js';

const MINE = `${ApiPrefix.portalAuth}/account/passkeys`;
const tags = ['security'];
/** Registration ceremonies begun per account and minute: each keeps a challenge row until it is spent or expires. */
const CEREMONIES_PER_MINUTE = 10;

/**
 * 个人信息's 通行密钥 (the caller's own passkeys: adding and removing one is a sensitive change behind
 * 验证身份, `requireRecentAuth`; renaming is not), and the console's 清除通行密钥 of an account of the
 * administrator's enterprise (org:account or security:setting, as 重置二次验证).
 */
const passkeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const owner = (request: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(request);
    return { ...caller, name: caller.profile.name };
  };

  app.get(
    MINE,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '我的通行密钥（名称、添加时间、最近使用时间）',
        response: { 200: Envelope(PasskeySchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.passkeyService.list(callerOf(request).accountId)),
  );

  app.post(
    `${MINE}/options`,
    {
      onRequest: app.requireRecentAuth,
      config: {
        rateLimit: {
          limit: 'passkey-register',
          max: CEREMONIES_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) => `account:${request.principal?.accountId ?? request.ip}`,
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(`添加通行密钥过于频繁，请 ${Math.ceil(context.ttl / 1000)} 秒后再试`),
        },
      },
      schema: {
        tags,
        summary: '添加通行密钥：注册参数（需近期验证身份）',
        response: { 200: Envelope(PasskeyOptionsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const options = await app.passkeyService.registrationOptions(owner(request));
      return ok({ options: options as unknown as Record<string, unknown> });
    },
  );

  app.post(
    MINE,
    {
      onRequest: app.requireRecentAuth,
      config: { auditAction: 'passkey.add' },
      schema: {
        tags,
        summary: '添加通行密钥：提交验证器的注册结果与名称（需近期验证身份）',
        body: PasskeyRegisterBodySchema,
        response: { 200: Envelope(PasskeySchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(await app.passkeyService.register(owner(request), request.body.name, request.body.credential), PasskeyMessage.added),
  );

  app.put(
    `${MINE}/:id`,
    {
      onRequest: app.authenticate,
      config: { auditAction: 'passkey.rename' },
      schema: {
        tags,
        summary: '重命名通行密钥',
        params: PasskeyParamsSchema,
        body: PasskeyRenameBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.passkeyService.rename(callerOf(request), request.params.id, request.body.name);
      return ok([], PasskeyMessage.renamed);
    },
  );

  app.delete(
    `${MINE}/:id`,
    {
      onRequest: app.requireRecentAuth,
      config: { auditAction: 'passkey.remove' },
      schema: {
        tags,
        summary: '移除通行密钥（需近期验证身份）',
        params: PasskeyParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.passkeyService.remove(callerOf(request), request.params.id);
      return ok([], PasskeyMessage.removed);
    },
  );

  app.delete(
    `${ApiPrefix.console}/account/:id/passkeys`,
    {
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.SecuritySetting),
      config: { auditAction: 'account.passkeys-remove' },
      schema: {
        tags,
        summary: '清除通行密钥（移除该账号的全部通行密钥）',
        params: PasskeyParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = request.principal?.profile.enterpriseId;
      if (!enterpriseId) throw new ForbiddenError('当前账号不属于任何企业');
      const removed = await app.passkeyService.removeAllOf(enterpriseId, request.params.id, actorOf(request));
      return ok([], removed > 0 ? `已清除该账号的 ${removed} 个通行密钥` : '该账号没有通行密钥');
    },
  );
};

export default passkeyRoutes;
