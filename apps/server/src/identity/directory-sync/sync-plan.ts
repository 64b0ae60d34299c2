import { normalizeDn, parentDn } from '../auth-sources/ldap/ldap-dn.js';
import { createHash } from 'node:crypto';
import {
  PHONE_PATTERN,
  type SyncAction,
  type SyncChange,
  type SyncCounts,
  type SyncLeaverRule,
  type SyncMapping,
  type SyncObjectKind,
  TenantMessage,
  TenantRules,
  USERNAME_PATTERN,
} from '@portal/shared';
import type { DirectorySnapshot, DirectoryUser } from '../auth-sources/directory.js';

/**
 * 同步 预览: what a sync job would do, computed from the directory's snapshot and the
 * enterprise's accounts and 账号组 as they are. Pure: the repository gathers the state, the runner
 * stores the items, executing applies them (sync-apply.ts).
 */

export const MISSING_PHONE = '缺少有效的手机号（平台账号须绑定手机号）';

/** Labels of SyncChange.field. */
export const Field = {
  name: '姓名',
  username: '账号',
  phone: '手机号',
  email: '邮箱',
  status: '状态',
  location: '位置',
  groups: '账号组',
  adopt: '关联已有账号',
  groupName: '名称',
  adoptGroup: '关联已有账号组',
} as const;

const STATUS_TEXT = { active: '启用', disabled: '停用' } as const;

export interface PlanAccount {
  id: number;
  username: string;
  name: string;
  phone: string;
  email: string;
  status: 'active' | 'disabled';
  /**
   * Whether a directory person with its phone may take it over: not linked to another source and
   * holding no role beyond 普通员工 (directly or through a group), so an entry whose phone someone
   * edited cannot become an administrator's account.
   */
  adoptable: boolean;
}

/** The enterprise's side of a sync, as the repository reads it before a preview. */
export interface PlanState {
  /** The source's identities: external id → the linked account and the DN it was last seen at. */
  identities: ReadonlyMap<string, { accountId: number; dn: string }>;
  /** The enterprise's accounts that are not deleted. */
  accounts: ReadonlyMap<number, PlanAccount>;
  /** Who holds a username or phone the directory asks for (any enterprise, deleted accounts too). */
  usernameHolders: ReadonlyMap<string, number>;
  phoneHolders: ReadonlyMap<string, number>;
  /** 账号组 filled by this source: external id → the group. */
  groupLinks: ReadonlyMap<string, { id: number; name: string }>;
  /** The enterprise's 账号组 that no source fills, by name (a directory group of that name takes it over). */
  unlinkedGroups: ReadonlyMap<string, number>;
  /** Names of all the enterprise's 账号组 (a new group's name must be free). */
  groupNames: ReadonlyMap<string, number>;
  /** Each account's memberships among the source's groups (group ids). */
  memberships: ReadonlyMap<number, ReadonlySet<number>>;
  /** Accounts a sync disabled as leavers and nobody enabled since: a re-hired person gets them back. */
  syncDisabled: ReadonlySet<number>;
}

export interface PlanJob {
  mapping: SyncMapping;
  leaverRule: SyncLeaverRule;
}

/** The directory's values of a person, ready for an account. */
export interface PersonValues {
  username: string;
  name: string;
  phone: string;
  email: string;
}

/** What executing an item writes (stored in sync_run_item.detail.values). */
export type ItemValues =
  | {
      op: 'create-account';
      account: PersonValues;
      dn: string;
      /** External ids of the source's groups the account belongs to; null when the job does not sync groups. */
      groups: string[] | null;
    }
  | {
      op: 'update-account';
      accountId: number;
      /** Write the identity: adopting an account, or the entry's DN changed. */
      link: boolean;
      /** An existing local account taken over by the source (关联已有账号). */
      adopt?: boolean;
      dn: string;
      set: Partial<PersonValues>;
      status: 'active' | 'disabled' | null;
      groups: string[] | null;
    }
  | { op: 'create-group'; name: string }
  | { op: 'update-group'; groupId: number; name: string; link: boolean };

export interface PlannedItem {
  kind: SyncObjectKind;
  action: SyncAction;
  externalId: string;
  name: string;
  username: string;
  targetId: number | null;
  changes: SyncChange[];
  values: ItemValues;
  /** Set when the item cannot succeed (a platform rule refuses it): it is listed and fails at execute. */
  error: string;
}

