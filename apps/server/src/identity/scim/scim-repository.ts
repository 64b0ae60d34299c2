import fp from 'fastify-plugin';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import type { UserColumn, UserCondition } from './scim-filter.js';

/** An account as SCIM shows it: its own columns and what SCIM keeps beside them; times are ISO instants. */
export interface ScimUserRecord {
  id: number;
  username: string;
  name: string;
  phone: string;
  email: string;
  number: string;
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
  externalId: string | null;
  familyName: string | null;
  givenName: string | null;
  department: string | null;
  managerId: number | null;
  groups: { id: number; name: string }[];
}

export interface ScimGroupRecord {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  externalId: string | null;
  members: { id: number; name: string }[];
}

/** What SCIM writes beside an account's own columns. */
export interface ScimUserExtra {
  externalId: string | null;
  familyName: string | null;
  givenName: string | null;
  department: string | null;
  managerId: number | null;
}

/** Ids per `in (…)` list: well under both engines' parameter limits. */
const SLICE = 500;

export function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SLICE) out.push(items.slice(i, i + SLICE));
  return out;
}

const COLUMN: Record<UserColumn, string> = {
  username: 'account.username',
  name: 'account.name',
  email: 'account.email',
  externalId: 'scim_user.external_id',
  active: 'account.status',
  updatedAt: 'account.updated_at',
  createdAt: 'account.created_at',
};

/** A LIKE pattern matching `value` literally (escape character \\). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const OPERATOR = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** A User filter as a parameterised SQL condition (every value a parameter). */
function conditionSql(c: UserCondition): RawBuilder<boolean> {
  if ('op' in c) {
    const parts = c.parts.map(conditionSql);
    return sql<boolean>`(${sql.join(parts, sql.raw(c.op === 'and' ? ' and ' : ' or '))})`;
  }
  const column = sql.ref(COLUMN[c.column]);
  if (c.column === 'active') return sql<boolean>`(${column} = ${c.value === true ? 'active' : 'disabled'})`;
  const value = String(c.value);
  if (c.column === 'externalId') return sql<boolean>`(${column} = ${value})`;
  if (c.column === 'updatedAt' || c.column === 'createdAt') {
    return sql<boolean>`(${column} ${sql.raw(OPERATOR[c.cmp as keyof typeof OPERATOR])} ${value})`;
  }
  // An empty email is no email at all: it matches nothing, as in the evaluator.
  const present = c.column === 'email' ? sql`${column} <> '' and ` : sql``;
  if (c.cmp === 'eq') return sql<boolean>`(${present}lower(${column}) = ${value})`;
  const pattern = c.cmp === 'sw' ? `${likeLiteral(value)}%` : c.cmp === 'ew' ? `%${likeLiteral(value)}` : `%${likeLiteral(value)}%`;
  return sql<boolean>`(${present}lower(${column}) like ${pattern} escape '\\')`;
}

/** A list's order in SQL: by userName (lower case) or by id, ties by id. */
export type UserOrder = { by: 'username' | 'id'; descending: boolean };

/**
 * SCIM's reads and writes of an enterprise's accounts (not deleted) and 账号组. Reads take the
 * executor they run on, so a write reads the resource it changes inside its own transaction.
 */
