import { type AccountState, type NamedRef, TENANT_SYSTEM_ROLES } from '@portal/shared';
import fp from 'fastify-plugin';
import { type ExpressionBuilder, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { accountLockRow } from '../cas/login-guard.js';
import { containsText } from '../../platform/lib/text-search.js';

/** 账号管理's filters (list and export). */
export interface AccountFilters {
  /** Part of the username, name or phone. */
  keyword?: string | undefined;
  state?: AccountState | '' | undefined;
  groupId?: number | undefined;
  /** Held directly or through a group. */
  roleId?: number | undefined;
}

export type RoleRef = NamedRef & { code: string };

/** An account as 账号管理 lists it; times are ISO instants. */
export interface ManagedAccount {
  id: number;
  username: string;
  name: string;
  phone: string;
  email: string;
  state: AccountState;
  lastLoginAt: string | null;
  createdAt: string;
  groups: NamedRef[];
  roles: RoleRef[];
}

/** The fields 新增 and 导入 write. */
export interface NewAccount {
  username: string;
  name: string;
  phone: string;
  email: string;
  passwordHash: string;
  groupIds: readonly number[];
  roleIds: readonly number[];
}

export interface AccountChanges {
  name: string;
  phone: string;
  email: string;
  groupIds: readonly number[];
  roleIds: readonly number[];
}

/** Rows read per query while an export streams out. */
const EXPORT_BATCH = 500;
/** Values per `in (…)` list or rows per insert: well under both engines' parameter limits. */
const LOOKUP_BATCH = 500;
/** Accounts per insert (11 columns each). */
const CREATE_BATCH = 200;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type AccountScope = ExpressionBuilder<Database & { lock: Database['login_failure'] }, 'account' | 'lock'>;

/**
 * 账号管理: an enterprise's own accounts, their groups and roles. Every read and
 * write is scoped to one enterprise; deleted accounts are never found (their username and phone stay
 * taken). Writes take the caller's transaction (with its audit row and guard rails).
 */
export class AccountAdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The enterprise's accounts matching `filters`, with their lock (login-guard's `account:<id>` row):
   * 锁定 is an active account whose lock has not run out at `now`.
   */
  private filtered(enterpriseId: number, f: AccountFilters, now: Date) {
    const iso = now.toISOString();
    let query = this.db
      .selectFrom('account')
      .leftJoin('login_failure as lock', (join) => join.on(accountLockRow('lock')))
      .where('account.enterprise_id', '=', enterpriseId)
      .where('account.status', 'in', ['active', 'disabled']);
    const keyword = f.keyword?.trim();
    if (keyword) {
      query = query.where((eb) => eb.or(['account.username', 'account.name', 'account.phone'].map((c) => containsText(c, keyword))));
    }
    const lockedNow = (eb: AccountScope) => eb.and([eb('lock.locked_until', 'is not', null), eb('lock.locked_until', '>', iso)]);
    if (f.state === 'disabled') query = query.where('account.status', '=', 'disabled');
    if (f.state === 'locked') query = query.where((eb) => eb.and([eb('account.status', '=', 'active'), lockedNow(eb)]));
    if (f.state === 'active') query = query.where((eb) => eb.and([eb('account.status', '=', 'active'), eb.not(lockedNow(eb))]));
    if (f.groupId !== undefined) {
      const groupId = f.groupId;
      query = query.where('account.id', 'in', (eb) =>
        eb.selectFrom('account_group_member').select('account_id').where('group_id', '=', groupId),
      );
    }
    if (f.roleId !== undefined) {
      const roleId = f.roleId;
      query = query.where((eb) =>
        eb.or([
          eb('account.id', 'in', eb.selectFrom('account_role').select('account_id').where('role_id', '=', roleId)),
          eb(
            'account.id',
            'in',
            eb
              .selectFrom('account_group_member')
              .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
              .select('account_group_member.account_id')
              .where('account_group_role.role_id', '=', roleId),
          ),
        ]),
      );
    }
    return query.select((eb) => [
      'account.id',
      'account.username',
      'account.name',
      'account.phone',
      'account.email',
      'account.status',
      'account.last_login_at',
      'account.created_at',
      lockedNow(eb).as('locked'),
    ]);
  }

  /** Groups and roles of some accounts (one query each), in the order the accounts came. */
  private async withRefs(
    rows: {
      id: number;
      username: string;
      name: string;
      phone: string;
      email: string;
      status: string;
      last_login_at: string | null;
      created_at: string;
      locked: unknown;
    }[],
  ): Promise<ManagedAccount[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [groups, roles] = await Promise.all([
      this.db
        .selectFrom('account_group_member')
        .innerJoin('account_group', 'account_group.id', 'account_group_member.group_id')
        .select(['account_group_member.account_id', 'account_group.id', 'account_group.name'])
        .where('account_group_member.account_id', 'in', ids)
        .orderBy('account_group.id')
        .execute(),
      this.db
        .selectFrom('account_role')
        .innerJoin('role', 'role.id', 'account_role.role_id')
        .select(['account_role.account_id', 'role.id', 'role.name', 'role.code'])
        .where('account_role.account_id', 'in', ids)
        .orderBy('role.id')
        .execute(),
    ]);
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      name: r.name,
      phone: r.phone,
      email: r.email,
      // PostgreSQL answers a boolean, SQLite 0 or 1.
      state: r.status === 'disabled' ? 'disabled' : r.locked === true || r.locked === 1 ? 'locked' : 'active',
      lastLoginAt: r.last_login_at,
      createdAt: r.created_at,
      groups: groups.filter((g) => g.account_id === r.id).map((g) => ({ id: g.id, name: g.name })),
      roles: roles.filter((g) => g.account_id === r.id).map((g) => ({ id: g.id, name: g.name, code: g.code })),
    }));
  }

  /** One page, newest first (the enterprise and creation time index), and the number of matches. */
  async page(enterpriseId: number, filters: AccountFilters, offset: number, limit: number, now = new Date()) {
    const query = this.filtered(enterpriseId, filters, now);
    const [count, rows] = await Promise.all([
      this.db
        .selectFrom(query.as('matched'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('account.created_at', 'desc').orderBy('account.id', 'desc').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: await this.withRefs(rows) };
  }

  /** The matches in list order, at most `max`, read in batches (key set: creation time and id). */
  async *stream(enterpriseId: number, filters: AccountFilters, max: number, now = new Date()): AsyncGenerator<ManagedAccount> {
    let after: { createdAt: string; id: number } | undefined;
    let left = max;
    while (left > 0) {
      let query = this.filtered(enterpriseId, filters, now);
      if (after) {
        const { createdAt, id } = after;
        query = query.where((eb) =>
          eb.or([eb('account.created_at', '<', createdAt), eb.and([eb('account.created_at', '=', createdAt), eb('account.id', '<', id)])]),
        );
      }
      const rows = await query
        .orderBy('account.created_at', 'desc')
        .orderBy('account.id', 'desc')
        .limit(Math.min(EXPORT_BATCH, left))
        .execute();
      yield* await this.withRefs(rows);
      const last = rows.at(-1);
      if (!last || rows.length < Math.min(EXPORT_BATCH, left)) return;
      left -= rows.length;
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  /** An account of the enterprise that is not deleted. */
  find(enterpriseId: number, id: number) {
    return this.db
      .selectFrom('account')
      .select(['id', 'username', 'name', 'phone', 'status'])
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .where('status', 'in', ['active', 'disabled'])
      .executeTakeFirst();
  }

  /** The enterprise's groups, in creation order. */
  groups(enterpriseId: number): Promise<NamedRef[]> {
    return this.db.selectFrom('account_group').select(['id', 'name']).where('enterprise_id', '=', enterpriseId).orderBy('id').execute();
  }

  /** The roles an enterprise grants to its accounts: the tenant system roles (in their order), then its own. */
  async assignableRoles(enterpriseId: number): Promise<RoleRef[]> {
    const rows = await this.db
      .selectFrom('role')
      .select(['id', 'name', 'code', 'enterprise_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('enterprise_id', 'is', null), eb('code', 'in', [...TENANT_SYSTEM_ROLES])]),
          eb('enterprise_id', '=', enterpriseId),
        ]),
      )
      .orderBy('id')
      .execute();
    const rank = (r: (typeof rows)[number]) =>
      r.enterprise_id === null ? (TENANT_SYSTEM_ROLES as readonly string[]).indexOf(r.code) : TENANT_SYSTEM_ROLES.length;
    return rows
      .map((r, index) => ({ r, index }))
      .sort((a, b) => rank(a.r) - rank(b.r) || a.index - b.index)
      .map(({ r }) => ({ id: r.id, name: r.name, code: r.code }));
  }

  /** Which of a username and a phone an account (any enterprise, deleted ones too) already has, other than `exceptId`. */
  async taken(username: string | null, phone: string, exceptId?: number): Promise<{ username: boolean; phone: boolean }> {
    let query = this.db
      .selectFrom('account')
      .select(['username', 'phone'])
      .where((eb) => eb.or([...(username === null ? [] : [eb('username', '=', username)]), eb('phone', '=', phone)]));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const rows = await query.execute();
    return { username: username !== null && rows.some((r) => r.username === username), phone: rows.some((r) => r.phone === phone) };
  }

  /** The usernames and phones among these that accounts already have (any enterprise, deleted ones too). */
  async takenAmong(usernames: readonly string[], phones: readonly string[]): Promise<{ usernames: Set<string>; phones: Set<string> }> {
    const found = { usernames: new Set<string>(), phones: new Set<string>() };
    for (const batch of chunks(usernames, LOOKUP_BATCH)) {
      const rows = await this.db.selectFrom('account').select('username').where('username', 'in', batch).execute();
      for (const r of rows) found.usernames.add(r.username);
    }
    for (const batch of chunks(phones, LOOKUP_BATCH)) {
      const rows = await this.db.selectFrom('account').select('phone').where('phone', 'in', batch).execute();
      for (const r of rows) found.phones.add(r.phone);
    }
    return found;
  }

  /** A new active account of the enterprise, with its groups and roles; it must change its password at its first login. */
  async create(trx: Kysely<Database>, enterpriseId: number, input: NewAccount): Promise<number> {
    const [id] = await this.createMany(trx, enterpriseId, [input]);
    if (id === undefined) throw new Error('account not created');
    return id;
  }

  /** New accounts (导入), a few statements per batch; answers their ids in input order. */
  async createMany(trx: Kysely<Database>, enterpriseId: number, inputs: readonly NewAccount[]): Promise<number[]> {
    const now = new Date().toISOString();
    const ids: number[] = [];
    for (const batch of chunks(inputs, CREATE_BATCH)) {
      const created = await trx
        .insertInto('account')
        .values(
          batch.map((input) => ({
            username: input.username,
            name: input.name,
            phone: input.phone,
            email: input.email,
            number: '',
            password_hash: input.passwordHash,
            enterprise_id: enterpriseId,
            status: 'active' as const,
            must_change_password: 1,
            password_changed_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'username'])
        .execute();
      const idOf = new Map(created.map((r) => [r.username, r.id]));
      const batchIds = batch.map((input) => {
        const id = idOf.get(input.username);
        if (id === undefined) throw new Error(`account ${input.username} not created`);
        return id;
      });
      const roles = batch.flatMap((input, i) => input.roleIds.map((roleId) => ({ account_id: batchIds[i]!, role_id: roleId })));
      const members = batch.flatMap((input, i) =>
        input.groupIds.map((groupId) => ({ group_id: groupId, account_id: batchIds[i]!, created_at: now })),
      );
      for (const rows of chunks(roles, LOOKUP_BATCH)) await trx.insertInto('account_role').values(rows).execute();
      for (const rows of chunks(members, LOOKUP_BATCH)) await trx.insertInto('account_group_member').values(rows).execute();
      ids.push(...batchIds);
    }
    return ids;
  }

  /** The roles granted to the account itself. */
  async directRoleIds(id: number): Promise<number[]> {
    const rows = await this.db.selectFrom('account_role').select('role_id').where('account_id', '=', id).execute();
    return rows.map((r) => r.role_id);
  }

  /**
   * 编辑: name, phone, email, and the account's groups and roles. Only `assignable` roles are replaced:
   * others it holds (a platform role) stay. Memberships kept keep their dates.
   */
  async update(
    trx: Kysely<Database>,
    enterpriseId: number,
    id: number,
    changes: AccountChanges,
    assignable: readonly number[],
  ): Promise<boolean> {
    const now = new Date().toISOString();
    const updated = await this.live(
      trx
        .updateTable('account')
        .set({ name: changes.name, phone: changes.phone, email: changes.email, updated_at: now })
        .where('id', '=', id),
      enterpriseId,
    );
    if (!updated) return false;

    const heldRoles = (await trx.selectFrom('account_role').select('role_id').where('account_id', '=', id).execute()).map((r) => r.role_id);
    const wantedRoles = new Set(changes.roleIds);
    const dropRoles = heldRoles.filter((r) => assignable.includes(r) && !wantedRoles.has(r));
    const addRoles = [...wantedRoles].filter((r) => !heldRoles.includes(r));
    if (dropRoles.length) await trx.deleteFrom('account_role').where('account_id', '=', id).where('role_id', 'in', dropRoles).execute();
    if (addRoles.length) {
      await trx
        .insertInto('account_role')
        .values(addRoles.map((roleId) => ({ account_id: id, role_id: roleId })))
        .execute();
    }

    const heldGroups = (await trx.selectFrom('account_group_member').select('group_id').where('account_id', '=', id).execute()).map(
      (r) => r.group_id,
    );
    const wantedGroups = new Set(changes.groupIds);
    const dropGroups = heldGroups.filter((g) => !wantedGroups.has(g));
    const addGroups = [...wantedGroups].filter((g) => !heldGroups.includes(g));
    if (dropGroups.length) {
      await trx.deleteFrom('account_group_member').where('account_id', '=', id).where('group_id', 'in', dropGroups).execute();
    }
    if (addGroups.length) {
      await trx
        .insertInto('account_group_member')
        .values(addGroups.map((groupId) => ({ group_id: groupId, account_id: id, created_at: now })))
        // 加入成员 may have added the same membership since it was read above.
        .onConflict((oc) => oc.columns(['group_id', 'account_id']).doNothing())
        .execute();
    }
    return true;
  }

  async setStatus(trx: Kysely<Database>, enterpriseId: number, id: number, status: 'active' | 'disabled'): Promise<boolean> {
    return this.live(trx.updateTable('account').set({ status, updated_at: new Date().toISOString() }).where('id', '=', id), enterpriseId);
  }

  /** 重置密码: a new password the account must change at its next login. */
  async resetPassword(trx: Kysely<Database>, enterpriseId: number, id: number, passwordHash: string): Promise<boolean> {
    const now = new Date().toISOString();
    const reset = await this.live(
      trx
        .updateTable('account')
        .set({ password_hash: passwordHash, must_change_password: 1, password_changed_at: now, updated_at: now })
        .where('id', '=', id),
      enterpriseId,
    );
    // 信任此设备: a new password ends every browser's trust.
    if (reset) await trx.deleteFrom('trusted_device').where('account_id', '=', id).execute();
    return reset;
  }

  /** 删除 (soft): the row stays, so the username and phone stay taken and audit rows keep their names; groups and roles go. */
  async softDelete(trx: Kysely<Database>, enterpriseId: number, id: number): Promise<boolean> {
    const now = new Date().toISOString();
    const deleted = await this.live(
      trx.updateTable('account').set({ status: 'deleted', deleted_at: now, updated_at: now }).where('id', '=', id),
      enterpriseId,
    );
    if (!deleted) return false;
    await trx.deleteFrom('account_role').where('account_id', '=', id).execute();
    await trx.deleteFrom('account_group_member').where('account_id', '=', id).execute();
    return true;
  }

  /**
   * Runs an update of an account only while it is still the enterprise's and not deleted (an
   * administrator deleting it meanwhile wins): answers whether it did.
   */
  private async live(update: UpdateQueryBuilder<Database, 'account', 'account', UpdateResult>, enterpriseId: number): Promise<boolean> {
    const result = await update.where('enterprise_id', '=', enterpriseId).where('status', 'in', ['active', 'disabled']).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    accountAdminRepository: AccountAdminRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('accountAdminRepository', new AccountAdminRepository(app.database.db));
  },
  { name: 'account-admin-repository' },
);
