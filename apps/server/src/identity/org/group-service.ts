import { type AccountGroupBody, type AccountGroupMemberRow, type AccountGroupRow, TenantMessage, TenantRules } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { administers, callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import type { GroupInput, GroupRef } from './group-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    groupService: GroupService;
  }
}

/** A write that may lose a race for the group's name: the unique constraint's refusal, named. */
async function namedUniquely(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(TenantMessage.groupNameTaken);
    throw err;
  }
}

/**
 * 账号组's rules (org:group): an enterprise's groups, their members and the roles granted to the
 * members. Every write that may change who holds org:account (granted roles, members, deletion) runs
 * the guard rails inside its transaction, with its audit row. `caller` is who asks.
 */
export class GroupService {
  constructor(private readonly app: FastifyInstance) {}

  private get groups() {
    return this.app.groupRepository;
  }

  /** A group of the caller's enterprise; another enterprise's answers 404. */
  private async groupOf(caller: Caller, id: number): Promise<GroupRef> {
    const group = await this.groups.byId(callerEnterprise(caller), id);
    if (!group) throw new NotFoundError('账号组不存在');
    return group;
  }

  /** The body checked by the shared rules; roles the enterprise cannot grant answer 404 like any id not its own. */
  private async groupInput(enterpriseId: number, body: AccountGroupBody) {
    const name = body.name.trim();
    const description = (body.description ?? '').trim();
    const problem = TenantRules.groupName(name) ?? TenantRules.description(description);
    if (problem) throw new BadRequestError(problem);
    const roleIds = [...new Set(body.roleIds)];
    const roles = await this.app.roleRepository.grantable(enterpriseId, roleIds);
    if (roles.length !== roleIds.length) throw new NotFoundError('角色不存在');
    return { input: { name, description, roleIds } satisfies GroupInput, roleNames: roles.map((r) => r.name).join('、') };
  }

  /** A write of a group (and its audit row) that may change who administers the enterprise, checked by the guard rails before the commit. */
  private guarded(caller: Caller, enterpriseId: number, work: (trx: Kysely<Database>) => Promise<void>) {
    return inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      await work(trx);
      await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId, administers(caller));
    });
  }

  /** One page of the enterprise's groups, searched by name. */
  page(caller: Caller, keyword: string, offset: number, limit: number): Promise<{ total: number; rows: AccountGroupRow[] }> {
    return this.groups.page(callerEnterprise(caller), keyword, offset, limit);
  }

  /** 新建: answers the new group's id. */
  async create(caller: Caller, body: AccountGroupBody): Promise<number> {
    const enterpriseId = callerEnterprise(caller);
    const { input, roleNames } = await this.groupInput(enterpriseId, body);
    if (await this.groups.nameTaken(enterpriseId, input.name)) throw new ConflictError(TenantMessage.groupNameTaken);
    let id = 0;
    await namedUniquely(() =>
      this.guarded(caller, enterpriseId, async (trx) => {
        id = await this.groups.create(trx, enterpriseId, input);
        await auditBy(trx, caller, 'group.create', input.name, 'success', roleNames);
      }),
    );
    return id;
  }

  /** 修改: name, description and granted roles. */
  async update(caller: Caller, id: number, body: AccountGroupBody): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const group = await this.groupOf(caller, id);
    const { input, roleNames } = await this.groupInput(enterpriseId, body);
    if (await this.groups.nameTaken(enterpriseId, input.name, group.id)) throw new ConflictError(TenantMessage.groupNameTaken);
    await namedUniquely(() =>
      this.guarded(caller, enterpriseId, async (trx) => {
        await this.groups.update(trx, group.id, input);
        const renamed = input.name === group.name ? group.name : `${group.name} → ${input.name}`;
        await auditBy(trx, caller, 'group.update', renamed, 'success', roleNames);
      }),
    );
  }

  /** 删除 (its members no longer hold its roles); not while an application authorization names it. */
  async remove(caller: Caller, id: number): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const group = await this.groupOf(caller, id);
    await this.guarded(caller, enterpriseId, async (trx) => {
      const apps = await this.app.ssoAppRepository.grantedTo(trx, 'group', group.id);
      if (apps.length) throw new ConflictError(`该账号组已用于应用授权（${apps.join('、')}），请先在“应用授权”中移除`);
      await this.groups.delete(trx, group.id);
      await auditBy(trx, caller, 'group.delete', group.name);
    });
  }

  /** One page of a group's members, searched by username, name or phone. */
  async members(
    caller: Caller,
    id: number,
    keyword: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: AccountGroupMemberRow[] }> {
    const group = await this.groupOf(caller, id);
    return this.groups.members(callerEnterprise(caller), group.id, keyword, offset, limit);
  }

  /** The enterprise's accounts not in the group, searched by username, name or phone. */
  async candidates(caller: Caller, id: number, keyword: string, limit: number): Promise<AccountGroupMemberRow[]> {
    const group = await this.groupOf(caller, id);
    return this.groups.candidates(callerEnterprise(caller), group.id, keyword, limit);
  }

  /** 添加成员: accounts of another enterprise answer 404. */
  async addMembers(caller: Caller, id: number, accountIds: readonly number[]): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const group = await this.groupOf(caller, id);
    const ids = [...new Set(accountIds)];
    const accounts = await this.groups.accountsOf(enterpriseId, ids);
    if (accounts.length !== ids.length) throw new NotFoundError('账号不存在');
    const usernames = accounts
      .map((a) => a.username)
      .sort()
      .join(',');
    await this.guarded(caller, enterpriseId, async (trx) => {
      await this.groups.addMembers(trx, group.id, ids);
      await auditBy(trx, caller, 'group.member-add', group.name, 'success', usernames);
    });
  }

  /** 移除成员. */
  async removeMember(caller: Caller, id: number, accountId: number): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const group = await this.groupOf(caller, id);
    const [account] = await this.groups.accountsOf(enterpriseId, [accountId]);
    if (!account) throw new NotFoundError('账号不存在');
    await this.guarded(caller, enterpriseId, async (trx) => {
      if (!(await this.groups.removeMember(trx, group.id, account.id))) throw new NotFoundError('该账号不在账号组中');
      await auditBy(trx, caller, 'group.member-remove', group.name, 'success', account.username);
    });
  }
}

export default fp(
  async (app) => {
    app.decorate('groupService', new GroupService(app));
  },
  { name: 'group-service' },
);
