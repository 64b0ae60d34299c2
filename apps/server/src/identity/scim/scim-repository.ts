import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

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

function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SLICE) out.push(items.slice(i, i + SLICE));
  return out;
}

/**
 * SCIM's reads and writes of an enterprise's accounts (not deleted) and 账号组. Reads take the
 * executor they run on, so a write reads the resource it changes inside its own transaction.
 */
export class ScimRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
      .leftJoin('scim_user', 'scim_user.account_id', 'account.id')
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
      for (const m of found) memberships.set(m.account_id, [...(memberships.get(m.account_id) ?? []), { id: m.id, name: m.name }]);
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

  /** The enterprise's groups (all, or those of `ids`, or with this externalId), by id, with their members that are not deleted. */
  async groups(
    enterpriseId: number,
    ids?: readonly number[],
    db: Kysely<Database> = this.db,
    narrow: { externalId?: string | undefined } = {},
  ): Promise<ScimGroupRecord[]> {
    let query = db
      .selectFrom('account_group')
      .leftJoin('scim_group', 'scim_group.group_id', 'account_group.id')
      .select(['account_group.id', 'account_group.name', 'account_group.created_at', 'scim_group.external_id', 'scim_group.updated_at'])
      .where('account_group.enterprise_id', '=', enterpriseId);
    if (ids) {
      if (ids.length === 0) return [];
      query = query.where('account_group.id', 'in', ids);
    }
    if (narrow.externalId !== undefined) query = query.where('scim_group.external_id', '=', narrow.externalId);
    const rows = await query.orderBy('account_group.id').execute();
    const members = new Map<number, { id: number; name: string }[]>();
    for (const slice of slices(rows.map((r) => r.id))) {
      const found = await db
        .selectFrom('account_group_member')
        .innerJoin('account', 'account.id', 'account_group_member.account_id')
        .select(['account_group_member.group_id', 'account.id', 'account.name'])
        .where('account_group_member.group_id', 'in', slice)
        .where('account.status', 'in', ['active', 'disabled'])
        .orderBy('account.id')
        .execute();
      for (const m of found) members.set(m.group_id, [...(members.get(m.group_id) ?? []), { id: m.id, name: m.name }]);
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

  /** Name, phone, email and 工号 of an account still the enterprise's and not deleted; whether it was. */
  async updateAccount(
    trx: Kysely<Database>,
    enterpriseId: number,
    id: number,
    fields: { name: string; phone: string; email: string; number: string },
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
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
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
    const held = (await trx.selectFrom('account_group_member').select('account_id').where('group_id', '=', groupId).execute()).map(
      (r) => r.account_id,
    );
    const wanted = new Set(accountIds);
    const removed = held.filter((id) => !wanted.has(id));
    const added = [...wanted].filter((id) => !held.includes(id));
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
    return { added, removed };
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
    app.decorate('scimRepository', new ScimRepository(app.database.db));
  },
  { name: 'scim-repository' },
);
