import {
  type AuthSourceTestResult,
  type AuthSourceTestStep,
  type LdapSourceConfig,
  TEST_SAMPLE_SIZE,
  ldapFilterText,
} from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Client, type Entry, Filter } from 'ldapts';
import {
  type Directory,
  DirectoryError,
  type DirectoryGroup,
  type DirectorySnapshot,
  type DirectoryUser,
  type LoadedSource,
  toUserView,
} from '../directory.js';
import {
  connectLdap,
  failureText,
  type LdapConnectOptions,
  type LdapConnection,
  type LdapStage,
  resultCodeOf,
  sourceText,
} from './ldap-connection.js';
import { normalizeDn } from './ldap-dn.js';
import {
  ENTRY_UUID,
  OBJECT_GUID,
  bufferAttributes,
  externalIdOf,
  guidToBytes,
  isActiveDirectory,
  text,
  toDirectoryUser,
  userAttributes,
  values,
} from './ldap-entries.js';

/** Sign-in against the directory: the user's entry found by a service bind, then a bind as the user. */
export type LdapAuthResult =
  { ok: true; user: DirectoryUser } | { ok: false; reason: 'bad-credentials' | 'not-found' | 'disabled' | 'unavailable'; detail: string };

/** Entries per page of a paged search (RFC 2696); Active Directory's MaxPageSize is 1000 by default. */
const PAGE_SIZE = 500;
/** Group member attributes: groupOfNames and AD groups (`member`), groupOfUniqueNames (`uniqueMember`). */
const MEMBER = 'member';
const UNIQUE_MEMBER = 'uniqueMember';
/** Bind refusals that are about the credentials (counted as a wrong password), RFC 4511 §4.1.9. */
const CREDENTIAL_REFUSALS = new Set([48, 49, 50, 53]);

/**
 * An LDAP / Active Directory source (protocols.md "LDAP / Active Directory"): a service bind with the
 * source's bind account, paged searches of the users (and groups), and sign-in by binding as the
 * user's own entry; no password attribute is ever read or compared. Every call opens its own
 * connection and closes it.
 */
export class LdapDirectory implements Directory {
  readonly type = 'ldap';
  constructor(
    readonly source: LoadedSource & { type: 'ldap'; config: LdapSourceConfig },
    readonly options: Omit<LdapConnectOptions, 'log'> & { log?: FastifyBaseLogger },
  ) {}

  /**
   * A failure said in Chinese for the console, prefixed with what was being done; the library's and
   * the server's own words go to the log only.
   */
  private failure(prefix: string, error: unknown, stage: LdapStage): string {
    if (error instanceof DirectoryError) return error.message;
    this.options.log?.warn({ sourceId: this.source.id, err: sourceText(error) }, `LDAP ${stage} failed`);
    return `${prefix}：${failureText(error, stage)}`;
  }

  private get config() {
    return this.source.config;
  }

  private connect(): Promise<LdapConnection> {
    return connectLdap(this.config, this.options);
  }

  /** Binds as the source's bind account; throws DirectoryError with the server's refusal. */
  private async serviceBind(client: Client): Promise<void> {
    // An empty password is an unauthenticated bind, which servers may answer as a success (RFC 4513 §5.1.2).
    if (!this.source.secret) throw new DirectoryError('绑定失败：未设置绑定密码');
    try {
      await client.bind(this.config.bindDn.trim(), this.source.secret);
    } catch (error) {
      // A wrong password says so by itself; any other refusal is named as a failed bind.
      const text = this.failure('绑定失败', error, 'bind');
      throw new DirectoryError(resultCodeOf(error) === 49 ? failureText(error, 'bind') : text);
    }
  }

