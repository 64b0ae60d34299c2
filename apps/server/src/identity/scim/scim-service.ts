import { randomBytes } from 'node:crypto';
import { Role, TenantMessage } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { hashPassword } from '../accounts/passwords.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import { ScimError, invalidValue } from './scim-errors.js';
import {
  type AttributeKinds,
  GROUP_ATTRIBUTES,
  type CheckedFilter,
  USER_ATTRIBUTES,
  checkedFilter,
  knownPath,
  valuesAt,
} from './scim-filter.js';
import { memberDelta, patched } from './scim-patch.js';
import type { ScimGroupRecord, ScimUserRecord, UserOrder } from './scim-repository.js';
import { type ScimResource, groupResource, readGroup, readUser, userResource } from './scim-resources.js';
import { ENTERPRISE_USER_SCHEMA, LIST_SCHEMA, SCIM_MAX_RESULTS } from './scim-schemas.js';

/** Who calls: the token's enterprise, the actor its audit rows name, and the address resources are located at. */
export interface ScimCaller {
  enterpriseId: number;
  actor: Actor;
  /** `{PUBLIC_URL}/scim/v2`. */
  base: string;
}

/** A list's query (RFC 7644 §3.4.2), as read from the URL or a search request. */
export interface ScimListQuery {
  filter?: string | undefined;
  startIndex: number;
  count: number;
  sortBy?: string | undefined;
  sortOrder?: 'ascending' | 'descending' | undefined;
  attributes?: readonly string[] | undefined;
  excludedAttributes?: readonly string[] | undefined;
}

const notFound = (what: string) => new ScimError(404, `${what}不存在`);

/** Characters of usernames an audit row lists before it counts them instead (the row keeps 500 characters of detail). */
const AUDIT_NAMES_CHARS = 440;

/** Accounts a filter the database cannot run may be evaluated over, in memory (beyond: tooMany). */
export const SCIM_FILTER_IN_MEMORY_MAX = 5000;

const accountGuarded = () =>
  new ScimError(403, '该用户持有控制台管理权限，不能通过 SCIM 修改其账号、姓名、手机号、邮箱、状态或删除，请在控制台“账号管理”中操作');
const groupGuarded = () => new ScimError(403, '该账号组的角色含控制台管理权限，不能通过 SCIM 修改其成员或删除，请在控制台“账号组”中操作');

/** A resource id as the portal makes them; anything else is no resource. */
function idOf(raw: string, what: string): number {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw notFound(what);
  return Number(raw);
}

/** RFC 7644 §3.14: a stale If-Match answers 412 and changes nothing; `*` or none matches any version. */
function checkVersion(ifMatch: string | undefined, version: string): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const strip = (v: string) => v.trim().replace(/^W\//, '');
  const wanted = ifMatch.split(',').map(strip);
  if (!wanted.includes(strip(version))) throw new ScimError(412, '资源已被修改（版本不匹配），请重新读取后再试');
}

const CORE_URN = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/;
const ENTERPRISE_URN = ENTERPRISE_USER_SCHEMA.toLowerCase();

/**
 * The top-level attribute an attributes/excludedAttributes entry names: the core schema's URN is taken
 * off first (its "2.0" holds a dot), and any attribute of the enterprise extension names the extension.
 */
function topAttribute(entry: string): string {
  const lower = entry.trim().toLowerCase().replace(CORE_URN, '');
  if (lower.startsWith(ENTERPRISE_URN)) return ENTERPRISE_URN;
  return lower.split('.')[0] ?? '';
}

/** attributes / excludedAttributes (RFC 7644 §3.4.2.5) on top-level names; id, schemas and meta always stay. */
function projected(resource: ScimResource, attributes?: readonly string[], excluded?: readonly string[]): Record<string, unknown> {
  const always = new Set(['id', 'schemas', 'meta']);
  const names = (list: readonly string[]) => new Set(list.map(topAttribute));
  if (attributes?.length) {
    const keep = names(attributes);
    return Object.fromEntries(Object.entries(resource).filter(([k]) => always.has(k) || keep.has(k.toLowerCase())));
  }
  if (excluded?.length) {
    const drop = names(excluded);
    return Object.fromEntries(Object.entries(resource).filter(([k]) => always.has(k) || !drop.has(k.toLowerCase())));
  }
  return resource;
}

