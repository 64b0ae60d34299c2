import { OidcAppMessage, type SsoApplicationRow, SsoMessage, oidcEndpoints } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { SsoAppListPage } from '../components/sso-app-list-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/sso-app';
const ISSUER = 'https://portal.example.com/oidc';
const SECRET = 'bXktZmlyc3Qtc2VjcmV0LWZvci10ZXN0cy1vbmx5LWFiY2Q';

const INSPECTION: SsoApplicationRow = {
  id: 9,
  name: '恒岳移动巡检',
  icon: '',
  category: '设备运维',
  description: '',
  protocol: 'oidc',
  servicePrefixes: [],
  logoutUrl: '',
  attributes: [],
  status: 'enabled',
  allMembers: true,
  createdAt: '2026-11-20 09:30:00',
  platform: false,
  provider: '',
  oidc: {
    clientId: 'hengyue-inspection',
    clientType: 'confidential',
    redirectUris: ['http://localhost:8083/callback'],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: 'http://localhost:8083/backchannel',
    initiateLoginUri: '',
    scopes: ['openid', 'profile', 'groups'],
    accessTokenSeconds: 600,
    idTokenSeconds: 900,
    refreshTokenSeconds: 7 * 86_400,
  },
  integration: {
    loginUrl: 'https://portal.example.com/cas/login',
    validateUrl: 'https://portal.example.com/cas/p3/serviceValidate',
    logoutUrl: 'https://portal.example.com/cas/logout',
    casServerUrlPrefix: 'https://portal.example.com/cas',
    oidc: oidcEndpoints(ISSUER),
  },
};
const KIOSK: SsoApplicationRow = {
  ...INSPECTION,
  id: 10,
  name: '车间看板',
  oidc: { ...INSPECTION.oidc!, clientId: 'kiosk-spa', clientType: 'public', redirectUris: ['https://kiosk.hengyue.example/cb'] },
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/page/list`]: [{ rows: [INSPECTION, KIOSK], total: 2 }],
    [`POST ${API}`]: [{ id: 11, clientId: 'mes-portal', clientSecret: SECRET }],
    [`PUT ${API}/9`]: [],
    [`POST ${API}/9/reset-secret`]: [{ clientId: 'hengyue-inspection', clientSecret: 'c2Vjb25kLXNlY3JldC1mb3ItdGVzdHMtb25seS0xMjM0NTY' }],
  });
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const renderPage = () =>
  renderWithProviders(
    <MemoryRouter>
      <SsoAppListPage />
    </MemoryRouter>,
    { session: menusEntry(['app', 'app:list']) },
  );
const appRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const type = (root: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(root).getByLabelText(label), { target: { value } });
const actions = (row: HTMLElement) =>
  within(row)
    .getAllByRole('button')
    .map((b) => b.textContent?.replace(/\s/g, ''));

describe('应用列表: OpenID Connect applications', () => {
  it('shows the protocol and client id, offers 重置密钥 to confidential clients only, and 接入自检', async () => {
    renderPage();
    const inspection = await appRow('恒岳移动巡检');
    expect(within(inspection).getByText('OpenID Connect')).toBeTruthy();
    expect(within(inspection).getByText('客户端 ID：hengyue-inspection')).toBeTruthy();
    expect(within(inspection).getByText('回调：http://localhost:8083/callback')).toBeTruthy();
    expect(actions(inspection)).toEqual(['授权', '集成配置', '接入自检', '编辑', '重置密钥', '删除']);
    expect(actions(await appRow('车间看板'))).toEqual(['授权', '集成配置', '接入自检', '编辑', '删除']);
  });

  it('新增 with protocol OpenID Connect checks the fields with the shared rules, posts them and shows the secret once', async () => {
    renderPage();
    await appRow('恒岳移动巡检');
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    fireEvent.click(within(drawer).getByRole('radio', { name: 'OpenID Connect' }));
    // CAS fields give way to the client's.
    expect(await within(drawer).findByLabelText('回调地址 1')).toBeTruthy();
    expect(within(drawer).queryByLabelText('服务地址 1')).toBeNull();
    expect(within(drawer).getByRole('radio', { name: '机密' })).toHaveProperty('checked', true);
    // openid is always held; profile and email are offered by default; lifetimes start at their defaults.
    expect(within(drawer).getByRole('checkbox', { name: /openid/ })).toHaveProperty('disabled', true);
    expect(within(drawer).getByRole('checkbox', { name: /邮箱 email/ })).toHaveProperty('checked', true);
    expect(within(drawer).getByLabelText<HTMLInputElement>('访问令牌有效期').value).toBe('10');
    expect(within(drawer).getByLabelText<HTMLInputElement>('刷新令牌有效期').value).toBe('336');

    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SsoMessage.nameRequired]));
    expect(await within(drawer).findByText(OidcAppMessage.redirectRequired)).toBeTruthy();

    type(drawer, '名称', 'MES 门户');
    type(drawer, '客户端 ID', 'a b');
    type(drawer, '回调地址 1', 'http://mes.hengyue.example/callback');
    type(drawer, '后端登出地址', 'https://mes.hengyue.example/bc#x');
    type(drawer, '发起登录地址', 'http://mes.hengyue.example/login');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([
        OidcAppMessage.clientIdInvalid,
        OidcAppMessage.https('回调地址'),
        OidcAppMessage.fragment('后端登出地址'),
        OidcAppMessage.initiateLoginHttps,
      ]),
    );
    expect(fake.api!.post).not.toHaveBeenCalled();

    type(drawer, '客户端 ID', 'mes-portal');
    type(drawer, '回调地址 1', 'https://mes.hengyue.example/callback');
    fireEvent.click(button(drawer, '添加登出回调地址'));
    type(drawer, '登出回调地址 1', 'https://mes.hengyue.example/');
    type(drawer, '后端登出地址', 'https://mes.hengyue.example/backchannel');
    type(drawer, '发起登录地址', '');
    fireEvent.change(within(drawer).getByLabelText('访问令牌有效期'), { target: { value: '30' } });
    fireEvent.change(within(drawer).getByLabelText('刷新令牌有效期'), { target: { value: '24' } });
    fireEvent.click(within(drawer).getByRole('checkbox', { name: /角色 roles/ }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        {
          name: 'MES 门户',
          icon: '',
          category: '',
          description: '',
          status: 'enabled',
          protocol: 'oidc',
          servicePrefixes: [],
          logoutUrl: '',
          attributes: [],
          oidc: {
            clientId: 'mes-portal',
            clientType: 'confidential',
            redirectUris: ['https://mes.hengyue.example/callback'],
            postLogoutRedirectUris: ['https://mes.hengyue.example/'],
            backchannelLogoutUri: 'https://mes.hengyue.example/backchannel',
            initiateLoginUri: '',
            scopes: ['openid', 'profile', 'email', 'roles'],
            accessTokenSeconds: 1800,
            idTokenSeconds: 600,
            refreshTokenSeconds: 86_400,
          },
        },
        { silent: true },
      ),
    );
    // The secret, once, with a warning and a copy button.
    const shown = await screen.findByRole('dialog', { name: '客户端密钥：MES 门户' });
    expect(within(shown).getByText('密钥只显示这一次')).toBeTruthy();
    expect(within(shown).getByText('mes-portal')).toBeTruthy();
    expect(within(shown).getByText(SECRET)).toBeTruthy();
    expect(within(shown).getByRole('button', { name: '复制密钥' })).toBeTruthy();
    expect(button(shown, '我已保存')).toBeTruthy();
  });

  it('shows a client id the server refuses under the field', async () => {
    fake.api!.post.mockImplementationOnce(() => Promise.reject(new ApiError(OidcAppMessage.clientIdTaken, 1, 409)));
    renderPage();
    await appRow('恒岳移动巡检');
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    fireEvent.click(within(drawer).getByRole('radio', { name: 'OpenID Connect' }));
    await within(drawer).findByLabelText('回调地址 1');
    type(drawer, '名称', '巡检');
    type(drawer, '客户端 ID', 'hengyue-mes');
    type(drawer, '回调地址 1', 'https://mes.hengyue.example/callback');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([OidcAppMessage.clientIdTaken]));
    expect(notify.error).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: /客户端密钥/ })).toBeNull();
  });

  it('编辑 keeps protocol, client id and client type fixed and sends lifetimes in seconds', async () => {
    renderPage();
    fireEvent.click(button(await appRow('恒岳移动巡检'), '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑应用 恒岳移动巡检' });
    expect(within(drawer).getByRole('radio', { name: 'OpenID Connect' })).toHaveProperty('disabled', true);
    expect(within(drawer).getByLabelText<HTMLInputElement>('客户端 ID')).toHaveProperty('disabled', true);
    expect(within(drawer).getByRole('radio', { name: '公开' })).toHaveProperty('disabled', true);
    expect(within(drawer).getByLabelText<HTMLInputElement>('ID 令牌有效期').value).toBe('15');
    expect(within(drawer).getByLabelText<HTMLInputElement>('刷新令牌有效期').value).toBe('168');
    fireEvent.click(within(drawer).getByRole('checkbox', { name: /账号组 groups/ }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(
        `${API}/9`,
        expect.objectContaining({
          protocol: 'oidc',
          oidc: expect.objectContaining({
            clientId: 'hengyue-inspection',
            scopes: ['openid', 'profile'],
            idTokenSeconds: 900,
            refreshTokenSeconds: 7 * 86_400,
          }),
        }),
        { silent: true },
      ),
    );
  });

  it('重置密钥 asks first, then shows the new secret once and says the old one stopped working', async () => {
    renderPage();
    fireEvent.click(button(await appRow('恒岳移动巡检'), '重置密钥'));
    const confirm = await screen.findByRole('dialog', { name: '重置密钥' });
    expect(within(confirm).getByText(/旧密钥立即失效/)).toBeTruthy();
    fireEvent.click(button(confirm, '重置'));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${API}/9/reset-secret`));
    const shown = await screen.findByRole('dialog', { name: '客户端密钥：恒岳移动巡检' });
    expect(within(shown).getByText('c2Vjb25kLXNlY3JldC1mb3ItdGVzdHMtb25seS0xMjM0NTY')).toBeTruthy();
    expect(within(shown).getByText(/旧密钥已立即失效/)).toBeTruthy();
  });

  it('集成配置 shows the discovery address, the endpoints and sample configurations for the client', async () => {
    renderPage();
    fireEvent.click(button(await appRow('恒岳移动巡检'), '集成配置'));
    const panel = await screen.findByRole('dialog', { name: '集成配置：恒岳移动巡检' });
    const entry = (label: string) => within(panel).getByText(label, { selector: 'dt' }).closest('div')!;
    expect(within(entry('发现文档')).getByText(`${ISSUER}/.well-known/openid-configuration`)).toBeTruthy();
    expect(within(entry('Issuer')).getByText(ISSUER)).toBeTruthy();
    expect(within(entry('令牌端点')).getByText(`${ISSUER}/token`)).toBeTruthy();
    expect(within(entry('结束会话端点')).getByText(`${ISSUER}/session/end`)).toBeTruthy();
    expect(within(entry('客户端 ID')).getByText('hengyue-inspection')).toBeTruthy();
    expect(
      within(panel)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Java · Spring Security', 'Node.js · openid-client', 'Python · Authlib']);
    const yaml = within(panel).getByText(/issuer-uri:/).textContent ?? '';
    expect(yaml).toContain(`issuer-uri: ${ISSUER}`);
    expect(yaml).toContain('client-id: hengyue-inspection');
    expect(yaml).toContain('redirect-uri: "http://localhost:8083/callback"');
    expect(yaml).toContain('scope: openid,profile,groups');
    // Never a secret: the samples read it from the environment.
    expect(yaml).toContain('${PORTAL_CLIENT_SECRET}');
  });
});
