import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTH_SOURCE_TESTS_PER_MINUTE,
  ApiPrefix,
  AuthSourceDetailSchema,
  AuthSourceInputSchema,
  AuthSourceMessage,
  AuthSourceSummarySchema,
  AuthSourceTestInputSchema,
  AuthSourceTestResultSchema,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  FederationTestLinkSchema,
  RowIdParamsSchema,
  SamlIdpMetadataSchema,
  SamlMetadataReadSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { TooManyRequestsError } from '../../platform/lib/errors.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['auth-source'];
const BASE = `${ApiPrefix.console}/auth/sources`;

/**
 * 认证源 (authority auth:source): the HTTP side of the auth source service. Operators (authority
 * tenant) see any enterprise's sources and their last sync.
 */
const authSourceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sources = app.authSourceService;
  const canSource = { onRequest: app.requireAuthority(Authority.AuthSource) };
  const canTenants = { onRequest: app.requireAuthority(Authority.Tenant) };
  /** 测试连接s per minute and enterprise. */
  const testRuns = app.createRateLimit({
    limit: 'auth-source-test',
    max: AUTH_SOURCE_TESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `auth-source-test:${request.principal?.profile.enterpriseId ?? `account-${request.principal?.accountId}`}`,
  });

  app.get(
    BASE,
    {
      // 同步's job form picks its source from this list (no secrets in it).
      onRequest: app.requireAuthority(Authority.AuthSource, Authority.AuthSync),
      schema: {
        tags,
        summary: '认证源列表（含关联账号数与最近一次同步）',
        response: { 200: Envelope(AuthSourceSummarySchema), ...errorResponses },
      },
    },
    async (request) => ok(await sources.list(callerOf(request))),
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '认证源详情（不含密钥）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(AuthSourceDetailSchema), ...errorResponses },
      },
    },
    async (request) => ok(await sources.detail(callerOf(request), request.params.id)),
  );

  app.post(
    BASE,
    {
      ...canSource,
      config: { auditAction: 'auth-source.create' },
      schema: {
        tags,
        summary: '新建认证源（企业微信、钉钉、飞书每种最多一个）',
        body: AuthSourceInputSchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => ok({ id: await sources.create(callerOf(request), request.body) }, '认证源已创建'),
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canSource,
      config: { auditAction: 'auth-source.update' },
      schema: {
        tags,
        summary: '修改认证源（类型不能修改；密钥为空表示不修改；含启用与停用）',
        params: RowIdParamsSchema,
        body: AuthSourceInputSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await sources.update(callerOf(request), request.params.id, request.body);
      return ok([], '认证源已保存');
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canSource,
      config: { auditAction: 'auth-source.delete' },
      schema: {
        tags,
        summary: '删除认证源（已关联账号或有同步任务时不能删除）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await sources.remove(callerOf(request), request.params.id);
      return ok([], '认证源已删除');
    },
  );

  app.post(
    `${BASE}/test`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '测试连接（表单中的设置；未输入密钥时使用 id 对应认证源保存的密钥）',
        body: AuthSourceTestInputSchema,
        response: { 200: Envelope(AuthSourceTestResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const source = await sources.testTarget(callerOf(request), request.body);
      // Each test that gets this far connects to an address the caller typed: a limit per enterprise
      // keeps the portal from being used to probe networks.
      const limit = await testRuns(request);
      if (!limit.isAllowed && limit.isExceeded) throw new TooManyRequestsError(AuthSourceMessage.testTooMany(limit.ttlInSeconds));
      return ok(await sources.test(source, request.log));
    },
  );

  app.post(
    `${BASE}/saml-metadata`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '读取 SAML IdP 元数据（地址或粘贴、上传的 XML），返回实体 ID、单点登录与登出地址、签名证书',
        body: SamlMetadataReadSchema,
        response: { 200: Envelope(SamlIdpMetadataSchema), ...errorResponses },
      },
    },
    async (request) => {
      if (request.body.url?.trim()) {
        // Fetching an address the caller typed: the same limit per enterprise as 测试连接.
        const limit = await testRuns(request);
        if (!limit.isAllowed && limit.isExceeded) throw new TooManyRequestsError(AuthSourceMessage.testTooMany(limit.ttlInSeconds));
      }
      return ok(await sources.readSamlMetadata(request.body));
    },
  );

  app.post(
    `${BASE}/:id/sign-in-test`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '测试登录（OpenID Connect、SAML 2.0：返回在弹窗中打开的登录地址，两分钟内有效，不会登录任何账号）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(FederationTestLinkSchema), ...errorResponses },
      },
    },
    async (request) => {
      const limit = await testRuns(request);
      if (!limit.isAllowed && limit.isExceeded) throw new TooManyRequestsError(AuthSourceMessage.testTooMany(limit.ttlInSeconds));
      return ok(await sources.signInTest(callerOf(request), request.params.id));
    },
  );

  app.get(
    `${ApiPrefix.console}/tenants/:id/auth-sources`,
    {
      ...canTenants,
      schema: {
        tags,
        summary: '某企业的认证源与最近一次同步结果（平台运营）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(AuthSourceSummarySchema), ...errorResponses },
      },
    },
    async (request) => ok(await sources.listOfEnterprise(request.params.id)),
  );
};

export default authSourceRoutes;