/** Whether an answer shows `attribute` (a top-level name in lower case) under attributes / excludedAttributes. */
function shows(query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'>, attribute: string): boolean {
  if (query.attributes?.length) return query.attributes.some((a) => topAttribute(a) === attribute);
  return !(query.excludedAttributes ?? []).some((a) => topAttribute(a) === attribute);
}

/**
 * A group answered without reading its members has no version (RFC 7643 §3.1: meta.version is optional):
 * the version covers the members, and one computed without them would never match.
 */
function unversioned(resource: ScimResource): ScimResource {
  const { version: _version, ...meta } = resource.meta;
  return { ...resource, meta } as ScimResource;
}

const filterOf = (query: ScimListQuery, kinds: AttributeKinds) => (query.filter?.trim() ? checkedFilter(query.filter, kinds) : undefined);

/** A page of resources as a ListResponse (RFC 7644 §3.4.2): filtered, sorted, then cut at startIndex (1-based) and count. */
function listOf(resources: ScimResource[], query: ScimListQuery, kinds: AttributeKinds, filter: CheckedFilter | undefined) {
  let matched = filter ? resources.filter((r) => filter.test(r)) : resources;
  if (query.sortBy) {
    const path = knownPath(query.sortBy, kinds);
    if (!path) throw invalidValue(`不支持按属性 ${query.sortBy} 排序`);
    const key = (r: ScimResource) => {
      const v = valuesAt(r, path)[0];
      return typeof v === 'string' ? v.toLowerCase() : v === undefined ? undefined : String(v);
    };
    const sign = query.sortOrder === 'descending' ? -1 : 1;
    // RFC 7644 §3.4.2.3: resources without the attribute come last whatever the order.
    matched = [...matched].sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === y) return 0;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return x < y ? -sign : sign;
    });
  }
  const { start, count } = pageOf(query);
  return listResponse(matched.length, start, matched.slice(start - 1, start - 1 + count), query);
}

/** startIndex (1-based, at least 1) and count (0 to the maximum) of a list query. */
function pageOf(query: ScimListQuery): { start: number; count: number } {
  return { start: Math.max(1, query.startIndex), count: Math.min(Math.max(0, query.count), SCIM_MAX_RESULTS) };
}

function listResponse(total: number, start: number, page: readonly ScimResource[], query: ScimListQuery) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex: start,
    itemsPerPage: page.length,
    Resources: page.map((r) => projected(r, query.attributes, query.excludedAttributes)),
  };
}

/** The order of a user list in SQL: by id unless sorted by userName; undefined for an order only the evaluator knows. */
function sqlOrder(query: ScimListQuery): UserOrder | undefined {
  if (!query.sortBy) return { by: 'id', descending: false };
  const path = knownPath(query.sortBy, USER_ATTRIBUTES);
  if (!path) throw invalidValue(`不支持按属性 ${query.sortBy} 排序`);
  return path === 'username' ? { by: 'username', descending: query.sortOrder === 'descending' } : undefined;
}

/**
 * SCIM 2.0 Users and Groups of one enterprise (RFC 7643/7644): accounts and 账号组. Every write runs
 * in the enterprise's transaction (enterprise row locked first), reads the resource it changes there,
 * checks If-Match against its version, and commits with its audit rows under the token's name; a
 * user set inactive or deleted loses every session as with 停用 and 删除 (single logout after the commit).
 * A patch is applied to the resource as answered and the result written like a replace.
 */
export class ScimService {
  constructor(private readonly app: FastifyInstance) {}

  private get repo() {
    return this.app.scimRepository;
  }

