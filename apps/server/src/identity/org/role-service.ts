import {
  type RoleCreateBody,
  type RoleRow,
  type RoleUpdateBody,
  TenantMessage,
  TenantRules,
  isTenantGrantable,
  withTenantParents,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import type { RoleInput, RoleRef } from './role-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    roleService: RoleService;
  }
}

/** The role's fields checked by the shared rules; the authorities completed with their parents. */
function roleInput(body: RoleUpdateBody): RoleInput {
  const name = body.name.trim();
  const description = (body.description ?? '').trim();
  const problem = TenantRules.roleName(name) ?? TenantRules.description(description);
  if (problem) throw new BadRequestError(problem);
  if (!body.authorities.every(isTenantGrantable)) throw new BadRequestError(TenantMessage.authorityUnknown);
  return { name, description, authorities: withTenantParents(body.authorities) };
}

/**
 * 角色管理's rules (org:role): the tenant system roles read-only, the enterprise's custom roles with a
 * code unique in it and authorities a tenant may grant. Changing or removing a role may change who
 * administers the enterprise: the guard rails run inside the write's transaction, with its audit row.
 */
export class RoleService {
  constructor(private readonly app: FastifyInstance) {}

  private get roles() {
    return this.app.roleRepository;
  }

  /** A custom role of the caller's enterprise: another enterprise's answers 404, a system role 400. */
  private async customRole(caller: Caller, id: number): Promise<RoleRef> {
    const role = await this.roles.byId(callerEnterprise(caller), id);
    if (!role) throw new NotFoundError('角色不存在');
    if (role.system) throw new BadRequestError('系统角色不可修改');
    return role;
  }

  /** The system roles first, then the enterprise's own. */
  list(caller: Caller): Promise<RoleRow[]> {
    return this.roles.list(callerEnterprise(caller));
  }

  /** 新建: answers the new role's id. */
  async create(caller: Caller, body: RoleCreateBody): Promise<number> {
    const enterpriseId = callerEnterprise(caller);
    const roles = this.roles;
    const code = body.code.trim();
    const codeProblem = TenantRules.roleCode(code);
    if (codeProblem) throw new BadRequestError(codeProblem);
    const input = roleInput(body);
    if (await roles.codeTaken(enterpriseId, code)) throw new ConflictError(TenantMessage.roleCodeTaken);
    if (await roles.nameTaken(enterpriseId, input.name)) throw new ConflictError(TenantMessage.roleNameTaken);
    try {
      return await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        // Names have no unique index: checked again under the enterprise's lock, so of two at once the second sees the first.
        if (await roles.nameTaken(enterpriseId, input.name, undefined, trx)) throw new ConflictError(TenantMessage.roleNameTaken);
        const created = await roles.create(trx, enterpriseId, code, input);
        await auditBy(trx, caller, 'role.create', `${code} ${input.name}`, 'success', input.authorities.join(','));
        return created;
      });
    } catch (err) {
      // A concurrent 新建 of the same code won (role_scope_code).
      if (isUniqueViolation(err)) throw new ConflictError(TenantMessage.roleCodeTaken);
      throw err;
    }
  }

  /** 修改: name, description and authorities (the code never changes). */
  async update(caller: Caller, id: number, body: RoleUpdateBody): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const roles = this.roles;
    const role = await this.customRole(caller, id);
    const input = roleInput(body);
    if (await roles.nameTaken(enterpriseId, input.name, role.id)) throw new ConflictError(TenantMessage.roleNameTaken);
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      if (await roles.nameTaken(enterpriseId, input.name, role.id, trx)) throw new ConflictError(TenantMessage.roleNameTaken);
      await roles.update(trx, role.id, input);
      // Its holders may lose org:account.
      await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId, administers(caller));
      await auditBy(trx, caller, 'role.update', `${role.code} ${input.name}`, 'success', input.authorities.join(','));
    });
  }

  /** 删除 (accounts and groups no longer hold it); not while an application authorization names it. */
  async remove(caller: Caller, id: number): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const role = await this.customRole(caller, id);
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      // Like a group: not while an application authorization names it.
      const apps = await this.app.ssoAppRepository.grantedTo(trx, 'role', role.id);
      if (apps.length) throw new ConflictError(`该角色已用于应用授权（${apps.join('、')}），请先在“应用授权”中移除`);
      // 安全设置's 按角色 would silently stop asking its holders for a second factor.
      if (await this.app.securityPolicyRepository.namesRole(trx, enterpriseId, role.id)) {
        throw new ConflictError('该角色用于安全设置的二次验证（按角色），请先在“安全设置”中移除');
      }
      await this.roles.delete(trx, role.id);
      await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId, administers(caller));
      await auditBy(trx, caller, 'role.delete', `${role.code} ${role.name}`);
    });
  }
}

export default fp(
  async (app) => {
    app.decorate('roleService', new RoleService(app));
  },
  { name: 'role-service' },
);
