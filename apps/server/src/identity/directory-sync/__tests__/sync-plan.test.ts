import { SYNC_MAPPING_DEFAULTS, type SyncMapping } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import type { DirectorySnapshot, DirectoryUser } from '../../auth-sources/directory.js';
import { parentDn } from '../../auth-sources/ldap/ldap-dn.js';
import { isValidCron, nextRunAt } from '../sync-cron.js';
import {
  MISSING_PHONE,
  type PlanAccount,
  type PlanState,
  normalizePhone,
  planSync,
  snapshotFingerprint,
  usernameFor,
} from '../sync-plan.js';

const OU = 'ou=people,dc=hengyue,dc=com';

function person(uid: string, overrides: Partial<DirectoryUser> = {}): DirectoryUser {
  const ou = overrides.location ?? `ou=rd,${OU}`;
  return {
    externalId: `uuid-${uid}`,
    username: uid,
    name: uid.toUpperCase(),
    phone: '13910000001',
    email: `${uid}@hengyue.com`,
    dn: `uid=${uid},${ou}`,
    location: ou,
    groupIds: [],
    active: true,
    ...overrides,
  };
}

function state(overrides: Partial<PlanState> = {}): PlanState {
  return {
    identities: new Map(),
    accounts: new Map(),
    usernameHolders: new Map(),
    phoneHolders: new Map(),
    groupLinks: new Map(),
    unlinkedGroups: new Map(),
    groupNames: new Map(),
    memberships: new Map(),
    syncDisabled: new Set(),
    ...overrides,
  };
}

const job = (mapping: Partial<SyncMapping> = {}, leaverRule: 'disable' | 'keep' = 'disable') => ({
  mapping: { ...SYNC_MAPPING_DEFAULTS, ...mapping },
  leaverRule,
});

const account = (id: number, username: string, overrides: Partial<PlanAccount> = {}): PlanAccount => ({
  id,
  username,
  name: username.toUpperCase(),
  phone: '13910000001',
  email: `${username}@hengyue.com`,
  status: 'active',
  adoptable: true,
  ...overrides,
});

/** The state after a first sync of `people`: linked accounts 1, 2, … */
function synced(people: DirectoryUser[], extra: Partial<PlanState> = {}): PlanState {
  return state({
    identities: new Map(people.map((p, i) => [p.externalId, { accountId: i + 1, dn: p.dn }])),
    accounts: new Map(people.map((p, i) => [i + 1, account(i + 1, p.username, { name: p.name, phone: p.phone, email: p.email })])),
    ...extra,
  });
}

