import {
  AD_MAPPING,
  type AuthSourceDetail,
  AuthSourceMessage,
  type AuthSourceSummary,
  type AuthSourceTestResult,
  LDAP_DEFAULTS,
  OIDC_DEFAULTS,
} from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { AuthSourcePage } from '../components/auth-source-page';
import { AD_USER_FILTER } from '../lib/platforms';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/auth/sources';
const CALLBACK = 'https://portal.example.com/cas/login/wecom/callback';

const LDAP_CONFIG = {
  ...LDAP_DEFAULTS,
  url: 'ldap://ldap.hengyue.example:389',
  bindDn: 'cn=admin,dc=hengyue,dc=example',
  baseDn: 'ou=people,dc=hengyue,dc=example',
  groupBaseDn: 'ou=groups,dc=hengyue,dc=example',
};
const LDAP_ROW: AuthSourceSummary = {
  id: 3,
  type: 'ldap',
  name: '恒岳目录',
  enabled: true,
  endpoint: 'ldap://ldap.hengyue.example:389',
  linkedAccounts: 5,
  lastSync: {
    id: 9,
    jobId: 2,
    jobName: '每日同步',
    status: 'partial',
    trigger: 'schedule',
    counts: { create: 4, update: 0, disable: 0, move: 0, failed: 1 },
    error: '',
    operator: '',
    createdAt: '2026-11-23 02:00:00',
    finishedAt: '2026-11-23 02:00:05',
  },
  updatedAt: '2026-11-20 09:30:00',
};
const WECOM_ROW: AuthSourceSummary = {
  id: 4,
  type: 'wecom',
  name: '企业微信',
  enabled: false,
  endpoint: 'ww5f3c1a',
  linkedAccounts: 0,
  lastSync: null,
  updatedAt: '2026-11-21 10:00:00',
};
const LDAP_DETAIL: AuthSourceDetail = {
  id: 3,
  type: 'ldap',
  name: '恒岳目录',
  enabled: true,
  hasSecret: true,
  callbackUrl: null,
  updatedAt: LDAP_ROW.updatedAt,
  config: LDAP_CONFIG,
};
const WECOM_DETAIL: AuthSourceDetail = {
  id: 4,
  type: 'wecom',
  name: '企业微信',
  enabled: false,
  hasSecret: true,
  callbackUrl: CALLBACK,
  updatedAt: WECOM_ROW.updatedAt,
  config: { corpId: 'ww5f3c1a', agentId: '1000002' },
};
const PASSED: AuthSourceTestResult = {
  ok: true,
  steps: [
    { name: '连接', ok: true, detail: '' },
    { name: '绑定', ok: true, detail: '' },
    { name: '查询用户', ok: true, detail: '' },
  ],
  sample: [
    {
      externalId: 'e1',
      username: 'lixin',
      name: '李欣',
      phone: '13910000001',
      email: 'lixin@hengyue.example',
      location: 'ou=rd,dc=hengyue,dc=example',
    },
    { externalId: 'e2', username: 'zhaomin', name: '赵敏', phone: '', email: '', location: 'ou=rd,dc=hengyue,dc=example' },
  ],
};
const BIND_REFUSED: AuthSourceTestResult = {
  ok: false,
  steps: [
    { name: '连接', ok: true, detail: '' },
    { name: '绑定', ok: false, detail: '绑定账号或密码错误' },
  ],
  sample: [],
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}`]: [LDAP_ROW, WECOM_ROW],
    [`GET ${API}/3`]: [LDAP_DETAIL],
    [`GET ${API}/4`]: [WECOM_DETAIL],
    [`POST ${API}`]: [{ id: 8 }],
    [`PUT ${API}/3`]: [],
    [`PUT ${API}/4`]: [],
    [`DELETE ${API}/4`]: [],
    [`POST ${API}/test`]: [PASSED],
  });
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const renderPage = () => renderWithProviders(<AuthSourcePage />, { session: menusEntry(['auth', 'auth:source']) });
const sourceRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });
// antd spaces two-character labels (停 用) and may still show a fading loading icon (named "loading") before one.
const button = (root: HTMLElement, name: string) =>
  within(root).getByRole('button', { name: new RegExp(`(^|\\s)${name.split('').join('\\s*')}$`) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === API);

async function openNew(label: string) {
  fireEvent.click(screen.getByRole('button', { name: /新增认证源/ }));
  const picker = await screen.findByRole('dialog', { name: '选择认证源类型' });
  fireEvent.click(within(picker).getByRole('button', { name: label }));
  return screen.findByRole('dialog', { name: `新增认证源（${label}）` });
}

describe('认证源 list', () => {
  it('lists the sources with type, address, state, linked accounts and the latest sync', async () => {
    renderPage();
    const ldap = await sourceRow('恒岳目录');
    // The sources' table (the page also holds SCIM 同步's tokens).
    expect(
      within(ldap.closest('table')!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['名称', '类型', '地址/标识', '状态', '关联账号', '最近同步', '更新时间', '操作']);
    for (const text of [
      'LDAP / AD',
      'ldap://ldap.hengyue.example:389',
      '启用',
      '5',
      '部分失败',
      '2026-11-23 02:00:05',
      '2026-11-20 09:30:00',
    ])
      expect(within(ldap).getByText(text)).toBeTruthy();
    const wecom = await sourceRow('ww5f3c1a');
    for (const text of ['企业微信', '停用', '从未同步']) expect(within(wecom).getAllByText(text).length).toBeGreaterThan(0);
    expect(button(wecom, '启用')).toBeTruthy();
    expect(button(ldap, '停用')).toBeTruthy();
  });

  it('停用 asks first, then sends the stored settings back disabled, without a secret', async () => {
    renderPage();
    fireEvent.click(button(await sourceRow('恒岳目录'), '停用'));
    const confirm = await screen.findByRole('dialog', { name: '停用认证源' });
    expect(within(confirm).getByText(/已关联的 5 个账号保留/)).toBeTruthy();
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.click(button(confirm, '停用'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${API}/3`, { type: 'ldap', config: LDAP_CONFIG, name: '恒岳目录', enabled: false }),
    );
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('启用 turns a disabled source back on; 删除 asks first', async () => {
    renderPage();
    fireEvent.click(button(await sourceRow('ww5f3c1a'), '启用'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${API}/4`, {
        type: 'wecom',
        config: WECOM_DETAIL.config,
        name: '企业微信',
        enabled: true,
      }),
    );
    fireEvent.click(button(await sourceRow('ww5f3c1a'), '删除'));
    const confirm = await screen.findByRole('dialog', { name: '删除认证源' });
    expect(within(confirm).getByText(/确定删除认证源「企业微信」吗？/)).toBeTruthy();
    fireEvent.click(button(confirm, '删除'));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/4`));
  });

  it('a row’s 测试连接 tries the stored settings with the stored secret and shows each step', async () => {
    fake.api!.routes[`POST ${API}/test`] = [BIND_REFUSED];
    renderPage();
    fireEvent.click(button(await sourceRow('恒岳目录'), '测试连接'));
    const dialog = await screen.findByRole('dialog', { name: '测试连接：恒岳目录' });
    const steps = await within(dialog).findByRole('list', { name: '测试步骤' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['连接', '绑定绑定账号或密码错误']);
    expect(within(items[0]!).getByRole('img', { name: '成功' })).toBeTruthy();
    expect(within(items[1]!).getByRole('img', { name: '失败' })).toBeTruthy();
    expect(within(dialog).getByText('连接失败')).toBeTruthy();
    expect(fake.api!.post).toHaveBeenCalledWith(`${API}/test`, { type: 'ldap', config: LDAP_CONFIG, id: 3 }, { silent: true });

    fake.api!.routes[`POST ${API}/test`] = [PASSED];
    fireEvent.click(button(dialog, '重新测试'));
    const sample = await within(dialog).findByRole('table', { name: /查询到的用户（示例 2 个）/ });
    expect(within(sample).getByRole('row', { name: /lixin 李欣 13910000001/ })).toBeTruthy();
  });
});