/** Mainland mobiles as directories write them (`+86 139-1000-0001`) reduced to the 11 digits accounts keep. */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/[\s\-()]/g, '');
  const national = digits.replace(/^(?:\+|00)?86(?=1\d{10}$)/, '');
  return national;
}

/** The account username a job gives a directory user: the platform user id or the e-mail's local part, after the prefix. */
export function usernameFor(user: Pick<DirectoryUser, 'username' | 'email'>, mapping: SyncMapping): string {
  const raw =
    mapping.usernameFrom === 'email' && user.email.includes('@') ? user.email.slice(0, user.email.lastIndexOf('@')) : user.username;
  return `${mapping.usernamePrefix}${raw.trim()}`;
}

/**
 * A hash of what the directory said, independent of the order it said it in: executing a preview
 * reads the source again and refuses when this differs (the preview no longer shows what would happen).
 */
export function snapshotFingerprint(snapshot: DirectorySnapshot): string {
  const byId = <T extends { externalId: string }>(a: T, b: T) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0);
  const canonical = {
    users: [...snapshot.users]
      .sort(byId)
      .map((u) => [u.externalId, u.username, u.name, u.phone, u.email, u.dn, u.location, [...u.groupIds].sort(), u.active]),
    groups: [...snapshot.groups].sort(byId).map((g) => [g.externalId, g.name]),
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** Counts of a list of items: by action for those that can succeed, failures apart. */
export function countItems(items: readonly { action: SyncAction; failed: boolean }[]): SyncCounts {
  const counts: SyncCounts = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };
  for (const item of items) {
    if (item.failed) counts.failed++;
    else counts[item.action]++;
  }
  return counts;
}

const namesText = (names: Iterable<string>) => [...names].sort((a, b) => a.localeCompare(b, 'zh-CN')).join('、');