  private get db() {
    return this.app.database.db;
  }

  private async userResources(
    c: ScimCaller,
    ids?: readonly number[],
    db: Kysely<Database> = this.db,
    filter?: CheckedFilter,
  ): Promise<ScimResource[]> {
    const narrow = { username: filter?.required.get('username'), externalId: filter?.required.get('externalid') };
    return this.resourcesOf(c, await this.repo.users(c.enterpriseId, ids, db, narrow), db);
  }

  /** Users as answered, with their managers' names. */
  private async resourcesOf(c: ScimCaller, users: readonly ScimUserRecord[], db: Kysely<Database>): Promise<ScimResource[]> {
    const managerIds = users.map((u) => u.managerId).filter((id): id is number => id !== null);
    const names = await this.repo.names(c.enterpriseId, managerIds, db);
    return users.map((u) => {
      const managerName = u.managerId === null ? undefined : names.get(u.managerId);
      return userResource(
        u,
        c.base,
        managerName === undefined || u.managerId === null ? undefined : { id: u.managerId, name: managerName },
      );
    });
  }

  private async userRecord(c: ScimCaller, id: number, db: Kysely<Database>): Promise<{ record: ScimUserRecord; resource: ScimResource }> {
    const [record] = await this.repo.users(c.enterpriseId, [id], db);
    const [resource] = record ? await this.resourcesOf(c, [record], db) : [];
    if (!record || !resource) throw notFound('用户');
    return { record, resource };
  }

  private async groupRecord(c: ScimCaller, id: number, db: Kysely<Database>): Promise<{ record: ScimGroupRecord; resource: ScimResource }> {
    const [record] = await this.repo.groups(c.enterpriseId, [id], db);
    if (!record) throw notFound('账号组');
    return { record, resource: groupResource(record, c.base) };
  }

  /**
   * The filter is checked before anything is read. Without one, or with one that translates to SQL
   * (the common attributes, and/or), and in id or userName order, the database counts and pages, and
   * only the page's accounts are read with their groups and managers. Anything else is evaluated here
   * over the whole enterprise, so only up to SCIM_FILTER_IN_MEMORY_MAX accounts (tooMany beyond).
   */
  async listUsers(c: ScimCaller, query: ScimListQuery) {
    const filter = filterOf(query, USER_ATTRIBUTES);
    const order = sqlOrder(query);
    if (order && (!filter || filter.condition)) {
      const { start, count } = pageOf(query);
      const { total, ids } = await this.repo.userPage(c.enterpriseId, filter?.condition, order, start - 1, count);
      const byId = new Map((await this.userResources(c, ids)).map((r) => [r.id, r]));
      const page = ids.map((id) => byId.get(String(id))).filter((r): r is ScimResource => r !== undefined);
      return listResponse(total, start, page, query);
    }
    if ((await this.repo.userCount(c.enterpriseId)) > SCIM_FILTER_IN_MEMORY_MAX) {
      throw new ScimError(
        400,
        `企业账号超过 ${SCIM_FILTER_IN_MEMORY_MAX} 个时，过滤条件只能使用 userName、displayName、name.formatted、emails.value（eq、sw、co、ew）、externalId eq、active eq、meta.created 或 meta.lastModified（eq、gt、ge、lt、le）及其 and / or 组合，排序只能按 userName`,
        'tooMany',
      );
    }
    return listOf(await this.userResources(c, undefined, this.db, filter), query, USER_ATTRIBUTES, filter);
  }

  async getUser(c: ScimCaller, rawId: string, query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'> = {}) {
    const { resource } = await this.userRecord(c, idOf(rawId, '用户'), this.db);
    return { resource: projected(resource, query.attributes, query.excludedAttributes), version: resource.meta.version };
  }

