import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  RowIdParamsSchema,
  SamlMetadataAnswerSchema,
  SamlMetadataBodySchema,
  SsoApplicationBodySchema,
  SsoApplicationQuerySchema,
  SsoApplicationRowSchema,
  SsoAppCreatedSchema,
  SsoAppSecretSchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['sso-app'];
const BASE = `${ApiPrefix.console}/sso-app`;

/**
 * 应用列表 (authority app:list): the HTTP side of the SSO application service. Another enterprise's
 * application answers 404; subscribed platform applications are listed read-only.
 */
const ssoAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const apps = app.ssoAppService;
  const canList = { onRequest: app.requireAuthority(Authority.AppList) };

  app.get(
    `${BASE}/page/list`,
    {
      ...canList,
      schema: {
        tags,
        summary: '应用列表（新的在前；按名称或分类搜索，按状态筛选）',
        querystring: SsoApplicationQuerySchema,
        response: { 200: Envelope(Page(SsoApplicationRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, status, offset, limit } = request.query;
      return ok(await apps.page(callerOf(request), { keyword: keyword?.trim() ?? '', status: status || undefined }, offset, limit));
    },
  );

  app.post(
    `${BASE}/saml/metadata`,
    {
      ...canList,
      schema: {
        tags,
        summary: '读取 SP 元数据（上传的 XML，或由平台获取元数据地址）：返回其中的实体 ID、ACS、SLO 与证书，供表单填写；不保存',
        body: SamlMetadataBodySchema,
        response: { 200: Envelope(SamlMetadataAnswerSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.readMetadata(request.body)),
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canList,
      schema: {
        tags,
        summary: '应用详情（含集成配置）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SsoApplicationRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.detail(callerOf(request), request.params.id)),
  );

  app.post(
    BASE,
    {
      ...canList,
      config: { auditAction: 'sso-app.create' },
      schema: {
        tags,
        summary: '新建应用（CAS：服务地址不得与门户、平台应用或其他应用重叠；OpenID Connect：机密客户端的密钥仅在此返回一次）',
        body: SsoApplicationBodySchema,
        response: { 200: Envelope(SsoAppCreatedSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.create(callerOf(request), request.body), '应用已创建'),
  );

  app.post(
    `${BASE}/:id/reset-secret`,
    {
      ...canList,
      config: { auditAction: 'sso-app.reset-secret' },
      schema: {
        tags,
        summary: '重置客户端密钥（OpenID Connect 机密客户端；新密钥仅在此返回一次，旧密钥立即失效）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SsoAppSecretSchema), ...errorResponses },
      },
    },
    async (request) => ok(await apps.resetSecret(callerOf(request), request.params.id), '客户端密钥已重置'),
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'sso-app.update' },
      schema: {
        tags,
        summary: '修改应用（订阅的平台应用不可修改）',
        params: RowIdParamsSchema,
        body: SsoApplicationBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await apps.update(callerOf(request), request.params.id, request.body);
      return ok([], '应用已保存');
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'sso-app.delete' },
      schema: {
        tags,
        summary: '删除应用（它的票据不再通过校验；订阅的平台应用不可删除）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await apps.remove(callerOf(request), request.params.id);
      return ok([], '应用已删除');
    },
  );
};

export default ssoAppRoutes;