export class ScimRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * The enterprise's accounts (all, or those of `ids`), by id; `narrow` reads only those with this username
   * (compared in lower case: usernames are ASCII) or externalId, the lookups identity providers make before a create.
   */
  async users(
    enterpriseId: number,
    ids?: readonly number[],
    db: Kysely<Database> = this.db,
    narrow: { username?: string | undefined; externalId?: string | undefined } = {},
  ): Promise<ScimUserRecord[]> {
    let query = db
      .selectFrom('account')
      // Keyed by account and enterprise: what one tenant's SCIM wrote never shows in another's.
      .leftJoin('scim_user', (join) =>
        join.onRef('scim_user.account_id', '=', 'account.id').onRef('scim_user.enterprise_id', '=', 'account.enterprise_id'),
      )
      .select([
        'account.id',
        'account.username',
        'account.name',
        'account.phone',
        'account.email',
        'account.number',
        'account.status',
        'account.created_at',
        'account.updated_at',
        'scim_user.external_id',
        'scim_user.family_name',
        'scim_user.given_name',
        'scim_user.department',
        'scim_user.manager_id',
      ])
      .where('account.enterprise_id', '=', enterpriseId)
      .where('account.status', 'in', ['active', 'disabled']);
    if (ids) {
      if (ids.length === 0) return [];
      query = query.where('account.id', 'in', ids);
    }
    const { username, externalId } = narrow;
    if (username !== undefined) query = query.where((eb) => eb(eb.fn('lower', ['account.username']), '=', username.toLowerCase()));
    if (externalId !== undefined) query = query.where('scim_user.external_id', '=', externalId);
    const rows = await query.orderBy('account.id').execute();
    const memberships = new Map<number, { id: number; name: string }[]>();
    for (const slice of slices(rows.map((r) => r.id))) {
      const found = await db
        .selectFrom('account_group_member')
        .innerJoin('account_group', 'account_group.id', 'account_group_member.group_id')
        .select(['account_group_member.account_id', 'account_group.id', 'account_group.name'])
        .where('account_group_member.account_id', 'in', slice)
        .orderBy('account_group.id')
        .execute();
      for (const m of found) {
        const held = memberships.get(m.account_id);
        if (held) held.push({ id: m.id, name: m.name });
        else memberships.set(m.account_id, [{ id: m.id, name: m.name }]);
      }
    }
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      name: r.name,
      phone: r.phone,
      email: r.email,
      number: r.number,
      status: r.status === 'disabled' ? 'disabled' : 'active',
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      externalId: r.external_id,
      familyName: r.family_name,
      givenName: r.given_name,
      department: r.department,
      managerId: r.manager_id,
      groups: memberships.get(r.id) ?? [],
    }));
  }

  /**
   * One page of the enterprise's accounts matching `condition` (all without one), in `order`: their ids
   * and how many match in all. Paged in SQL, so a page costs the same in an enterprise of any size.
   */
  async userPage(
    enterpriseId: number,
    condition: UserCondition | undefined,
    order: UserOrder,
    offset: number,
    limit: number,
  ): Promise<{ total: number; ids: number[] }> {
    let query = this.db
      .selectFrom('account')
      .leftJoin('scim_user', (join) =>
        join.onRef('scim_user.account_id', '=', 'account.id').onRef('scim_user.enterprise_id', '=', 'account.enterprise_id'),
      )
      .where('account.enterprise_id', '=', enterpriseId)
      .where('account.status', 'in', ['active', 'disabled']);
    if (condition) query = query.where(conditionSql(condition));
    const counted = await query.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (limit === 0 || offset >= total) return { total, ids: [] };
    const direction = order.descending ? 'desc' : 'asc';
    let paged = query.select('account.id');
    // Code-point order, as the evaluator sorts (PostgreSQL's default collation would not).
    const binary = this.dialect === 'postgres' ? sql` collate "C"` : sql``;
    paged =
      order.by === 'username'
        ? paged.orderBy(sql`lower(${sql.ref('account.username')})${binary}`, direction).orderBy('account.id')
        : paged.orderBy('account.id', direction);
    const rows = await paged.limit(limit).offset(offset).execute();
    return { total, ids: rows.map((r) => r.id) };
  }

  /** How many accounts (not deleted) the enterprise has. */
  async userCount(enterpriseId: number): Promise<number> {
    return (await this.userPage(enterpriseId, undefined, { by: 'id', descending: false }, 0, 0)).total;
  }

  /** The names of some of the enterprise's accounts (a manager, members), by id. */
  async names(enterpriseId: number, ids: readonly number[], db: Kysely<Database> = this.db): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    for (const slice of slices([...new Set(ids)])) {
      const rows = await db
        .selectFrom('account')
        .select(['id', 'name'])
        .where('enterprise_id', '=', enterpriseId)
        .where('status', 'in', ['active', 'disabled'])
        .where('id', 'in', slice)
        .execute();
      for (const r of rows) names.set(r.id, r.name);
    }
    return names;
  }

  /**
   * The enterprise's groups (all, or those of `ids`, or with this externalId or displayName), by id, with
   * their members that are not deleted unless `members` is false (a client that excludes them, or a write
   * that needs only the group). A displayName narrows in SQL only where lower() folds it as JavaScript does;
   * the filter still decides.
   */
  async groups(
    enterpriseId: number,
    ids?: readonly number[],
    db: Kysely<Database> = this.db,
    narrow: { externalId?: string | undefined; displayName?: string | undefined } = {},
    withMembers = true,
  ): Promise<ScimGroupRecord[]> {
    let query = db
      .selectFrom('account_group')
      .leftJoin('scim_group', (join) =>
        join.onRef('scim_group.group_id', '=', 'account_group.id').onRef('scim_group.enterprise_id', '=', 'account_group.enterprise_id'),
      )
      .select(['account_group.id', 'account_group.name', 'account_group.created_at', 'scim_group.external_id', 'scim_group.updated_at'])
      .where('account_group.enterprise_id', '=', enterpriseId);
    if (ids) {
      if (ids.length === 0) return [];
      query = query.where('account_group.id', 'in', ids);
    }
    if (narrow.externalId !== undefined) query = query.where('scim_group.external_id', '=', narrow.externalId);
    const name = narrow.displayName;
    // eslint-disable-next-line no-control-regex
    if (name !== undefined && [...name.replace(/[\x00-\x7f]/g, '')].every((ch) => ch.toLowerCase() === ch.toUpperCase())) {
      query = query.where((eb) => eb(eb.fn('lower', ['account_group.name']), '=', name.toLowerCase()));
    }
    const rows = await query.orderBy('account_group.id').execute();
    const members = new Map<number, { id: number; name: string }[]>();
    for (const slice of withMembers ? slices(rows.map((r) => r.id)) : []) {
      const found = await db
        .selectFrom('account_group_member')
        .innerJoin('account', 'account.id', 'account_group_member.account_id')
        .select(['account_group_member.group_id', 'account.id', 'account.name'])
        .where('account_group_member.group_id', 'in', slice)
        .where('account.status', 'in', ['active', 'disabled'])
        .orderBy('account.id')
        .execute();
      for (const m of found) {
        const held = members.get(m.group_id);
        if (held) held.push({ id: m.id, name: m.name });
        else members.set(m.group_id, [{ id: m.id, name: m.name }]);
      }
    }
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: r.created_at,
      updatedAt: r.updated_at ?? r.created_at,
      externalId: r.external_id,
      members: members.get(r.id) ?? [],
    }));
  }

  /** Username, name, phone, email and 工号 of an account still the enterprise's and not deleted; whether it was. */
  async updateAccount(
    trx: Kysely<Database>,
    enterpriseId: number,
    id: number,
    fields: { username: string; name: string; phone: string; email: string; number: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('account')
      .set({ ...fields, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .where('status', 'in', ['active', 'disabled'])
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async saveUserExtra(trx: Kysely<Database>, enterpriseId: number, accountId: number, extra: ScimUserExtra): Promise<void> {
    const values = {
      external_id: extra.externalId,
      family_name: extra.familyName,
      given_name: extra.givenName,
      department: extra.department,
      manager_id: extra.managerId,
    };
    await trx
      .insertInto('scim_user')
      .values({ account_id: accountId, enterprise_id: enterpriseId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, enterprise_id: enterpriseId }))
      .execute();
  }

  /** A group's name, externalId and modification time (SCIM's meta.lastModified). */
  async saveGroup(trx: Kysely<Database>, enterpriseId: number, groupId: number, name: string, externalId: string | null): Promise<void> {
    const now = new Date().toISOString();
    await trx.updateTable('account_group').set({ name }).where('id', '=', groupId).where('enterprise_id', '=', enterpriseId).execute();
    await trx
      .insertInto('scim_group')
      .values({ group_id: groupId, enterprise_id: enterpriseId, external_id: externalId, updated_at: now })
      .onConflict((oc) => oc.column('group_id').doUpdateSet({ external_id: externalId, updated_at: now }))
      .execute();
  }

  /** The group's members become exactly `accountIds`; memberships kept keep their dates. */
  async setMembers(trx: Kysely<Database>, groupId: number, accountIds: readonly number[]): Promise<{ added: number[]; removed: number[] }> {
    const held = new Set(
      (await trx.selectFrom('account_group_member').select('account_id').where('group_id', '=', groupId).execute()).map(
        (r) => r.account_id,
      ),
    );
    const wanted = new Set(accountIds);
    const removed = [...held].filter((id) => !wanted.has(id));
    const added = [...wanted].filter((id) => !held.has(id));
    await this.writeMembers(trx, groupId, added, removed);
    return { added, removed };
  }

  /**
   * A PATCH's members as deltas: `add` join, `remove` leave, the rest stay untouched (without reading the
   * group's other members). Answers those that actually joined and left.
   */
  async changeMembers(
    trx: Kysely<Database>,
    groupId: number,
    add: readonly number[],
    remove: readonly number[],
  ): Promise<{ added: number[]; removed: number[] }> {
    const held = new Set<number>();
    for (const slice of slices([...new Set([...add, ...remove])])) {
      const rows = await trx
        .selectFrom('account_group_member')
        .select('account_id')
        .where('group_id', '=', groupId)
        .where('account_id', 'in', slice)
        .execute();
      for (const r of rows) held.add(r.account_id);
    }
    const leaving = new Set(remove);
    const added = [...new Set(add)].filter((id) => !held.has(id) && !leaving.has(id));
    const removed = [...leaving].filter((id) => held.has(id));
    await this.writeMembers(trx, groupId, added, removed);
    return { added, removed };
  }

  private async writeMembers(trx: Kysely<Database>, groupId: number, added: readonly number[], removed: readonly number[]): Promise<void> {
    for (const slice of slices(removed)) {
      await trx.deleteFrom('account_group_member').where('group_id', '=', groupId).where('account_id', 'in', slice).execute();
    }
    const now = new Date().toISOString();
    for (const slice of slices(added)) {
      await trx
        .insertInto('account_group_member')
        .values(slice.map((accountId) => ({ group_id: groupId, account_id: accountId, created_at: now })))
        .onConflict((oc) => oc.columns(['group_id', 'account_id']).doNothing())
        .execute();
    }
  }

  /**
   * Which of `accountIds` hold, through their roles or their groups' roles, an authority beyond 普通员工's
   * (`staff`): the console's administrators of any kind, whatever their status.
   */
  async privilegedAccounts(
    trx: Kysely<Database>,
    enterpriseId: number,
    accountIds: readonly number[],
    staff: readonly string[],
  ): Promise<Set<number>> {
    const found = new Set<number>();
    for (const slice of slices([...new Set(accountIds)])) {
      const direct = trx
        .selectFrom('account_role')
        .innerJoin('role_authority', 'role_authority.role_id', 'account_role.role_id')
        .select('account_role.account_id')
        .where('role_authority.authority', 'not in', staff)
        .where('account_role.account_id', 'in', slice);
      const viaGroups = trx
        .selectFrom('account_group_member')
        .innerJoin('account_group_role', 'account_group_role.group_id', 'account_group_member.group_id')
        .innerJoin('role_authority', 'role_authority.role_id', 'account_group_role.role_id')
        .select('account_group_member.account_id')
        .where('role_authority.authority', 'not in', staff)
        .where('account_group_member.account_id', 'in', slice);
      const rows = await trx
        .selectFrom('account')
        .select('id')
        .where('enterprise_id', '=', enterpriseId)
        .where('id', 'in', direct.union(viaGroups))
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /** Whether the group's roles carry an authority beyond 普通员工's (`staff`). */
  async groupPrivileged(trx: Kysely<Database>, groupId: number, staff: readonly string[]): Promise<boolean> {
    const row = await trx
      .selectFrom('account_group_role')
      .innerJoin('role_authority', 'role_authority.role_id', 'account_group_role.role_id')
      .select('account_group_role.group_id')
      .where('account_group_role.group_id', '=', groupId)
      .where('role_authority.authority', 'not in', staff)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The usernames of some of the enterprise's accounts, sorted. */
  async usernames(trx: Kysely<Database>, enterpriseId: number, ids: readonly number[]): Promise<string[]> {
    const names: string[] = [];
    for (const slice of slices([...new Set(ids)])) {
      const rows = await trx
        .selectFrom('account')
        .select('username')
        .where('enterprise_id', '=', enterpriseId)
        .where('id', 'in', slice)
        .execute();
      for (const r of rows) names.push(r.username);
    }
    return names.sort();
  }

  /** Which of `ids` are the enterprise's accounts that are not deleted. */
  async liveAccountIds(trx: Kysely<Database>, enterpriseId: number, ids: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    for (const slice of slices([...new Set(ids)])) {
      const rows = await trx
        .selectFrom('account')
        .select('id')
        .where('enterprise_id', '=', enterpriseId)
        .where('status', 'in', ['active', 'disabled'])
        .where('id', 'in', slice)
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /** Which of a username and a phone another account (any enterprise, deleted ones too) has, read in the caller's transaction. */
  async taken(
    db: Kysely<Database>,
    username: string | null,
    phone: string,
    exceptId?: number,
  ): Promise<{ username: boolean; phone: boolean }> {
    let query = db
      .selectFrom('account')
      .select(['username', 'phone'])
      .where((eb) => eb.or([...(username === null ? [] : [eb('username', '=', username)]), eb('phone', '=', phone)]));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const rows = await query.execute();
    return { username: username !== null && rows.some((r) => r.username === username), phone: rows.some((r) => r.phone === phone) };
  }

  /** Another group of the enterprise has this name (read in the caller's transaction). */
  async groupNameTaken(db: Kysely<Database>, enterpriseId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = db.selectFrom('account_group').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** The authorities of the platform's 普通员工 role: what a person without any console administration holds. */
  async staffAuthorities(db: Kysely<Database>, code: string): Promise<string[]> {
    const rows = await db
      .selectFrom('role_authority')
      .innerJoin('role', 'role.id', 'role_authority.role_id')
      .select('role_authority.authority')
      .where('role.code', '=', code)
      .where('role.enterprise_id', 'is', null)
      .execute();
    return rows.map((r) => r.authority);
  }

  /** 普通员工's role id: what a provisioned account holds, as a synced one does. */
  async staffRoleId(code: string): Promise<number | undefined> {
    return (await this.db.selectFrom('role').select('id').where('code', '=', code).where('enterprise_id', 'is', null).executeTakeFirst())
      ?.id;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scimRepository: ScimRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('scimRepository', new ScimRepository(app.database.db, app.database.dialect));
  },
  { name: 'scim-repository' },
);