  /** The account a new User becomes: 普通员工 like a synced account, with a random password nobody knows (忘记密码 sets one). */
  async createUser(c: ScimCaller, body: unknown): Promise<ScimResource> {
    const input = readUser(body);
    const staffRoleId = await this.repo.staffRoleId(Role.EnterpriseStaff);
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    const id = await this.unique(() =>
      inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
        await this.refuseTaken(trx, input.username, input.phone);
        if (input.managerId !== null) await this.checkManager(trx, c, input.managerId);
        const created = await this.app.accountAdminRepository.create(trx, c.enterpriseId, {
          username: input.username,
          name: input.name,
          phone: input.phone,
          email: input.email,
          passwordHash,
          groupIds: [],
          roleIds: staffRoleId === undefined ? [] : [staffRoleId],
        });
        await this.repo.updateAccount(trx, c.enterpriseId, created, {
          username: input.username,
          name: input.name,
          phone: input.phone,
          email: input.email,
          number: input.number,
        });
        if (input.active === false) await this.app.accountAdminRepository.setStatus(trx, c.enterpriseId, created, 'disabled');
        await this.repo.saveUserExtra(trx, c.enterpriseId, created, input);
        await auditBy(trx, c.actor, 'account.create', `${input.username} ${input.name}`, 'success', 'SCIM');
        return created;
      }),
    );
    return (await this.userRecord(c, id, this.db)).resource;
  }

  /** PUT (replace) or PATCH of a User: checked against its version, then written like a replace. */
  async writeUser(
    c: ScimCaller,
    rawId: string,
    body: unknown,
    ifMatch: string | undefined,
    mode: 'replace' | 'patch',
  ): Promise<ScimResource> {
    const id = idOf(rawId, '用户');
    const tickets = await this.unique(() =>
      inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
        const { record, resource } = await this.userRecord(c, id, trx);
        checkVersion(ifMatch, resource.meta.version);
        const name = resource.name as { formatted?: string; familyName?: string; givenName?: string };
        const input =
          mode === 'patch'
            ? readUser(patched(resource, body, USER_ATTRIBUTES), {
                name: record.name,
                ...(name.formatted === undefined ? {} : { formatted: name.formatted }),
                ...(name.familyName === undefined ? {} : { family: name.familyName }),
                ...(name.givenName === undefined ? {} : { given: name.givenName }),
                display: record.name,
              })
            : readUser(body);
        // RFC 7644 §3.5.1: an absent active leaves the account as it is (only a create defaults to active).
        const status = input.active === undefined ? record.status : input.active ? 'active' : 'disabled';
        const renamed = input.username !== record.username;
        const personal = renamed || input.name !== record.name || input.phone !== record.phone || input.email !== record.email;
        // What only SCIM keeps (externalId, name parts, department, manager) is part of the resource too:
        // its change is a modification (meta.lastModified, RFC 7643 §3.1) and is audited like the rest.
        const extraChanged =
          input.externalId !== record.externalId ||
          input.familyName !== record.familyName ||
          input.givenName !== record.givenName ||
          input.department !== record.department ||
          input.managerId !== record.managerId;
        const changed = personal || input.number !== record.number || extraChanged;
        // Who signs in as an administrator stays the console's: 忘记密码 by a phone SCIM set would hand it over.
        if ((personal || status !== record.status) && (await this.privileged(trx, c, [id])).has(id)) throw accountGuarded();
        // A rename (Entra ID's UPN change) takes a username no account has or had, as a create would.
        if (renamed || input.phone !== record.phone) await this.refuseTaken(trx, renamed ? input.username : null, input.phone, id);
        if (input.managerId !== null) {
          if (input.managerId === id) throw invalidValue('manager 不能是用户自己');
          await this.checkManager(trx, c, input.managerId);
        }
        const target = `${input.username} ${input.name}`;
        if (changed) {
          await this.repo.updateAccount(trx, c.enterpriseId, id, {
            username: input.username,
            name: input.name,
            phone: input.phone,
            email: input.email,
            number: input.number,
          });
          await auditBy(
            trx,
            c.actor,
            'account.update',
            target,
            'success',
            renamed ? `SCIM，账号 ${record.username} → ${input.username}` : 'SCIM',
          );
        }
        await this.repo.saveUserExtra(trx, c.enterpriseId, id, input);
        let ended: EndedTickets = [];
        if (status !== record.status) {
          await this.app.accountAdminRepository.setStatus(trx, c.enterpriseId, id, status);
          // As 停用: every session ends (登出 row 账号停用) and the applications hear of it after the commit.
          if (status === 'disabled') ended = await this.app.ssoSessionService.end(trx, [id], { reason: 'disabled' });
          await this.app.accountRepository.assertAdministratorsRemain(trx, c.enterpriseId, 0, false);
          await auditBy(trx, c.actor, status === 'disabled' ? 'account.disable' : 'account.enable', target, 'success', 'SCIM');
        }
        return ended;
      }),
    );
    await this.app.ssoSessionService.notify(c.actor, tickets);
    return (await this.userRecord(c, id, this.db)).resource;
  }

  /** DELETE: as 删除 (soft: username and phone stay taken), every session ended. */
  async deleteUser(c: ScimCaller, rawId: string, ifMatch: string | undefined): Promise<void> {
    const id = idOf(rawId, '用户');
    const tickets = await inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
      const { record, resource } = await this.userRecord(c, id, trx);
      checkVersion(ifMatch, resource.meta.version);
      if ((await this.privileged(trx, c, [id])).has(id)) throw accountGuarded();
      if (!(await this.app.accountAdminRepository.softDelete(trx, c.enterpriseId, id))) throw notFound('用户');
      const ended = await this.app.ssoSessionService.end(trx, [id], { reason: 'deleted' });
      await this.app.accountRepository.assertAdministratorsRemain(trx, c.enterpriseId, 0, false);
      await auditBy(trx, c.actor, 'account.delete', `${record.username} ${record.name}`, 'success', 'SCIM');
      return ended;
    });
    await this.app.ssoSessionService.notify(c.actor, tickets);
  }

  /**
   * Groups, narrowed in SQL by an `eq` on externalId or displayName; members are read only when the
   * answer shows them or the filter or order looks at them (a group may have tens of thousands).
   */
  async listGroups(c: ScimCaller, query: ScimListQuery) {
    const filter = filterOf(query, GROUP_ATTRIBUTES);
    const needsMembers = shows(query, 'members') || /members/i.test(query.filter ?? '') || /members/i.test(query.sortBy ?? '');
    const groups = await this.repo.groups(
      c.enterpriseId,
      undefined,
      this.db,
      { externalId: filter?.required.get('externalid'), displayName: filter?.required.get('displayname') },
      needsMembers,
    );
    const resources = groups.map((g) => (needsMembers ? groupResource(g, c.base) : unversioned(groupResource(g, c.base))));
    return listOf(resources, query, GROUP_ATTRIBUTES, filter);
  }

  async getGroup(c: ScimCaller, rawId: string, query: Pick<ScimListQuery, 'attributes' | 'excludedAttributes'> = {}) {
    const id = idOf(rawId, '账号组');
    if (!shows(query, 'members')) {
      const [record] = await this.repo.groups(c.enterpriseId, [id], this.db, {}, false);
      if (!record) throw notFound('账号组');
      return {
        resource: projected(unversioned(groupResource(record, c.base)), query.attributes, query.excludedAttributes),
        version: undefined,
      };
    }
    const { resource } = await this.groupRecord(c, id, this.db);
    return { resource: projected(resource, query.attributes, query.excludedAttributes), version: resource.meta.version };
  }

  async createGroup(c: ScimCaller, body: unknown): Promise<ScimResource> {
    const input = readGroup(body);
    const id = await this.uniqueGroup(() =>
      inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
        await this.checkMembers(trx, c, input.memberIds);
        if (await this.repo.groupNameTaken(trx, c.enterpriseId, input.name)) throw this.groupNameTaken();
        const created = await this.app.groupRepository.create(trx, c.enterpriseId, { name: input.name, description: '', roleIds: [] });
        await this.repo.saveGroup(trx, c.enterpriseId, created, input.name, input.externalId);
        await this.repo.setMembers(trx, created, input.memberIds);
        await auditBy(trx, c.actor, 'group.create', input.name, 'success', `SCIM，成员 ${input.memberIds.length} 个`);
        return created;
      }),
    );
    return (await this.groupRecord(c, id, this.db)).resource;
  }

  /**
   * PUT or PATCH of a Group. A PATCH that only adds and removes members, without If-Match, is applied as
   * deltas (the group's other members are not read: Entra ID and Okta send one such PATCH per change, to
   * groups of any size); anything else is patched onto the resource as answered and written like a PUT.
   */
  async writeGroup(
    c: ScimCaller,
    rawId: string,
    body: unknown,
    ifMatch: string | undefined,
    mode: 'replace' | 'patch',
  ): Promise<ScimResource> {
    const id = idOf(rawId, '账号组');
    const delta = mode === 'patch' && (ifMatch === undefined || ifMatch.trim() === '*') ? memberDelta(body) : undefined;
    await this.uniqueGroup(() =>
      inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
        if (delta) {
          const [record] = await this.repo.groups(c.enterpriseId, [id], trx, {}, false);
          if (!record) throw notFound('账号组');
          await this.checkMembers(trx, c, delta.add);
          const { added, removed } = await this.repo.changeMembers(trx, id, delta.add, delta.remove);
          await this.membersWritten(trx, c, record, record.name, added, removed);
          if (added.length || removed.length) await this.repo.saveGroup(trx, c.enterpriseId, id, record.name, record.externalId);
          return;
        }
        const { record, resource } = await this.groupRecord(c, id, trx);
        checkVersion(ifMatch, resource.meta.version);
        const input = readGroup(mode === 'patch' ? patched(resource, body, GROUP_ATTRIBUTES) : body);
        await this.checkMembers(trx, c, input.memberIds);
        if (input.name !== record.name && (await this.repo.groupNameTaken(trx, c.enterpriseId, input.name, id))) {
          throw this.groupNameTaken();
        }
        await this.repo.saveGroup(trx, c.enterpriseId, id, input.name, input.externalId);
        const { added, removed } = await this.repo.setMembers(trx, id, input.memberIds);
        if (input.name !== record.name) await auditBy(trx, c.actor, 'group.update', `${record.name} → ${input.name}`, 'success', 'SCIM');
        await this.membersWritten(trx, c, record, input.name, added, removed);
      }),
    );
    return (await this.groupRecord(c, id, this.db)).resource;
  }

  /**
   * After a membership change, inside its transaction: refused (403) for a group whose roles carry console
   * authorities, since a token could otherwise make anyone, itself included, an administrator; the guard
   * rails; the audit rows.
   */
  private async membersWritten(
    trx: Kysely<Database>,
    c: ScimCaller,
    record: Pick<ScimGroupRecord, 'id' | 'name'>,
    name: string,
    added: readonly number[],
    removed: readonly number[],
  ): Promise<void> {
    if (!added.length && !removed.length) return;
    if (await this.repo.groupPrivileged(trx, record.id, await this.staffAuthorities(trx))) throw groupGuarded();
    await this.app.accountRepository.assertAdministratorsRemain(trx, c.enterpriseId, 0, false);
    if (added.length) await auditBy(trx, c.actor, 'group.member-add', name, 'success', `SCIM：${await this.usernames(trx, c, added)}`);
    if (removed.length)
      await auditBy(trx, c.actor, 'group.member-remove', name, 'success', `SCIM：${await this.usernames(trx, c, removed)}`);
  }

  /** DELETE of a group, as 删除: not while 应用授权 names it (409), nor when its roles carry console authorities (403). */
  async deleteGroup(c: ScimCaller, rawId: string, ifMatch: string | undefined): Promise<void> {
    const id = idOf(rawId, '账号组');
    await inEnterpriseTransaction(this.db, c.enterpriseId, async (trx) => {
      const { record, resource } = await this.groupRecord(c, id, trx);
      checkVersion(ifMatch, resource.meta.version);
      const apps = await this.app.ssoAppRepository.grantedTo(trx, 'group', id);
      if (apps.length) throw new ScimError(409, `该账号组已用于应用授权（${apps.join('、')}），请先在“应用授权”中移除`);
      if (await this.repo.groupPrivileged(trx, id, await this.staffAuthorities(trx))) throw groupGuarded();
      await this.app.groupRepository.delete(trx, id);
      await this.app.accountRepository.assertAdministratorsRemain(trx, c.enterpriseId, 0, false);
      await auditBy(trx, c.actor, 'group.delete', record.name, 'success', 'SCIM');
    });
  }

  /** Usernames for an audit row, in order: all that fit, else the first ones and how many in all. */
  private async usernames(trx: Kysely<Database>, c: ScimCaller, ids: readonly number[]): Promise<string> {
    const names = await this.repo.usernames(trx, c.enterpriseId, ids);
    const all = names.join(',');
    if (all.length <= AUDIT_NAMES_CHARS) return all;
    const shown: string[] = [];
    let length = 0;
    for (const name of names) {
      if (length + name.length + 1 > AUDIT_NAMES_CHARS) break;
      shown.push(name);
      length += name.length + 1;
    }
    return `${shown.join(',')} 等 ${names.length} 个`;
  }

  /** 普通员工's authorities: anything beyond them is a console authority SCIM may not hand out or override. */
  private async staffAuthorities(trx: Kysely<Database>): Promise<string[]> {
    return this.repo.staffAuthorities(trx, Role.EnterpriseStaff);
  }

  /** Which of these accounts hold console authorities. */
  private async privileged(trx: Kysely<Database>, c: ScimCaller, ids: readonly number[]): Promise<Set<number>> {
    return this.repo.privilegedAccounts(trx, c.enterpriseId, ids, await this.staffAuthorities(trx));
  }

  private async checkMembers(trx: Kysely<Database>, c: ScimCaller, ids: readonly number[]): Promise<void> {
    const live = await this.repo.liveAccountIds(trx, c.enterpriseId, ids);
    const missing = ids.filter((id) => !live.has(id));
    if (missing.length) throw invalidValue(`成员不存在：${missing.slice(0, 10).join('、')}`);
  }

  private async checkManager(trx: Kysely<Database>, c: ScimCaller, id: number): Promise<void> {
    if (!(await this.repo.liveAccountIds(trx, c.enterpriseId, [id])).has(id)) throw invalidValue(`manager 不存在：${id}`);
  }

  private async refuseTaken(trx: Kysely<Database>, username: string | null, phone: string, exceptId?: number): Promise<void> {
    const taken = await this.repo.taken(trx, username, phone, exceptId);
    if (taken.username) throw new ScimError(409, `userName：${TenantMessage.usernameTaken}`, 'uniqueness');
    if (taken.phone) throw new ScimError(409, `phoneNumbers：${TenantMessage.phoneTaken}`, 'uniqueness');
  }

  private groupNameTaken(): ScimError {
    return new ScimError(409, `displayName：${TenantMessage.groupNameTaken}`, 'uniqueness');
  }

  /** A write that lost a race for a username or phone: the unique constraint's refusal, in SCIM's terms. */
  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ScimError(409, `${TenantMessage.usernameTaken}或${TenantMessage.phoneTaken}`, 'uniqueness');
      throw err;
    }
  }

  private async uniqueGroup<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw this.groupNameTaken();
      throw err;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scimService: ScimService;
  }
}

export default fp(
  async (app) => {
    app.decorate('scimService', new ScimService(app));
  },
  { name: 'scim-service', dependencies: ['scim-repository'] },
);