  private async searchUsers(client: Client, filter: string, options: { sizeLimit?: number; base?: string } = {}): Promise<Entry[]> {
    const { sizeLimit = 0, base } = options;
    const result = await client.search(base ?? this.config.baseDn.trim(), {
      scope: base ? 'base' : 'sub',
      filter,
      attributes: userAttributes(this.config),
      explicitBufferAttributes: bufferAttributes(this.config),
      ...(sizeLimit ? { sizeLimit } : { paged: { pageSize: PAGE_SIZE } }),
    });
    return result.searchEntries;
  }

  /** 测试连接: 连接, 绑定, 查询用户 in turn; the steps after a failed one are not run and not listed. */
  async test(): Promise<AuthSourceTestResult> {
    const steps: AuthSourceTestStep[] = [];
    const failed = (name: string, detail: string): AuthSourceTestResult => {
      steps.push({ name, ok: false, detail });
      return { ok: false, steps, sample: [] };
    };
    let connection: LdapConnection;
    try {
      connection = await this.connect();
    } catch (error) {
      return failed('连接', this.failure('无法连接 LDAP 服务器', error, 'bind'));
    }
    try {
      steps.push({ name: '连接', ok: true, detail: this.config.startTls ? '已连接（StartTLS）' : '已连接' });
      try {
        await this.serviceBind(connection.client);
      } catch (error) {
        return failed('绑定', this.failure('绑定失败', error, 'bind'));
      }
      steps.push({ name: '绑定', ok: true, detail: `已绑定 ${this.config.bindDn.trim()}` });
      let entries: Entry[];
      try {
        entries = await this.searchUsers(connection.client, ldapFilterText(this.config.userFilter), { sizeLimit: TEST_SAMPLE_SIZE });
      } catch (error) {
        return failed('查询用户', this.failure('查询用户失败', error, 'search'));
      }
      const users = entries.slice(0, TEST_SAMPLE_SIZE).map((entry) => toDirectoryUser(entry, this.config));
      if (!users.length) return failed('查询用户', '未找到符合用户过滤条件的用户，请检查用户基准 DN 和用户过滤条件');
      const anonymous = users.find((u) => !u.externalId);
      if (anonymous) return failed('查询用户', `条目缺少唯一标识（${ENTRY_UUID} 或 ${OBJECT_GUID}）：${anonymous.dn}`);
      if (users.every((u) => !u.username)) {
        return failed('查询用户', `找到的用户都没有用户名属性「${this.config.mapping.username}」，请检查属性映射`);
      }
      steps.push({ name: '查询用户', ok: true, detail: `查询成功，示例 ${users.length} 个用户` });
      return { ok: true, steps, sample: users.map(toUserView) };
    } finally {
      await connection.close();
    }
  }

  /** Every user of the base DN and filter, and, when asked and configured, the groups with their members. */
  async read(options: { groups: boolean }): Promise<DirectorySnapshot> {
    const connection = await this.connect();
    try {
      const { client } = connection;
      await this.serviceBind(client);
      let entries: Entry[];
      try {
        entries = await this.searchUsers(client, ldapFilterText(this.config.userFilter));
      } catch (error) {
        throw new DirectoryError(this.failure('查询用户失败', error, 'search'));
      }
      const groups = options.groups && this.config.groupBaseDn.trim() ? await this.readGroups(client) : [];
      const membership = new Map<string, string[]>();
      for (const group of groups) {
        for (const member of group.members) membership.set(member, [...(membership.get(member) ?? []), group.externalId]);
      }
      const users = entries.map((entry) => toDirectoryUser(entry, this.config, membership.get(normalizeDn(entry.dn)) ?? []));
      // Without a stable id a rename would read as a leaver and a new hire: refuse rather than guess.
      const anonymous = users.find((u) => !u.externalId);
      if (anonymous) throw new DirectoryError(`目录条目缺少唯一标识（${ENTRY_UUID} 或 ${OBJECT_GUID}）：${anonymous.dn}`);
      return { users, groups: groups.map(({ externalId, name }) => ({ externalId, name })) };
    } finally {
      await connection.close();
    }
  }

