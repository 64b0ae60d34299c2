import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
  TenantCreateBodySchema,
  TenantQuerySchema,
  TenantRowSchema,
  TenantStatusBodySchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const tags = ['tenant'];
const TENANT = `${ApiPrefix.console}/tenant`;

/**
 * 租户管理 (authority tenant: platform operators): the enterprises, searched and filtered; 新建企业
 * and 停用/启用 (the rules: tenant-service.ts).
 */
const tenantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const canTenants = { onRequest: app.requireAuthority(Authority.Tenant) };

  app.get(
    `${TENANT}/page/list`,
    {
      ...canTenants,
      schema: {
        tags,
        summary: '租户分页列表（新的在前；按名称搜索，按状态与认证状态筛选）',
        querystring: TenantQuerySchema,
        response: { 200: Envelope(Page(TenantRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = {
        keyword: q.keyword?.trim() ?? '',
        status: q.status || undefined,
        certificationStatus: q.certificationStatus || undefined,
      };
      return ok(await app.tenantRepository.page(filters, q.offset, q.limit));
    },
  );

  app.post(
    TENANT,
    {
      ...canTenants,
      config: { auditAction: 'tenant.create' },
      schema: {
        tags,
        summary: '新建企业及其首个管理员（随机初始密码短信发送，首次登录须修改密码）',
        body: TenantCreateBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok({ id: await app.tenantService.create(callerOf(request), request.body) }, '企业已创建，管理员的初始密码已通过短信发送'),
  );

  app.put(
    `${TENANT}/:id/status`,
    {
      ...canTenants,
      schema: {
        tags,
        summary: '停用或启用企业（停用时结束其全部账号的会话并通知各应用单点登出）',
        params: RowIdParamsSchema,
        body: TenantStatusBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { status } = request.body;
      await app.tenantService.setStatus(callerOf(request), request.params.id, status);
      return ok([], status === 'disabled' ? '企业已停用' : '企业已启用');
    },
  );
};

export default tenantRoutes;