describe('认证源 新增 and 编辑', () => {
  it('offers each chat platform once: a configured one is not offered again', async () => {
    renderPage();
    await sourceRow('恒岳目录');
    fireEvent.click(screen.getByRole('button', { name: /新增认证源/ }));
    const picker = await screen.findByRole('dialog', { name: '选择认证源类型' });
    expect(within(picker).getByRole('button', { name: '企业微信' })).toHaveProperty('disabled', true);
    expect(within(picker).getByText(AuthSourceMessage.chatTypeTaken)).toBeTruthy();
    for (const label of ['LDAP / AD', '钉钉', '飞书'])
      expect(within(picker).getByRole('button', { name: label })).toHaveProperty('disabled', false);
  });

  it('checks an LDAP source with the rules before sending, offers AD settings, then posts the body', async () => {
    renderPage();
    await sourceRow('恒岳目录');
    const drawer = await openNew('LDAP / AD');
    expect(within(drawer).getByLabelText<HTMLInputElement>('用户过滤条件').value).toBe(LDAP_DEFAULTS.userFilter);
    expect(within(drawer).getByLabelText<HTMLInputElement>('用户名').value).toBe('uid');

    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        AuthSourceMessage.nameRequired,
        AuthSourceMessage.urlInvalid,
        AuthSourceMessage.bindDnRequired,
        AuthSourceMessage.secretRequired,
        AuthSourceMessage.baseDnRequired,
      ]),
    );

    type(drawer, '名称', ' 集团 AD ');
    type(drawer, '地址', 'ldaps://dc1.corp.example.com');
    type(drawer, '绑定账号（DN）', 'admin@corp.example.com');
    type(drawer, '绑定密码', 'Bind pass 1');
    type(drawer, '用户基准 DN', 'ou=staff,dc=corp,dc=example,dc=com');
    type(drawer, '用户过滤条件', '(objectClass=user');
    type(drawer, '用户名', '');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        AuthSourceMessage.dnInvalid,
        AuthSourceMessage.filterInvalid,
        AuthSourceMessage.usernameAttributeRequired,
      ]),
    );
    // ldaps:// is TLS already: StartTLS is off and cannot be turned on.
    expect(within(drawer).getByRole('switch', { name: 'StartTLS' })).toHaveProperty('disabled', true);

    // AD 域 lets the bind account be user@domain and offers AD's usual attributes and filters.
    type(drawer, 'AD 域', 'corp.example.com');
    fireEvent.click(await within(drawer).findByRole('button', { name: '使用 AD 常用设置' }));
    expect(within(drawer).getByLabelText<HTMLInputElement>('用户名').value).toBe(AD_MAPPING.username);
    expect(within(drawer).getByLabelText<HTMLInputElement>('用户过滤条件').value).toBe('(objectClass=user');
    type(drawer, '用户过滤条件', AD_USER_FILTER);
    type(drawer, '组基准 DN', 'ou=groups,dc=corp,dc=example,dc=com');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        {
          type: 'ldap',
          name: '集团 AD',
          enabled: true,
          secret: 'Bind pass 1',
          config: {
            url: 'ldaps://dc1.corp.example.com',
            startTls: false,
            bindDn: 'admin@corp.example.com',
            baseDn: 'ou=staff,dc=corp,dc=example,dc=com',
            userFilter: AD_USER_FILTER,
            mapping: AD_MAPPING,
            adDomain: 'corp.example.com',
            groupBaseDn: 'ou=groups,dc=corp,dc=example,dc=com',
            groupFilter: '(objectClass=group)',
          },
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增认证源（LDAP / AD）' })).toBeNull());
  });

  it('编辑 never fills the secret from the server; empty keeps the stored one; a refusal shows under its field', async () => {
    fake.api!.put.mockImplementationOnce(() => Promise.reject(new ApiError(AuthSourceMessage.nameTaken, 1, 409)));
    renderPage();
    fireEvent.click(button(await sourceRow('恒岳目录'), '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑认证源 恒岳目录' });
    const secret = await within(drawer).findByLabelText<HTMLInputElement>('绑定密码');
    expect(secret.value).toBe('');
    expect(secret.getAttribute('placeholder')).toBe('已设置，留空则不修改');
    expect(secret.getAttribute('type')).toBe('password');
    expect(within(drawer).getByLabelText<HTMLInputElement>('组基准 DN').value).toBe(LDAP_CONFIG.groupBaseDn);

    type(drawer, '名称', '企业微信');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([AuthSourceMessage.nameTaken]));
    const [, body] = fake.api!.put.mock.calls.at(-1)!;
    expect(body).toEqual({ type: 'ldap', name: '企业微信', enabled: true, config: LDAP_CONFIG });
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('测试连接 in the form tries the unsaved values, and the typed secret is not kept once the drawer closes', async () => {
    const { queryClient } = renderPage();
    fireEvent.click(button(await sourceRow('恒岳目录'), '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑认证源 恒岳目录' });
    await within(drawer).findByLabelText('绑定密码');
    type(drawer, '用户基准 DN', 'ou=rd,dc=hengyue,dc=example');

    // No secret typed: the stored one is used (the source's id goes with the values).
    fireEvent.click(button(drawer, '测试连接'));
    const sample = await within(drawer).findByRole('table', { name: /查询到的用户（示例 2 个）/ });
    expect(within(sample).getAllByRole('row')).toHaveLength(3);
    expect(within(within(drawer).getByRole('list', { name: '测试步骤' })).getAllByRole('img', { name: '成功' })).toHaveLength(3);
    expect(fake.api!.post).toHaveBeenLastCalledWith(
      `${API}/test`,
      { type: 'ldap', config: { ...LDAP_CONFIG, baseDn: 'ou=rd,dc=hengyue,dc=example' }, id: 3 },
      { silent: true },
    );

    // A filter the server cannot use answers 400: its message shows under the field.
    fake.api!.post.mockImplementationOnce(() => Promise.reject(new ApiError(AuthSourceMessage.filterInvalid, 1, 400)));
    type(drawer, '绑定密码', 'typed-secret-7');
    fireEvent.click(button(drawer, '测试连接'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([AuthSourceMessage.filterInvalid]));
    expect(fake.api!.post).toHaveBeenLastCalledWith(`${API}/test`, expect.objectContaining({ id: 3, secret: 'typed-secret-7' }), {
      silent: true,
    });

    fireEvent.click(button(drawer, '取消'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '编辑认证源 恒岳目录' })).toBeNull());
    await waitFor(() => {
      const cached = JSON.stringify([
        queryClient
          .getMutationCache()
          .getAll()
          .map((m) => m.state),
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ]);
      expect(cached).not.toContain('typed-secret-7');
    });
  });

  it('OpenID Connect: issuer, client, scopes, claim mapping, email domains, JIT with default groups and the forced provider', async () => {
    fake.api!.routes['GET /web-api/console/v1/org/options'] = [{ groups: [{ id: 21, name: '研发中心' }], roles: [] }];
    fake.api!.routes[`GET ${API}/8`] = [
      {
        id: 8,
        type: 'oidc',
        name: '集团统一身份',
        enabled: true,
        hasSecret: true,
        callbackUrl: 'https://portal.example.com/cas/login/federation/8/callback',
        updatedAt: '2026-11-29 10:00:00',
        config: { ...OIDC_DEFAULTS, issuer: 'https://idp.corp.example.com', clientId: 'portal', domains: ['corp.example.com'] },
        domainReviews: [{ domain: 'corp.example.com', status: 'pending' }],
      },
    ];
    renderPage();
    await sourceRow('恒岳目录');
    const drawer = await openNew('OpenID Connect');
    expect(within(drawer).getByLabelText<HTMLInputElement>('授权范围').value).toBe(OIDC_DEFAULTS.scopes);
    expect(within(drawer).getByLabelText<HTMLInputElement>('用户名').value).toBe('preferred_username');
    expect(within(drawer).getByText('保存后显示重定向地址，再将它登记到身份提供方')).toBeTruthy();
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        AuthSourceMessage.nameRequired,
        AuthSourceMessage.issuerInvalid,
        AuthSourceMessage.clientIdRequired,
        AuthSourceMessage.secretRequired,
      ]),
    );
    type(drawer, '名称', '集团统一身份');
    type(drawer, '发现地址（Issuer）', 'https://idp.corp.example.com');
    type(drawer, '客户端 ID（Client ID）', ' portal ');
    type(drawer, '客户端密钥（Client Secret）', 'client-secret-9');
    type(drawer, '授权范围', 'profile email');
    const domains = within(drawer).getByLabelText('邮箱域名');
    fireEvent.change(domains, { target: { value: 'intranet' } });
    fireEvent.keyDown(domains, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([AuthSourceMessage.scopesInvalid, AuthSourceMessage.domainsInvalid('intranet')]),
    );
    type(drawer, '授权范围', 'openid  profile email');
    fireEvent.click(within(drawer).getByTitle('intranet').querySelector('[aria-label="close"]')!);
    fireEvent.mouseDown(domains);
    fireEvent.change(domains, { target: { value: 'Corp.Example.com' } });
    fireEvent.keyDown(domains, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(within(drawer).getByRole('switch', { name: '允许首次登录自动创建账号' }));
    fireEvent.mouseDown(within(drawer).getByLabelText('默认账号组'));
    fireEvent.click(await screen.findByTitle('研发中心'));
    fireEvent.click(within(drawer).getByRole('switch', { name: '仅允许通过企业身份提供方登录' }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        {
          type: 'oidc',
          name: '集团统一身份',
          enabled: true,
          secret: 'client-secret-9',
          config: {
            issuer: 'https://idp.corp.example.com',
            clientId: 'portal',
            scopes: 'openid profile email',
            mapping: OIDC_DEFAULTS.mapping,
            domains: ['corp.example.com'],
            jit: true,
            groupIds: [21],
            enforce: true,
          },
        },
        { silent: true },
      ),
    );
    // Saved: the redirect URI to register at the provider, and 测试登录.
    const edit = await screen.findByRole('dialog', { name: '编辑认证源 集团统一身份' });
    const redirect = await within(edit).findByRole('region', { name: '重定向地址' });
    expect(within(redirect).getByText('https://portal.example.com/cas/login/federation/8/callback')).toBeTruthy();
    expect(within(redirect).getByText('https://portal.example.com/cas/login/federation/8/backchannel-logout')).toBeTruthy();
    expect(within(edit).getByLabelText<HTMLInputElement>('客户端密钥（Client Secret）').value).toBe('');
    // A saved domain waits for the platform's review before the login page routes it.
    const reviews = within(edit).getByRole('region', { name: '邮箱域名审核' });
    expect(within(reviews).getByText('corp.example.com')).toBeTruthy();
    expect(within(reviews).getByText('待审核')).toBeTruthy();

    // 测试登录: the popup goes to the server's signed link; its page hands the result back on the channel.
    fake.api!.routes[`POST ${API}/8/sign-in-test`] = [{ url: 'https://portal.example.com/cas/login/federation/8?test=t' }];
    const popup = { location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    fireEvent.click(within(edit).getByRole('button', { name: '测试登录' }));
    await waitFor(() => expect(popup.location.href).toBe('https://portal.example.com/cas/login/federation/8?test=t'));
    const channel = new BroadcastChannel('federation-test');
    // Another source's result is not this test's.
    channel.postMessage({ type: 'federation-test', sourceId: 9, ok: false, error: '别的认证源' });
    channel.postMessage({
      type: 'federation-test',
      sourceId: 8,
      ok: true,
      subject: 'sub-42',
      claims: { sub: 'sub-42', email_verified: true },
      mapped: { username: 'zhao_lei', name: '赵磊', email: 'zhaolei@corp.example.com', phone: '' },
    });
    expect(await within(edit).findByText('测试登录成功')).toBeTruthy();
    expect(within(edit).getByText('zhao_lei')).toBeTruthy();
    expect(within(edit).getByText('email_verified')).toBeTruthy();
    expect(within(edit).queryByText('别的认证源')).toBeNull();
    expect(popup.close).toHaveBeenCalled();
    channel.close();
    open.mockRestore();
  });

  it('a chat platform: its identifiers and secret; the callback address to copy once saved', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fake.api!.routes[`GET ${API}`] = [LDAP_ROW];
    fake.api!.routes[`GET ${API}/8`] = [{ ...WECOM_DETAIL, id: 8, enabled: true }];
    renderPage();
    await sourceRow('恒岳目录');
    const drawer = await openNew('企业微信');
    expect(within(drawer).getByText('保存后显示回调地址，再将它填入平台的应用配置')).toBeTruthy();
    expect(within(drawer).getByLabelText<HTMLInputElement>('名称').value).toBe('企业微信');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        AuthSourceMessage.corpIdRequired,
        AuthSourceMessage.agentIdRequired,
        AuthSourceMessage.secretRequired,
      ]),
    );
    type(drawer, '企业 ID', ' ww5f3c1a ');
    type(drawer, 'AgentId', '1000002');
    type(drawer, 'Secret', 'wecom-secret');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        { type: 'wecom', name: '企业微信', enabled: true, secret: 'wecom-secret', config: { corpId: 'ww5f3c1a', agentId: '1000002' } },
        { silent: true },
      ),
    );

    // Saved: the drawer stays open on the new source, with the address to enter in 企业微信's console.
    const edit = await screen.findByRole('dialog', { name: '编辑认证源 企业微信' });
    const callback = await within(edit).findByRole('region', { name: '回调地址' });
    expect(within(callback).getByText(CALLBACK)).toBeTruthy();
    expect(within(callback).getByText(/企业微信授权登录/)).toBeTruthy();
    expect(within(edit).getByLabelText<HTMLInputElement>('Secret').value).toBe('');
    fireEvent.click(within(callback).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CALLBACK));
  });
});