  private async readGroups(client: Client): Promise<(DirectoryGroup & { members: string[] })[]> {
    const attributes = ['cn', ENTRY_UUID, MEMBER, UNIQUE_MEMBER, ...(isActiveDirectory(this.config) ? [OBJECT_GUID] : [])];
    let entries: Entry[];
    try {
      const result = await client.search(this.config.groupBaseDn.trim(), {
        scope: 'sub',
        filter: ldapFilterText(this.config.groupFilter),
        attributes,
        explicitBufferAttributes: bufferAttributes(this.config),
        paged: { pageSize: PAGE_SIZE },
      });
      entries = result.searchEntries;
    } catch (error) {
      throw new DirectoryError(this.failure('查询组失败', error, 'search'));
    }
    const groups: (DirectoryGroup & { members: string[] })[] = [];
    for (const entry of entries) {
      const externalId = externalIdOf(entry);
      if (!externalId) throw new DirectoryError(`目录条目缺少唯一标识（${ENTRY_UUID} 或 ${OBJECT_GUID}）：${entry.dn}`);
      const members = await this.membersOf(client, entry);
      groups.push({ externalId, name: text(entry, 'cn') || entry.dn, members: members.map(normalizeDn) });
    }
    return groups;
  }

  /**
   * A group's member DNs. Active Directory returns large groups in ranges (`member;range=0-1499`):
   * the rest is read range by range until the server marks the last one (`…-*`).
   */
  private async membersOf(client: Client, group: Entry): Promise<string[]> {
    const texts = (list: (string | Buffer)[]) => list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v));
    // groupOfUniqueNames values may carry an optional unique id after '#' (RFC 4517 §3.3.21).
    const members = [...texts(values(group, MEMBER)), ...texts(values(group, UNIQUE_MEMBER)).map((v) => v.replace(/#'[01]*'B$/, ''))];
    let entry: Entry | undefined = group;
    while (entry) {
      const ranged = Object.keys(entry).find((key) => /^member;range=\d+-(\d+|\*)$/i.test(key));
      if (!ranged) break;
      members.push(...texts(values(entry, ranged)));
      const end = /-(\d+|\*)$/.exec(ranged)?.[1];
      if (!end || end === '*') break;
      try {
        const next = await client.search(group.dn, {
          scope: 'base',
          filter: '(objectClass=*)',
          attributes: [`${MEMBER};range=${Number(end) + 1}-*`],
        });
        entry = next.searchEntries[0];
      } catch (error) {
        throw new DirectoryError(this.failure('查询组成员失败', error, 'search'));
      }
    }
    return members.filter(Boolean);
  }

  /** The filter that finds a person by what they typed: the mapped username, and for AD also `user@域`. */
  private usernameFilter(login: string): string {
    const attribute = this.config.mapping.username.trim();
    const clauses = [`(${attribute}=${Filter.escape(login)})`];
    if (isActiveDirectory(this.config)) {
      const domain = this.config.adDomain.trim().toLowerCase();
      clauses.push(`(userPrincipalName=${Filter.escape(login)})`);
      const at = login.lastIndexOf('@');
      if (at > 0 && login.slice(at + 1).toLowerCase() === domain) {
        const local = login.slice(0, at);
        clauses.push(`(${attribute}=${Filter.escape(local)})`, `(sAMAccountName=${Filter.escape(local)})`);
      }
    }
    const unique = [...new Set(clauses)];
    return `(&${ldapFilterText(this.config.userFilter)}${unique.length > 1 ? `(|${unique.join('')})` : unique.join('')})`;
  }

  /** The filter that finds an entry by its stable id, wherever it was moved or however renamed. */
  private externalIdFilter(externalId: string): string | undefined {
    if (isActiveDirectory(this.config)) {
      const bytes = guidToBytes(externalId);
      if (bytes) return `(&${ldapFilterText(this.config.userFilter)}(${OBJECT_GUID}=${Filter.escape(bytes)}))`;
    }
    return `(&${ldapFilterText(this.config.userFilter)}(${ENTRY_UUID}=${Filter.escape(externalId)}))`;
  }

  private isUnderBase(dn: string): boolean {
    const base = normalizeDn(this.config.baseDn);
    const entry = normalizeDn(dn);
    return entry === base || entry.endsWith(`,${base}`);
  }

  /**
   * The user's entry: at `dn` when it is still there (and still the same person), else by the stable
   * id, else by the username. Only the service account reads; two entries for one name find nobody.
   */
  private async findUser(client: Client, login: string, dn?: string, externalId?: string): Promise<Entry | undefined> {
    const sameId = (entry: Entry) => !externalId || externalIdOf(entry) === externalId.toLowerCase();
    if (dn && this.isUnderBase(dn)) {
      try {
        const [entry] = await this.searchUsers(client, ldapFilterText(this.config.userFilter), { base: dn });
        if (entry && sameId(entry)) return entry;
      } catch (error) {
        // No Such Object (32) and the like: the entry moved; a network failure is the caller's.
        if (resultCodeOf(error) === undefined) throw error;
      }
    }
    // A person who is gone keeps no claim to the username: someone else may hold it now.
    const filter = externalId ? this.externalIdFilter(externalId) : login ? this.usernameFilter(login) : undefined;
    if (!filter) return undefined;
    const entries = await this.searchUsers(client, filter, { sizeLimit: 2 });
    return entries.length === 1 ? entries[0] : undefined;
  }

  /**
   * Sign-in (protocols.md): service bind, the user's entry (see findUser; `dn` is where it was last
   * seen, `externalId` the identity linked to the account), then a bind as that entry with the
   * password. An empty password never binds: it would be an unauthenticated bind, which servers may
   * answer as a success (RFC 4513 §5.1.2).
   */
  async authenticate(username: string, password: string, dn?: string, externalId?: string): Promise<LdapAuthResult> {
    if (!password) return { ok: false, reason: 'bad-credentials', detail: '密码为空' };
    const login = username.trim();
    if (!login && !dn && !externalId) return { ok: false, reason: 'not-found', detail: '用户名为空' };
    let connection: LdapConnection;
    try {
      connection = await this.connect();
    } catch (error) {
      return { ok: false, reason: 'unavailable', detail: this.failure('无法连接 LDAP 服务器', error, 'bind') };
    }
    try {
      const { client } = connection;
      try {
        await this.serviceBind(client);
      } catch (error) {
        return { ok: false, reason: 'unavailable', detail: this.failure('绑定失败', error, 'bind') };
      }
      let entry: Entry | undefined;
      try {
        entry = await this.findUser(client, login, dn, externalId);
      } catch (error) {
        return { ok: false, reason: 'unavailable', detail: this.failure('查询用户失败', error, 'search') };
      }
      if (!entry) return { ok: false, reason: 'not-found', detail: `目录中未找到该用户：${login || externalId || dn}` };
      const user = toDirectoryUser(entry, this.config);
      try {
        await client.bind(entry.dn, password);
      } catch (error) {
        const code = resultCodeOf(error);
        const detail = `用户绑定失败：${failureText(error, 'userBind')}`;
        // AD answers a right password of a disabled account with 49 and "data 533" in its diagnostic.
        if (code === 49 && !user.active && /\bdata 533\b/.test(sourceText(error))) return { ok: false, reason: 'disabled', detail };
        if (code !== undefined && CREDENTIAL_REFUSALS.has(code)) return { ok: false, reason: 'bad-credentials', detail };
        return { ok: false, reason: 'unavailable', detail };
      }
      if (!user.active) return { ok: false, reason: 'disabled', detail: '目录中的账号已停用（userAccountControl）' };
      return { ok: true, user };
    } finally {
      await connection.close();
    }
  }
}
