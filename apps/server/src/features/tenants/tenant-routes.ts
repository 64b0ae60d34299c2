import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { inEnterpriseTransaction } from '../../db/transaction.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { AppError, BadRequestError, NotFoundError } from '../../lib/errors.js';
import { auditRequest } from '../audit/audit-log.js';
import { CertificationStatusSchema } from '../certification/certification-schemas.js';
import type { EndedTickets } from '../cas/sso-sessions.js';

const tags = ['tenant'];

const EnterpriseStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);
const CertificationStatus = CertificationStatusSchema;

const TenantSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  certificationStatus: CertificationStatus,
  status: EnterpriseStatus,
  accountCount: Type.Integer({ description: '账号数（不含已删除）' }),
  admins: Type.Array(Type.String(), { description: '启用的企业管理员姓名' }),
  createdAt: Type.String(),
});

/**
 * 租户管理 (issue 16, authority tenant: platform operators): the enterprises, searched and filtered;
 * 停用 ends every session of the enterprise's accounts (and their CAS single logout) and keeps them
 * from logging in, 启用 lets them in again.
 */
const tenantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const tenants = app.tenantRepository;
  const canTenants = { onRequest: app.requireAuthority(Authority.Tenant) };

  app.get(
    '/web-api/console/v1/tenant/page/list',
    {
      ...canTenants,
      schema: {
        tags,
        summary: '租户分页列表（新的在前；按名称搜索，按状态与认证状态筛选）',
        querystring: Type.Object({
          keyword: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Type.Union([EnterpriseStatus, Type.Literal('')])),
          certificationStatus: Type.Optional(Type.Union([CertificationStatus, Type.Literal('')])),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(TenantSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = {
        keyword: q.keyword?.trim() ?? '',
        status: q.status || undefined,
        certificationStatus: q.certificationStatus || undefined,
      };
      return ok(await tenants.page(filters, q.offset, q.limit));
    },
  );

  app.put(
    '/web-api/console/v1/tenant/:id/status',
    {
      ...canTenants,
      schema: {
        tags,
        summary: '停用或启用企业（停用时结束其全部账号的会话并通知各应用单点登出）',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        body: Type.Object({ status: EnterpriseStatus }),
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const { status } = request.body;
      const action = status === 'disabled' ? 'tenant.disable' : 'tenant.enable';
      try {
        const enterprise = await tenants.byId(request.params.id);
        if (!enterprise) throw new NotFoundError('企业不存在');
        if (status === 'disabled' && enterprise.id === request.principal?.profile.enterpriseId) {
          throw new BadRequestError('不能停用本账号所在的企业');
        }
        const tickets: EndedTickets = await inEnterpriseTransaction(db, enterprise.id, async (trx) => {
          const accounts = await tenants.setStatus(trx, enterprise.id, status);
          await auditRequest(trx, request, action, enterprise.name);
          return status === 'disabled' ? app.ssoSessions.end(trx, accounts) : [];
        });
        await app.ssoSessions.notify(request, tickets);
      } catch (err) {
        // One route, two audit actions (audit-failures knows one per route): a refusal is recorded as the one asked for.
        if (err instanceof AppError) {
          await app.auditRepository.recordRequest(request, action, String(request.params.id), 'failure', err.message);
        }
        throw err;
      }
      return ok([], status === 'disabled' ? '企业已停用' : '企业已启用');
    },
  );
};

export default tenantRoutes;
