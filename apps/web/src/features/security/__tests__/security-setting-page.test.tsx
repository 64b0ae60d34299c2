import type { SecurityPolicy } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { chooseOption } from '@/testing/select';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { SecuritySettingPage } from '../components/security-setting-page';
import { checkPolicyNumber, policyBody } from '../lib/policy-rules';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const POLICY_URL = '/web-api/console/v1/security/policy';
const DEFAULTS: SecurityPolicy = {
  passwordMinLength: 8,
  passwordClasses: ['lower', 'digit'],
  passwordNoUsername: false,
  passwordHistory: 0,
  passwordExpiryDays: 0,
  lockMaxFailures: 5,
  lockMinutes: 15,
  sessionIdleMinutes: 120,
  sessionMaxHours: 8,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'end-oldest',
  twoFactor: 'off',
  auditRetentionDays: 180,
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

let stored: SecurityPolicy;

beforeEach(() => {
  installRuntimeConfig();
  stored = DEFAULTS;
  fake.api = createFakeApi({
    [`GET ${POLICY_URL}`]: () => [stored],
    'GET /web-api/console/v1/security/ip-rules': [{ rules: [], currentIp: '203.0.113.7' }],
    'GET /web-api/console/v1/org/options': [
      {
        groups: [],
        roles: [
          { id: 2, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' },
          { id: 9, name: '质检员', code: 'ROLE_QUALITY' },
        ],
      },
    ],
  });
  // The server keeps what it was sent, and answers with its own message.
  fake.api.put.mockImplementation((url, body) => {
    stored = body as SecurityPolicy;
    return Promise.resolve({ code: 20200, msg: '安全设置已保存', data: [] });
  });
  vi.mocked(notify.success).mockClear();
});

const admin = menusEntry(['security', 'security:setting']);
const numberField = (label: string) => screen.getByRole('spinbutton', { name: label });
const type = (label: string, value: string) => fireEvent.change(numberField(label), { target: { value } });
const save = () => fireEvent.click(within(form()).getByRole('button', { name: /保\s*存/ }));
const form = () => document.querySelector<HTMLElement>('.security-setting__form')!;
/** The preset preview's rows: setting, 当前, 应用后. */
const changeRows = (dialog: HTMLElement) =>
  within(within(dialog).getByRole('table', { name: '预设的修改' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('安全设置 rules', () => {
  it('accept whole numbers within each range and nothing else, in the server’s words', () => {
    expect(checkPolicyNumber('passwordMinLength', 6)).toBeUndefined();
    expect(checkPolicyNumber('passwordMinLength', 18)).toBeUndefined();
    expect(checkPolicyNumber('passwordMinLength', 5)).toBe('密码最短长度不能少于6位');
    expect(checkPolicyNumber('passwordMinLength', 19)).toBe('密码最短长度不能超过18位（密码最长18位，否则任何密码都无法满足）');
    expect(checkPolicyNumber('passwordMinLength', 7.5)).toBe('密码最短长度须为 6-18 之间的整数');
    expect(checkPolicyNumber('passwordMinLength', null)).toBe('密码最短长度须为 6-18 之间的整数');
    expect(checkPolicyNumber('passwordExpiryDays', 0)).toBeUndefined();
    expect(checkPolicyNumber('lockMaxFailures', 2)).toBe('登录失败锁定次数须为 3-20 之间的整数');
  });

  it('send the classes in a fixed order', () => {
    expect(policyBody({ ...DEFAULTS, passwordClasses: ['symbol', 'lower', 'upper'] }).passwordClasses).toEqual([
      'lower',
      'upper',
      'symbol',
    ]);
  });
});

describe('安全设置 page', () => {
  it('shows the enterprise’s policy in its five sections', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    for (const title of ['密码策略', '登录锁定', '会话', '二次验证', '审计日志'])
      expect(screen.getAllByText(title).length).toBeGreaterThan(0);
    expect((screen.getByRole('checkbox', { name: '小写字母' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: '大写字母' }) as HTMLInputElement).checked).toBe(false);
    expect((numberField('锁定时长') as HTMLInputElement).value).toBe('15');
    expect((screen.getByRole('radio', { name: '关闭' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('修改在账号下次登录时生效，已登录的会话不受影响。')).toBeTruthy();
  });

  it('refuses numbers out of range, an emptied field and an idle time beyond the maximum, and sends nothing', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    type('最小长度', '5');
    type('历史密码', '25');
    type('失败次数', '');
    type('空闲超时', '600');
    type('最长时长', '2');
    // 网络安全法 keeps logs at least six months.
    type('保留天数', '90');
    save();
    await waitFor(() =>
      expect(fieldErrors(form())).toEqual([
        '密码最短长度不能少于6位',
        '禁止重复使用的历史密码个数须为 0-24 之间的整数',
        '审计日志保留天数须为 180-3650 之间的整数',
        '登录失败锁定次数须为 3-20 之间的整数',
        '会话空闲超时不能超过会话最长时长',
      ]),
    );
    expect(fake.api!.put).not.toHaveBeenCalled();

    type('最小长度', '18');
    type('历史密码', '24');
    type('失败次数', '3');
    type('最长时长', '10');
    type('保留天数', '180');
    await waitFor(() => expect(fieldErrors(form())).toEqual([]));
  });

  it('保存 sends every value and the page reloads what the server now holds', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    type('最小长度', '10');
    fireEvent.click(screen.getByRole('checkbox', { name: '特殊字符' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '大写字母' }));
    fireEvent.click(screen.getByRole('switch', { name: '不得包含账号' }));
    type('历史密码', '5');
    type('有效期', '90');
    type('失败次数', '3');
    type('锁定时长', '30');
    type('空闲超时', '30');
    type('最长时长', '12');
    type('同时在线上限', '3');
    type('保留天数', '365');
    fireEvent.click(screen.getByRole('radio', { name: '拒绝新的登录' }));
    fireEvent.click(screen.getByRole('radio', { name: '全员' }));
    const gets = fake.api!.get.mock.calls.length;
    save();

    const sent: SecurityPolicy = {
      passwordMinLength: 10,
      passwordClasses: ['lower', 'upper', 'digit', 'symbol'],
      passwordNoUsername: true,
      passwordHistory: 5,
      passwordExpiryDays: 90,
      lockMaxFailures: 3,
      lockMinutes: 30,
      sessionIdleMinutes: 30,
      sessionMaxHours: 12,
      sessionMaxConcurrent: 3,
      sessionOverflow: 'refuse',
      twoFactor: 'all',
      auditRetentionDays: 365,
      twoFactorRoles: [],
      twoFactorMethods: ['totp', 'passkey'],
      trustDeviceDays: 0,
    };
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(POLICY_URL, sent));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('安全设置已保存'));
    await waitFor(() => expect(fake.api!.get.mock.calls.length).toBeGreaterThan(gets));
    await waitFor(() => expect((screen.getByRole('radio', { name: '全员' }) as HTMLInputElement).checked).toBe(true));
    expect((numberField('最小长度') as HTMLInputElement).value).toBe('10');
  });

  it('按角色 asks for a role; the allowed factors and 信任此设备 days are sent with the rest', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    expect(screen.queryByRole('combobox', { name: '角色' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: '按角色' }));
    await screen.findByRole('combobox', { name: '角色' });
    fireEvent.click(screen.getByRole('checkbox', { name: '验证器应用（TOTP）' }));
    fireEvent.click(screen.getByRole('checkbox', { name: '通行密钥' }));
    type('信任此设备', '91');
    save();
    await waitFor(() =>
      expect(fieldErrors(form())).toEqual([
        '按角色启用二次验证时，请至少选择一个角色',
        '请至少选择一种允许的验证方式',
        '信任此设备天数须为 0-90 之间的整数',
      ]),
    );
    expect(fake.api!.put).not.toHaveBeenCalled();

    await chooseOption(screen.getByRole('combobox', { name: '角色' }), '质检员');
    fireEvent.click(screen.getByRole('checkbox', { name: '短信验证码' }));
    type('信任此设备', '30');
    save();
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(POLICY_URL, {
        ...DEFAULTS,
        twoFactor: 'roles',
        twoFactorRoles: [9],
        twoFactorMethods: ['sms'],
        trustDeviceDays: 30,
      }),
    );
  });

  it('还原 puts back the loaded values', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    type('最小长度', '12');
    fireEvent.click(within(form()).getByRole('button', { name: /还\s*原/ }));
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
  });

  it('a preset shows each change (current → new) before anything is saved; 应用并保存 saves through 保存', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    // An unsaved edit: the preview starts from the saved policy and says the edit is dropped.
    type('锁定时长', '5');
    fireEvent.click(screen.getByRole('button', { name: '应用等保三级' }));
    const dialog = await screen.findByRole('dialog', { name: '应用预设：等保三级' });
    expect(within(dialog).getByRole('alert').textContent).toBe('页面上未保存的修改将被放弃，预设基于已保存的设置应用');
    expect(changeRows(dialog)).toEqual([
      ['密码必须包含', '小写字母、数字', '小写字母、大写字母、数字'],
      ['历史密码', '不限制', '最近 5 个不可重复'],
      ['密码有效期', '永不过期', '90 天'],
      ['会话空闲超时', '120 分钟', '30 分钟'],
      ['二次验证', '关闭', '仅管理员'],
    ]);
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: '应用并保存' }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(POLICY_URL, {
        ...DEFAULTS,
        passwordClasses: ['lower', 'upper', 'digit'],
        passwordHistory: 5,
        passwordExpiryDays: 90,
        sessionIdleMinutes: 30,
        twoFactor: 'admins',
      }),
    );
  });

  it('a preset keeps stricter saved settings: the preview lists and 应用并保存 saves only what it raises', async () => {
    stored = { ...DEFAULTS, passwordMinLength: 12, lockMaxFailures: 3, lockMinutes: 60, sessionIdleMinutes: 15, twoFactor: 'all' };
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('12'));
    fireEvent.click(screen.getByRole('button', { name: '应用等保三级' }));
    const dialog = await screen.findByRole('dialog', { name: '应用预设：等保三级' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(changeRows(dialog)).toEqual([
      ['密码必须包含', '小写字母、数字', '小写字母、大写字母、数字'],
      ['历史密码', '不限制', '最近 5 个不可重复'],
      ['密码有效期', '永不过期', '90 天'],
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: '应用并保存' }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(POLICY_URL, {
        ...DEFAULTS,
        passwordMinLength: 12,
        passwordClasses: ['lower', 'upper', 'digit'],
        passwordHistory: 5,
        passwordExpiryDays: 90,
        lockMaxFailures: 3,
        lockMinutes: 60,
        sessionIdleMinutes: 15,
        twoFactor: 'all',
      }),
    );
  });

  it('取消 leaves the form as it was', async () => {
    renderWithProviders(<SecuritySettingPage />, { session: admin });
    await waitFor(() => expect((numberField('最小长度') as HTMLInputElement).value).toBe('8'));
    fireEvent.click(screen.getByRole('button', { name: '应用NIST/ASVS' }));
    const dialog = await screen.findByRole('dialog', { name: '应用预设：NIST/ASVS' });
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect((screen.getByRole('radio', { name: '关闭' }) as HTMLInputElement).checked).toBe(true);
    expect(fake.api!.put).not.toHaveBeenCalled();
  });
});
