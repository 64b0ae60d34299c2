import { type AccountRow, type SsoApplicationRow, type SsoAppGrants, oidcEndpoints } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Modal } from 'antd';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { AppAuthorizationPage } from '../components/app-authorization-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const CONSOLE = '/web-api/console/v1';
const API = `${CONSOLE}/sso-app`;
const CAS = 'https://portal.example.com/cas';

const app = (over: Partial<SsoApplicationRow>): SsoApplicationRow => ({
  id: 5,
  name: '设备管理系统',
  icon: '',
  category: '生产管理',
  description: '',
  protocol: 'cas3',
  servicePrefixes: ['https://erp.hengyue.example/'],
  logoutUrl: '',
  attributes: ['name'],
  status: 'enabled',
  allMembers: false,
  createdAt: '2026-11-20 09:30:00',
  platform: false,
  provider: '',
  oidc: null,
  integration: {
    loginUrl: `${CAS}/login`,
    validateUrl: `${CAS}/p3/serviceValidate`,
    logoutUrl: `${CAS}/logout`,
    casServerUrlPrefix: CAS,
    oidc: oidcEndpoints('https://portal.example.com/oidc'),
  },
  ...over,
});
const ERP = app({});
const OA = app({ id: 6, name: '协同办公', category: '办公' });

const account = (id: number, username: string, name: string): AccountRow => ({
  id,
  username,
  name,
  phone: `138000000${id}`,
  email: '',
  groups: [],
  roles: [],
  state: 'active',
  lastLoginAt: '',
  createdAt: '2026-01-05 10:00:00',
  self: false,
});

const NOBODY: SsoAppGrants = { allMembers: false, groups: [], roles: [], accounts: [] };
const OA_GRANTS: SsoAppGrants = {
  allMembers: false,
  groups: [{ id: 12, name: '生产部' }],
  roles: [{ id: 7, name: '质检员' }],
  accounts: [{ id: 21, name: '李娜', username: 'lina' }],
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/page/list`]: [{ rows: [ERP, OA], total: 2 }],
    [`GET ${API}/5/grants`]: [NOBODY],
    [`GET ${API}/6/grants`]: [OA_GRANTS],
    [`PUT ${API}/5/grants`]: [],
    [`PUT ${API}/6/grants`]: [],
    [`GET ${CONSOLE}/org/options`]: [
      {
        groups: [
          { id: 11, name: '质量部' },
          { id: 12, name: '生产部' },
        ],
        roles: [
          { id: 1, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' },
          { id: 7, name: '质检员', code: 'ROLE_QUALITY' },
        ],
      },
    ],
    [`GET ${CONSOLE}/account/page/list`]: (_body, config) => {
      const keyword = (config?.params as { keyword?: string } | undefined)?.keyword ?? '';
      const all = [account(21, 'lina', '李娜'), account(22, 'wangqiang', '王强')];
      const rows = all.filter((a) => a.name.includes(keyword) || a.username.includes(keyword));
      return [{ rows, total: rows.length }];
    },
  });
  vi.mocked(notify.success).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const renderPage = () =>
  renderWithProviders(
    <MemoryRouter>
      <AppAuthorizationPage />
    </MemoryRouter>,
    { session: menusEntry(['app', 'app:authorization', 'org:account']) },
  );
const list = (title: string) => screen.getByRole('region', { name: `已授权的${title}` });
const saveButton = () => screen.getByRole('button', { name: /保\s*存/ });
const grantCalls = () => fake.api!.put.mock.calls.filter(([url]) => String(url).endsWith('/grants'));

describe('应用授权', () => {
  it('shows the first application with nobody authorized, adds a group and saves exactly that set', async () => {
    renderPage();
    const panel = await screen.findByRole('region', { name: '设备管理系统的授权' });
    expect(await within(panel).findByText('未授权任何人（默认无人可以登录该应用）')).toBeTruthy();
    expect(within(panel).getByRole('switch', { name: '企业全员' }).getAttribute('aria-checked')).toBe('false');
    expect(saveButton()).toHaveProperty('disabled', true);

    await chooseOption(screen.getByRole('combobox', { name: '添加账号组' }), '质量部');
    expect(await within(list('账号组')).findByText('质量部')).toBeTruthy();
    expect(screen.queryByText('未授权任何人（默认无人可以登录该应用）')).toBeNull();
    expect(saveButton()).toHaveProperty('disabled', false);

    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(grantCalls()).toEqual([[`${API}/5/grants`, { allMembers: false, groupIds: [11], roleIds: [], accountIds: [] }]]),
    );
    expect(notify.success).toHaveBeenCalled();
  });

  it('edits another application’s grants: 企业全员, a role removed, an account found by search', async () => {
    renderPage();
    await screen.findByRole('region', { name: '设备管理系统的授权' });
    await chooseOption(screen.getByRole('combobox', { name: '选择应用' }), '协同办公');
    const panel = await screen.findByRole('region', { name: '协同办公的授权' });
    expect(await within(panel).findByText('李娜（lina）')).toBeTruthy();
    expect(within(list('账号组')).getByText('生产部')).toBeTruthy();

    fireEvent.click(within(list('角色')).getByRole('button', { name: '移除角色：质检员' }));
    expect(within(list('角色')).getByText('未授权角色')).toBeTruthy();

    const accounts = screen.getByRole('combobox', { name: '添加账号' });
    fireEvent.mouseDown(accounts);
    fireEvent.change(accounts, { target: { value: '王' } });
    fireEvent.click(await screen.findByTitle('王强（wangqiang）'));
    expect(await within(list('账号')).findByText('王强（wangqiang）')).toBeTruthy();
    expect(fake.api!.get).toHaveBeenCalledWith(`${CONSOLE}/account/page/list`, { params: { offset: 0, limit: 20, keyword: '王' } });

    fireEvent.click(within(panel).getByRole('switch', { name: '企业全员' }));
    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(grantCalls()).toEqual([[`${API}/6/grants`, { allMembers: true, groupIds: [12], roleIds: [], accountIds: [21, 22] }]]),
    );
  });

  it('撤销修改 goes back to the saved set, and switching with changes asks first', async () => {
    renderPage();
    await screen.findByRole('region', { name: '设备管理系统的授权' });
    await chooseOption(await screen.findByRole('combobox', { name: '添加角色' }), '质检员');
    expect(await within(list('角色')).findByText('质检员')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /撤销修改/ }));
    expect(within(list('角色')).getByText('未授权角色')).toBeTruthy();

    await chooseOption(screen.getByRole('combobox', { name: '添加角色' }), '质检员');
    expect(await screen.findByText('有未保存的修改')).toBeTruthy();
    await chooseOption(screen.getByRole('combobox', { name: '选择应用' }), '协同办公');
    const confirm = await screen.findByRole('dialog', { name: '放弃未保存的修改？' });
    fireEvent.click(within(confirm).getByRole('button', { name: '放弃并切换' }));
    expect(await screen.findByRole('region', { name: '协同办公的授权' })).toBeTruthy();
    expect(grantCalls()).toEqual([]);
  });
});
