import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  TenantMessage,
  TenantRules,
  isTenantGrantable,
  withTenantParents,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RoleCreateBodySchema,
  RoleRowSchema,
  RoleUpdateBodySchema,
  RowIdParamsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { RoleInput, RoleRef } from './role-repository.js';

const tags = ['org'];

/** The role's fields checked by the shared rules; the authorities completed with their parents. */
function roleInput(body: { name: string; description?: string | undefined; authorities: string[] }): RoleInput {
  const name = body.name.trim();
  const description = (body.description ?? '').trim();
  const problem = TenantRules.roleName(name) ?? TenantRules.description(description);
  if (problem) throw new BadRequestError(problem);
  if (!body.authorities.every(isTenantGrantable)) throw new BadRequestError(TenantMessage.authorityUnknown);
  return { name, description, authorities: withTenantParents(body.authorities) };
}

/**
 * 角色管理 (org:role): the tenant system roles read-only, the enterprise's custom roles
 * with a code unique in it and authorities a tenant may grant. Changing or removing a role may change
 * who administers the enterprise: the guard rails run inside the write's transaction.
 */
const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const roles = app.roleRepository;
  const canRoles = { onRequest: app.requireAuthority(Authority.OrgRole) };

  /** A custom role of the caller's enterprise: another enterprise's answers 404, a system role 400. */
  async function customRole(request: FastifyRequest, id: number): Promise<RoleRef> {
    const role = await roles.byId(callerEnterprise(request), id);
    if (!role) throw new NotFoundError('角色不存在');
    if (role.system) throw new BadRequestError('系统角色不可修改');
    return role;
  }

  app.get(
    `${ApiPrefix.console}/role/list`,
    {
      ...canRoles,
      schema: {
        tags,
        summary: '角色列表：系统角色（只读）在前，然后是本企业的自定义角色',
        response: { 200: Envelope(RoleRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(await roles.list(callerEnterprise(request))),
  );

  app.post(
    `${ApiPrefix.console}/role`,
    {
      ...canRoles,
      config: { auditAction: 'role.create' },
      schema: {
        tags,
        summary: '新建自定义角色',
        body: RoleCreateBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const code = request.body.code.trim();
      const codeProblem = TenantRules.roleCode(code);
      if (codeProblem) throw new BadRequestError(codeProblem);
      const input = roleInput(request.body);
      if (await roles.codeTaken(enterpriseId, code)) throw new ConflictError(TenantMessage.roleCodeTaken);
      if (await roles.nameTaken(enterpriseId, input.name)) throw new ConflictError(TenantMessage.roleNameTaken);
      let id: number;
      try {
        id = await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          // Names have no unique index: checked again under the enterprise's lock, so of two at once the second sees the first.
          if (await roles.nameTaken(enterpriseId, input.name, undefined, trx)) throw new ConflictError(TenantMessage.roleNameTaken);
          const created = await roles.create(trx, enterpriseId, code, input);
          await auditRequest(trx, request, 'role.create', `${code} ${input.name}`, 'success', input.authorities.join(','));
          return created;
        });
      } catch (err) {
        // A concurrent 新建 of the same code won (role_scope_code).
        if (isUniqueViolation(err)) throw new ConflictError(TenantMessage.roleCodeTaken);
        throw err;
      }
      return ok({ id }, '角色已创建');
    },
  );

  app.put(
    `${ApiPrefix.console}/role/:id`,
    {
      ...canRoles,
      config: { auditAction: 'role.update' },
      schema: {
        tags,
        summary: '修改自定义角色的名称、描述与权限（编码不可修改）',
        params: RowIdParamsSchema,
        body: RoleUpdateBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const role = await customRole(request, request.params.id);
      const input = roleInput(request.body);
      if (await roles.nameTaken(enterpriseId, input.name, role.id)) throw new ConflictError(TenantMessage.roleNameTaken);
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        if (await roles.nameTaken(enterpriseId, input.name, role.id, trx)) throw new ConflictError(TenantMessage.roleNameTaken);
        await roles.update(trx, role.id, input);
        // Its holders may lose org:account.
        await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, request.principal!.accountId, administers(request));
        await auditRequest(trx, request, 'role.update', `${role.code} ${input.name}`, 'success', input.authorities.join(','));
      });
      return ok([], '角色已保存');
    },
  );

  app.delete(
    `${ApiPrefix.console}/role/:id`,
    {
      ...canRoles,
      config: { auditAction: 'role.delete' },
      schema: {
        tags,
        summary: '删除自定义角色（账号与账号组不再持有它）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const role = await customRole(request, request.params.id);
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        // Like a group: not while an application authorization names it.
        const apps = await app.ssoApps.grantedTo(trx, 'role', role.id);
        if (apps.length) throw new ConflictError(`该角色已用于应用授权（${apps.join('、')}），请先在“应用授权”中移除`);
        await roles.delete(trx, role.id);
        await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, request.principal!.accountId, administers(request));
        await auditRequest(trx, request, 'role.delete', `${role.code} ${role.name}`);
      });
      return ok([], '角色已删除');
    },
  );
};

export default roleRoutes;