describe('the sync plan', () => {
  it('lists new people and groups as 新增, groups first, with what each gets', () => {
    const snapshot: DirectorySnapshot = {
      users: [person('zhaomin', { phone: '13910000002', groupIds: ['g-rd'] }), person('lixin', { groupIds: ['g-rd'] })],
      groups: [{ externalId: 'g-rd', name: '研发中心' }],
    };
    const items = planSync(snapshot, state(), job());
    expect(items.map((i) => [i.kind, i.action, i.name, i.error])).toEqual([
      ['group', 'create', '研发中心', ''],
      ['user', 'create', 'LIXIN', ''],
      ['user', 'create', 'ZHAOMIN', ''],
    ]);
    expect(items[1]?.changes).toEqual([
      { field: '账号', from: '', to: 'lixin' },
      { field: '姓名', from: '', to: 'LIXIN' },
      { field: '手机号', from: '', to: '13910000001' },
      { field: '邮箱', from: '', to: 'lixin@hengyue.com' },
      { field: '位置', from: '', to: `ou=rd,${OU}` },
      { field: '账号组', from: '', to: '研发中心' },
    ]);
    expect(items[1]?.values).toMatchObject({ op: 'create-account', groups: ['g-rd'] });
  });

  it('has nothing to do when the accounts already match the directory', () => {
    const people = [person('lixin'), person('zhaomin', { phone: '13910000002' })];
    expect(planSync({ users: people, groups: [] }, synced(people), job())).toEqual([]);
  });

  it('a renamed person is an 更新 of the linked account; a new OU is a 移动 (with their other changes)', () => {
    const before = [person('lixin'), person('zhaomin', { phone: '13910000002' })];
    const after = [
      person('lixin2', { externalId: 'uuid-lixin', name: 'LIXIN', email: 'lixin@hengyue.com' }),
      person('zhaomin', { phone: '13910000002', location: `ou=sales,${OU}`, name: '赵敏' }),
    ];
    const items = planSync({ users: after, groups: [] }, synced(before), job());
    expect(items.map((i) => [i.action, i.targetId, i.changes.map((c) => c.field)])).toEqual([
      ['update', 1, ['账号']],
      ['move', 2, ['姓名', '位置']],
    ]);
    expect(items[0]?.values).toMatchObject({ op: 'update-account', link: true, set: { username: 'lixin2' } });
  });

  it('disables linked people who left the directory or are marked inactive, unless the job keeps them', () => {
    const people = [person('lixin'), person('zhaomin', { phone: '13910000002' }), person('qianlei', { phone: '13910000003' })];
    const now = [people[0]!, { ...people[1]!, active: false }];
    const items = planSync({ users: now, groups: [] }, synced(people), job());
    expect(items.map((i) => [i.action, i.username, i.changes])).toEqual([
      ['disable', 'zhaomin', [{ field: '状态', from: '启用', to: '停用' }]],
      ['disable', 'qianlei', [{ field: '状态', from: '启用', to: '停用' }]],
    ]);
    expect(planSync({ users: now, groups: [] }, synced(people), job({}, 'keep'))).toEqual([]);
  });

  it('re-enables a leaver the sync disabled when the directory lists them again, not one an administrator disabled', () => {
    const people = [person('lixin'), person('zhaomin', { phone: '13910000002' })];
    const base = synced(people);
    const accounts = new Map([...base.accounts].map(([id, a]) => [id, { ...a, status: 'disabled' as const }]));
    const items = planSync({ users: people, groups: [] }, { ...base, accounts, syncDisabled: new Set([1]) }, job());
    expect(items.map((i) => [i.action, i.username, i.changes])).toEqual([
      ['update', 'lixin', [{ field: '状态', from: '停用', to: '启用' }]],
    ]);
  });

  it('lists the people who cannot become accounts with the reason', () => {
    const users = [
      person('wuqiang', { phone: '' }),
      person('9lives', { phone: '13910000009' }),
      person('taken', { phone: '13910000010' }),
      person('phoneless', { phone: '010-6000' }),
      person('fengyu', { phone: '+86 139-1000-0011' }),
    ];
    const items = planSync({ users, groups: [] }, state({ usernameHolders: new Map([['taken', 99]]) }), job());
    const errors = Object.fromEntries(items.map((i) => [i.username, i.error]));
    expect(errors).toEqual({
      '9lives': expect.stringContaining('不符合规则') as unknown,
      fengyu: '',
      phoneless: MISSING_PHONE,
      taken: '账号「taken」已被其他账号使用',
      wuqiang: MISSING_PHONE,
    });
    expect(items.find((i) => i.username === 'fengyu')?.values).toMatchObject({ account: { phone: '13910000011' } });
  });

  it('adopts an active account of the enterprise with the same phone instead of creating one', () => {
    const existing = account(7, 'li_xin', { name: '李鑫', phone: '13910000001', email: '' });
    const items = planSync(
      { users: [person('lixin', { name: '李鑫' })], groups: [] },
      state({ accounts: new Map([[7, existing]]) }),
      job(),
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ action: 'update', targetId: 7, error: '' });
    expect(items[0]?.changes.map((c) => [c.field, c.to])).toEqual([
      ['关联已有账号', 'li_xin'],
      ['账号', 'lixin'],
      ['邮箱', 'lixin@hengyue.com'],
      ['位置', `ou=rd,${OU}`],
    ]);
  });

  it('never takes over an administrator or an account another source signs in: the person is listed as failing', () => {
    const admin = account(7, 'zhangwei', { name: '张伟', phone: '13910000001', adoptable: false });
    const items = planSync(
      { users: [person('lixin', { name: '李鑫' })], groups: [] },
      state({ accounts: new Map([[7, admin]]), phoneHolders: new Map([['13910000001', 7]]) }),
      job(),
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ action: 'create', targetId: null, error: '手机号 13910000001 已被其他账号使用' });
  });

  it('renames linked groups, takes over a same-named 账号组, never deletes one', () => {
    const snapshot: DirectorySnapshot = {
      users: [],
      groups: [
        { externalId: 'g-rd', name: '研发部' },
        { externalId: 'g-qa', name: '质量部' },
      ],
    };
    const items = planSync(
      snapshot,
      state({
        groupLinks: new Map([
          ['g-rd', { id: 1, name: '研发中心' }],
          ['g-gone', { id: 2, name: '已撤销' }],
        ]),
        unlinkedGroups: new Map([['质量部', 5]]),
        groupNames: new Map([
          ['研发中心', 1],
          ['已撤销', 2],
          ['质量部', 5],
        ]),
      }),
      job(),
    );
    expect(items.map((i) => [i.action, i.targetId, i.changes])).toEqual([
      ['update', 1, [{ field: '名称', from: '研发中心', to: '研发部' }]],
      ['update', 5, [{ field: '关联已有账号组', from: '', to: '质量部' }]],
    ]);
  });

  it('applies the prefix and the e-mail local part, and normalises phones and DNs', () => {
    expect(usernameFor({ username: 'ZhangSan', email: 'zs@corp.cn' }, { ...SYNC_MAPPING_DEFAULTS, usernamePrefix: 'wx_' })).toBe(
      'wx_ZhangSan',
    );
    expect(usernameFor({ username: 'ZhangSan', email: 'zs@corp.cn' }, { ...SYNC_MAPPING_DEFAULTS, usernameFrom: 'email' })).toBe('zs');
    expect(normalizePhone('+86 139-1000-0001')).toBe('13910000001');
    expect(normalizePhone('008613910000001')).toBe('13910000001');
    expect(parentDn('cn=Li\\, Xin,ou=rd,dc=x')).toBe('ou=rd,dc=x');
  });

  it('fingerprints the directory independently of its order', () => {
    const a = person('a', { groupIds: ['1', '2'] });
    const b = person('b');
    const one = snapshotFingerprint({ users: [a, b], groups: [{ externalId: 'g', name: 'G' }] });
    expect(snapshotFingerprint({ users: [b, { ...a, groupIds: ['2', '1'] }], groups: [{ externalId: 'g', name: 'G' }] })).toBe(one);
    expect(snapshotFingerprint({ users: [b, { ...a, name: 'A2' }], groups: [{ externalId: 'g', name: 'G' }] })).not.toBe(one);
  });
});

describe('sync schedules', () => {
  it('take five-field cron expressions in China time only', () => {
    expect(isValidCron('0 2 * * *')).toBe(true);
    expect(isValidCron('*/15 8-18 * * 1-5')).toBe(true);
    for (const bad of ['0 0 2 * * *', '@daily', '0 25 * * *', 'every day', '0 2 * *']) expect(isValidCron(bad), bad).toBe(false);
    // 02:00 in Shanghai is 18:00 UTC the day before.
    expect(nextRunAt('0 2 * * *', new Date('2026-03-01T12:00:00Z'))?.toISOString()).toBe('2026-03-01T18:00:00.000Z');
    expect(nextRunAt('', new Date())).toBeNull();
  });
});