/** The sync's plan: group items first (user items refer to them), then people in username order. */
export function planSync(snapshot: DirectorySnapshot, state: PlanState, job: PlanJob): PlannedItem[] {
  const { mapping } = job;
  const items: PlannedItem[] = [];

  // ------------------------------------------------------------------------------------------ groups
  /** A directory group's 账号组 name, for people's 账号组 changes (the directory's name once synced). */
  const groupName = new Map<string, string>();
  if (mapping.groups) {
    const claimedNames = new Set<string>();
    for (const group of [...snapshot.groups].sort((a, b) => a.name.localeCompare(b.name, 'zh-CN'))) {
      const name = group.name.trim();
      groupName.set(group.externalId, name);
      const linked = state.groupLinks.get(group.externalId);
      const problem = TenantRules.groupName(name);
      const holder = state.groupNames.get(name);
      const base = { kind: 'group' as const, externalId: group.externalId, name, username: '' };
      if (linked) {
        if (linked.name === name) continue;
        let error = problem ?? '';
        if (!error && ((holder !== undefined && holder !== linked.id) || claimedNames.has(name))) error = TenantMessage.groupNameTaken;
        claimedNames.add(name);
        items.push({
          ...base,
          action: 'update',
          targetId: linked.id,
          changes: [{ field: Field.groupName, from: linked.name, to: name }],
          values: { op: 'update-group', groupId: linked.id, name, link: false },
          error,
        });
        continue;
      }
      const adoptable = state.unlinkedGroups.get(name);
      if (adoptable !== undefined && !claimedNames.has(name)) {
        claimedNames.add(name);
        items.push({
          ...base,
          action: 'update',
          targetId: adoptable,
          changes: [{ field: Field.adoptGroup, from: '', to: name }],
          values: { op: 'update-group', groupId: adoptable, name, link: true },
          error: '',
        });
        continue;
      }
      let error = problem ?? '';
      if (!error && (holder !== undefined || claimedNames.has(name))) error = TenantMessage.groupNameTaken;
      claimedNames.add(name);
      items.push({
        ...base,
        action: 'create',
        targetId: null,
        changes: [{ field: Field.groupName, from: '', to: name }],
        values: { op: 'create-group', name },
        error,
      });
    }
  }
  const linkedGroupName = new Map([...state.groupLinks.values()].map((g) => [g.id, g.name]));

  // ------------------------------------------------------------------------------------------ people
  // A deleted account linked to a person is outside the link: its username and phone stay taken.
  const linkedAccounts = new Set([...state.identities.values()].map((i) => i.accountId).filter((id) => state.accounts.has(id)));
  const seen = new Set<string>();
  const claimedUsernames = new Map<string, string>();
  const claimedPhones = new Map<string, string>();
  const phoneOwners = new Map<string, PlanAccount>();
  for (const account of state.accounts.values()) {
    if (account.status === 'active' && account.adoptable && !linkedAccounts.has(account.id)) phoneOwners.set(account.phone, account);
  }

  /** Refusals of a username or phone another account holds (one linked to this source may be giving it up in the same run). */
  const takenBy = (holders: ReadonlyMap<string, number>, value: string, self: number | null) => {
    const holder = holders.get(value);
    return holder !== undefined && holder !== self && !linkedAccounts.has(holder);
  };
  const claim = (claimed: Map<string, string>, value: string, externalId: string) => {
    const other = claimed.get(value);
    if (other !== undefined && other !== externalId) return false;
    claimed.set(value, externalId);
    return true;
  };

  /** The 账号组 a directory user belongs to: external ids of the source's groups, and their names. */
  const wantedGroups = (user: DirectoryUser) => {
    const ids = [...new Set(user.groupIds)].filter((id) => groupName.has(id)).sort();
    return { ids, names: namesText(ids.map((id) => groupName.get(id) ?? '')) };
  };

  const users = [...snapshot.users].sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  for (const user of users) {
    seen.add(user.externalId);
    const identity = state.identities.get(user.externalId);
    const account = identity ? state.accounts.get(identity.accountId) : undefined;
    const username = usernameFor(user, mapping);
    const name = user.name.trim() || username;
    const phoneText = normalizePhone(user.phone);
    const phone = PHONE_PATTERN.test(phoneText) ? phoneText : '';
    // An address the platform would refuse is left out rather than refusing the person.
    const email = TenantRules.email(user.email.trim()) ? '' : user.email.trim();
    const groups = mapping.groups ? wantedGroups(user) : null;

    if (!user.active) {
      if (account && account.status === 'active' && job.leaverRule === 'disable') items.push(disableItem(user.externalId, account));
      continue;
    }

    const fieldProblem = (): string => {
      if (!USERNAME_PATTERN.test(username)) return `账号「${username}」不符合规则：${TenantMessage.usernameInvalid}`;
      return TenantRules.personName(name) ?? '';
    };

    if (account && identity) {
      const changes: SyncChange[] = [];
      const set: Partial<PersonValues> = {};
      if (username !== account.username) {
        changes.push({ field: Field.username, from: account.username, to: username });
        set.username = username;
      }
      if (name !== account.name) {
        changes.push({ field: Field.name, from: account.name, to: name });
        set.name = name;
      }
      if (mapping.updatePhone && phone && phone !== account.phone) {
        changes.push({ field: Field.phone, from: account.phone, to: phone });
        set.phone = phone;
      }
      if (mapping.updateEmail && email !== account.email) {
        changes.push({ field: Field.email, from: account.email, to: email });
        set.email = email;
      }
      let status: 'active' | null = null;
      if (account.status === 'disabled' && state.syncDisabled.has(account.id)) {
        changes.push({ field: Field.status, from: STATUS_TEXT.disabled, to: STATUS_TEXT.active });
        status = 'active';
      }
      let moved = false;
      const oldParent = parentDn(identity.dn);
      if (user.dn && identity.dn && normalizeDn(oldParent) !== normalizeDn(parentDn(user.dn))) {
        changes.push({ field: Field.location, from: oldParent, to: user.location });
        moved = true;
      }
      if (groups) {
        const held = [...(state.memberships.get(account.id) ?? [])];
        const heldNames = namesText(held.map((id) => linkedGroupName.get(id) ?? ''));
        const wantedIds = new Set(groups.ids.map((id) => state.groupLinks.get(id)?.id ?? `new:${id}`));
        const same = held.length === wantedIds.size && held.every((id) => wantedIds.has(id));
        if (!same) {
          changes.push({ field: Field.groups, from: heldNames, to: groups.names });
          moved = true;
        }
      }
      const dnChanged = user.dn !== identity.dn;
      if (changes.length === 0) continue;
      let error = set.username !== undefined || set.name !== undefined ? fieldProblem() : '';
      if (
        !error &&
        set.username !== undefined &&
        (takenBy(state.usernameHolders, username, account.id) || !claim(claimedUsernames, username, user.externalId))
      )
        error = `账号「${username}」已被其他账号使用`;
      if (
        !error &&
        set.phone !== undefined &&
        (takenBy(state.phoneHolders, phone, account.id) || !claim(claimedPhones, phone, user.externalId))
      )
        error = `手机号 ${phone} 已被其他账号使用`;
      items.push({
        kind: 'user',
        action: moved ? 'move' : 'update',
        externalId: user.externalId,
        name,
        username: set.username ?? account.username,
        targetId: account.id,
        changes,
        values: { op: 'update-account', accountId: account.id, link: dnChanged, dn: user.dn, set, status, groups: groups?.ids ?? null },
        error,
      });
      continue;
    }

    // Not linked yet: an active account of the enterprise with the person's phone becomes theirs.
    const adoptable = phone ? phoneOwners.get(phone) : undefined;
    if (adoptable && claim(claimedPhones, phone, user.externalId)) {
      phoneOwners.delete(phone);
      const changes: SyncChange[] = [{ field: Field.adopt, from: '', to: adoptable.username }];
      const set: Partial<PersonValues> = {};
      if (username !== adoptable.username) {
        changes.push({ field: Field.username, from: adoptable.username, to: username });
        set.username = username;
      }
      if (name !== adoptable.name) {
        changes.push({ field: Field.name, from: adoptable.name, to: name });
        set.name = name;
      }
      if (mapping.updateEmail && email !== adoptable.email) {
        changes.push({ field: Field.email, from: adoptable.email, to: email });
        set.email = email;
      }
      if (user.location) changes.push({ field: Field.location, from: '', to: user.location });
      if (groups) {
        const held = [...(state.memberships.get(adoptable.id) ?? [])];
        const heldNames = namesText(held.map((id) => linkedGroupName.get(id) ?? ''));
        if (heldNames !== groups.names) changes.push({ field: Field.groups, from: heldNames, to: groups.names });
      }
      let error = fieldProblem();
      if (
        !error &&
        set.username !== undefined &&
        (takenBy(state.usernameHolders, username, adoptable.id) || !claim(claimedUsernames, username, user.externalId))
      )
        error = `账号「${username}」已被其他账号使用`;
      items.push({
        kind: 'user',
        action: 'update',
        externalId: user.externalId,
        name,
        username,
        targetId: adoptable.id,
        changes,
        values: {
          op: 'update-account',
          accountId: adoptable.id,
          link: true,
          adopt: true,
          dn: user.dn,
          set,
          status: null,
          groups: groups?.ids ?? null,
        },
        error,
      });
      continue;
    }

    const changes: SyncChange[] = [
      { field: Field.username, from: '', to: username },
      { field: Field.name, from: '', to: name },
      { field: Field.phone, from: '', to: phone },
      ...(email ? [{ field: Field.email, from: '', to: email }] : []),
      ...(user.location ? [{ field: Field.location, from: '', to: user.location }] : []),
      ...(groups?.names ? [{ field: Field.groups, from: '', to: groups.names }] : []),
    ];
    let error = fieldProblem();
    if (!error && !phone) error = MISSING_PHONE;
    if (!error && (takenBy(state.usernameHolders, username, null) || !claim(claimedUsernames, username, user.externalId)))
      error = `账号「${username}」已被其他账号使用`;
    if (!error && (takenBy(state.phoneHolders, phone, null) || !claim(claimedPhones, phone, user.externalId)))
      error = `手机号 ${phone} 已被其他账号使用`;
    items.push({
      kind: 'user',
      action: 'create',
      externalId: user.externalId,
      name,
      username,
      targetId: null,
      changes,
      values: { op: 'create-account', account: { username, name, phone, email }, dn: user.dn, groups: groups?.ids ?? null },
      error,
    });
  }

  // Linked people the directory no longer lists: leavers.
  if (job.leaverRule === 'disable') {
    for (const [externalId, identity] of state.identities) {
      if (seen.has(externalId)) continue;
      const account = state.accounts.get(identity.accountId);
      if (account?.status === 'active') items.push(disableItem(externalId, account));
    }
  }
  return items;
}

function disableItem(externalId: string, account: PlanAccount): PlannedItem {
  return {
    kind: 'user',
    action: 'disable',
    externalId,
    name: account.name,
    username: account.username,
    targetId: account.id,
    changes: [{ field: Field.status, from: STATUS_TEXT.active, to: STATUS_TEXT.disabled }],
    values: { op: 'update-account', accountId: account.id, link: false, dn: '', set: {}, status: 'disabled', groups: null },
    error: '',
  };
}
