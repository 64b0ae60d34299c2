import type { AccountGroupMemberRow, AccountGroupRow, AccountState } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { containsText } from '../../platform/lib/text-search.js';
import { accountLockRow } from '../cas/login-guard.js';

/** What 新建 and 编辑 of 账号组 write. */
export interface GroupInput {
  name: string;
  description: string;
  roleIds: number[];
}

export interface GroupRef {
  id: number;
  name: string;
}

/**
 * 锁定 is an active account whose wrong passwords locked it (the login guard's counter of the
 * account); a disabled account shows 停用 whatever its counter.
 */
export function accountState(status: string, lockedUntil: string | null, now = new Date()): AccountState {
  if (status !== 'active') return 'disabled';
  return lockedUntil !== null && lockedUntil > now.toISOString() ? 'locked' : 'active';
}

/** 账号组: an enterprise's groups, their members and the roles they grant their members. */
export class GroupRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Accounts of the enterprise that are not deleted, with their lock counter for the state. */
  private people(enterpriseId: number) {
    return this.db
      .selectFrom('account')
      .leftJoin('login_failure', (join) => join.on(accountLockRow('login_failure')))
      .select(['account.id', 'account.username', 'account.name', 'account.phone', 'account.status', 'login_failure.locked_until'])
      .where('account.enterprise_id', '=', enterpriseId)
      .where('account.status', '!=', 'deleted');
  }

  private static member(r: {
    id: number;
    username: string;
    name: string;
    phone: string;
    status: string;
    locked_until: string | null;
  }): AccountGroupMemberRow {
    return { id: r.id, username: r.username, name: r.name, phone: r.phone, state: accountState(r.status, r.locked_until) };
  }

  /** One page of the enterprise's groups (as created), with members and granted roles; `keyword` is part of the name. */
  async page(enterpriseId: number, keyword: string, offset: number, limit: number): Promise<{ total: number; rows: AccountGroupRow[] }> {
    let query = this.db.selectFrom('account_group').where('account_group.enterprise_id', '=', enterpriseId);
    if (keyword) query = query.where(containsText('account_group.name', keyword));
    const [count, groups] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select((eb) => [
          'account_group.id',
          'account_group.name',
          'account_group.description',
          'account_group.created_at',
          eb
            .selectFrom('account_group_member')
            .innerJoin('account', 'account.id', 'account_group_member.account_id')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('account_group_member.group_id', '=', 'account_group.id')
            .where('account.status', '!=', 'deleted')
            .as('member_count'),
        ])
        .orderBy('account_group.id')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    const ids = groups.map((g) => g.id);
    const grants = ids.length
      ? await this.db
          .selectFrom('account_group_role')
          .innerJoin('role', 'role.id', 'account_group_role.role_id')
          .select(['account_group_role.group_id', 'role.id', 'role.name', 'role.code'])
          .where('account_group_role.group_id', 'in', ids)
          .orderBy('role.id')
          .execute()
      : [];
    return {
      total: Number(count.n),
      rows: groups.map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        memberCount: Number(g.member_count ?? 0),
        roles: grants.filter((r) => r.group_id === g.id).map((r) => ({ id: r.id, name: r.name, code: r.code })),
        createdAt: chinaTime(new Date(g.created_at)),
      })),
    };
  }

  /** A group of the enterprise, or undefined (another enterprise's group is not there for it). */
  byId(enterpriseId: number, id: number): Promise<GroupRef | undefined> {
    return this.db
      .selectFrom('account_group')
      .select(['id', 'name'])
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
  }

  /** Another group of the enterprise has this name. */
  async nameTaken(enterpriseId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('account_group').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async create(trx: Kysely<Database>, enterpriseId: number, input: GroupInput): Promise<number> {
    const { id } = await trx
      .insertInto('account_group')
      .values({ enterprise_id: enterpriseId, name: input.name, description: input.description, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.grant(trx, id, input.roleIds);
    return id;
  }

  async update(trx: Kysely<Database>, id: number, input: GroupInput): Promise<void> {
    await trx.updateTable('account_group').set({ name: input.name, description: input.description }).where('id', '=', id).execute();
    await trx.deleteFrom('account_group_role').where('group_id', '=', id).execute();
    await this.grant(trx, id, input.roleIds);
  }

  /** Its memberships and role grants go with it (foreign keys cascade). */
  async delete(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.deleteFrom('account_group').where('id', '=', id).execute();
  }

  private async grant(trx: Kysely<Database>, groupId: number, roleIds: readonly number[]): Promise<void> {
    if (roleIds.length === 0) return;
    await trx
      .insertInto('account_group_role')
      .values(roleIds.map((roleId) => ({ group_id: groupId, role_id: roleId })))
      .execute();
  }

  /** One page of a group's members (not deleted), by username; `keyword` is part of the username, name or phone. */
  async members(enterpriseId: number, groupId: number, keyword: string, offset: number, limit: number) {
    let query = this.people(enterpriseId).where(
      'account.id',
      'in',
      this.db.selectFrom('account_group_member').select('account_id').where('group_id', '=', groupId),
    );
    if (keyword)
      query = query.where((eb) => eb.or(['account.username', 'account.name', 'account.phone'].map((c) => containsText(c, keyword))));
    const [count, rows] = await Promise.all([
      query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('account.username').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: rows.map(GroupRepository.member) };
  }

  /** Accounts of the enterprise (not deleted) that are not in the group, for 添加成员, by username. */
  async candidates(enterpriseId: number, groupId: number, keyword: string, limit: number): Promise<AccountGroupMemberRow[]> {
    let query = this.people(enterpriseId).where(
      'account.id',
      'not in',
      this.db.selectFrom('account_group_member').select('account_id').where('group_id', '=', groupId),
    );
    if (keyword)
      query = query.where((eb) => eb.or(['account.username', 'account.name', 'account.phone'].map((c) => containsText(c, keyword))));
    const rows = await query.orderBy('account.username').limit(limit).execute();
    return rows.map(GroupRepository.member);
  }

  /** Those of `ids` that are accounts of the enterprise (not deleted). */
  accountsOf(enterpriseId: number, ids: readonly number[]): Promise<{ id: number; username: string }[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('account')
      .select(['id', 'username'])
      .where('enterprise_id', '=', enterpriseId)
      .where('status', '!=', 'deleted')
      .where('id', 'in', ids)
      .execute();
  }

  /** Adds accounts to a group; those already in it stay as they are. */
  async addMembers(trx: Kysely<Database>, groupId: number, accountIds: readonly number[]): Promise<void> {
    if (accountIds.length === 0) return;
    const now = new Date().toISOString();
    await trx
      .insertInto('account_group_member')
      .values(accountIds.map((accountId) => ({ group_id: groupId, account_id: accountId, created_at: now })))
      .onConflict((oc) => oc.columns(['group_id', 'account_id']).doNothing())
      .execute();
  }

  /** Whether the account was a member. */
  async removeMember(trx: Kysely<Database>, groupId: number, accountId: number): Promise<boolean> {
    const result = await trx
      .deleteFrom('account_group_member')
      .where('group_id', '=', groupId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    groupRepository: GroupRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('groupRepository', new GroupRepository(app.database.db));
  },
  { name: 'group-repository' },
);
