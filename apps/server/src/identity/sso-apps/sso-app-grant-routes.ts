import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, RowIdParamsSchema, SsoAppGrantsBodySchema, SsoAppGrantsSchema, SsoMessage } from '@portal/shared';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';

const tags = ['sso-app'];
const BASE = `${ApiPrefix.console}/sso-app`;

/**
 * 应用授权 (authority app:authorization): who of the enterprise may sign in to one of its
 * applications: account groups, roles, single accounts, or 企业全员; none by default. The CAS checks
 * it at every ticket and every validation, so a change holds at once.
 */
const ssoAppGrantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const apps = app.ssoApps;
  const canGrant = { onRequest: app.requireAuthority(Authority.AppAuthorization) };

  async function applicationOf(enterpriseId: number, id: number) {
    const found = await apps.byId(enterpriseId, id);
    if (!found) throw new NotFoundError(SsoMessage.notFound);
    return found;
  }

  app.get(
    `${BASE}/:id/grants`,
    {
      ...canGrant,
      schema: {
        tags,
        summary: '应用授权：可登录该应用的账号组、角色与账号',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SsoAppGrantsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const application = await applicationOf(callerEnterprise(request), request.params.id);
      return ok(await apps.grants(application.id));
    },
  );

  app.put(
    `${BASE}/:id/grants`,
    {
      ...canGrant,
      config: { auditAction: 'sso-app.grants' },
      schema: {
        tags,
        summary: '保存应用授权（整体替换）',
        params: RowIdParamsSchema,
        body: SsoAppGrantsBodySchema,
        response: { 200: Envelope(SsoAppGrantsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const application = await applicationOf(enterpriseId, request.params.id);
      const groupIds = [...new Set(request.body.groupIds)];
      const roleIds = [...new Set(request.body.roleIds)];
      const accountIds = [...new Set(request.body.accountIds)];
      // Ids not the enterprise's answer 404 like any other id not its own.
      const [groups, roles, accounts] = await Promise.all([
        apps.groupsOf(enterpriseId, groupIds),
        app.roleRepository.grantable(enterpriseId, roleIds),
        apps.accountsOf(enterpriseId, accountIds),
      ]);
      if (groups.length !== groupIds.length) throw new NotFoundError('账号组不存在');
      if (roles.length !== roleIds.length) throw new NotFoundError('角色不存在');
      if (accounts.length !== accountIds.length) throw new NotFoundError('账号不存在');
      const { allMembers } = request.body;
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        await apps.setGrants(trx, application.id, { allMembers, groupIds, roleIds, accountIds });
        const detail = [
          allMembers ? '企业全员' : '',
          groups.length ? `账号组：${groups.map((g) => g.name).join('、')}` : '',
          roles.length ? `角色：${roles.map((r) => r.name).join('、')}` : '',
          accounts.length ? `账号：${accounts.map((a) => a.username).join('、')}` : '',
        ]
          .filter(Boolean)
          .join('；');
        await auditRequest(trx, request, 'sso-app.grants', application.name, 'success', detail || '无');
      });
      return ok(await apps.grants(application.id), '应用授权已保存');
    },
  );
};

export default ssoAppGrantRoutes;
