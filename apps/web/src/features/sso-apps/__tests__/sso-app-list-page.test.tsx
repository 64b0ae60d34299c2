import { type SelfTestResult, type SelfTestStep, SelfTestMessage, type SsoApplicationRow, SsoMessage, oidcEndpoints } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { AppAuthorizationPage } from '../components/app-authorization-page';
import { SsoAppListPage } from '../components/sso-app-list-page';
import { SERVICE_DUPLICATE_MESSAGE } from '../lib/sso-app-form';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/sso-app';
const CAS = 'https://portal.example.com/cas';

const ERP: SsoApplicationRow = {
  id: 5,
  name: '设备管理系统',
  icon: '/uploads/erp.png',
  category: '生产管理',
  description: '设备台账与点检',
  protocol: 'cas3',
  servicePrefixes: ['https://erp.hengyue.example/', 'http://localhost:3000/erp'],
  logoutUrl: 'https://erp.hengyue.example/logout',
  attributes: ['name', 'groups'],
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
};
const OA: SsoApplicationRow = {
  ...ERP,
  id: 6,
  name: '协同办公',
  icon: '',
  category: '',
  servicePrefixes: ['https://oa.hengyue.example/'],
  attributes: [],
  status: 'disabled',
};

/** A subscribed application of the application center: the platform maintains it. */
const REMOTE_OPS: SsoApplicationRow = {
  ...ERP,
  id: 8,
  name: '设备远程运维',
  category: '运维服务',
  servicePrefixes: ['https://ops.eplus-industry.example/'],
  logoutUrl: 'https://ops.eplus-industry.example/logout',
  attributes: ['name', 'enterpriseName'],
  platform: true,
  provider: '徐工信息',
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/page/list`]: [{ rows: [ERP, OA, REMOTE_OPS], total: 3 }],
    [`GET ${API}/8/grants`]: [{ allMembers: false, groups: [], roles: [], accounts: [] }],
    ['GET /web-api/console/v1/org/options']: [{ groups: [], roles: [] }],
    [`POST ${API}`]: [{ id: 7 }],
    [`PUT ${API}/5`]: [],
    [`DELETE ${API}/6`]: [],
  });
  vi.mocked(notify.error).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${API}/page/list`).map(([, config]) => config?.params);
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

describe('应用列表', () => {
  it('lists the applications with the columns of 应用列表 and searches from page 1', async () => {
    renderPage();
    const erp = await appRow('设备管理系统');
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '图标',
      '名称',
      '分类',
      '协议',
      '服务地址',
      '状态',
      '创建时间',
      '操作',
    ]);
    expect(within(erp).getByText('CAS 3.0')).toBeTruthy();
    expect(within(erp).getByText('https://erp.hengyue.example/')).toBeTruthy();
    expect(within(erp).getByText('http://localhost:3000/erp')).toBeTruthy();
    expect(within(erp).getByText('启用')).toBeTruthy();
    expect(erp.querySelector('img')?.getAttribute('src')).toBe('http://localhost:3000/files/uploads/erp.png');
    expect(within(await appRow('协同办公')).getByText('停用')).toBeTruthy();

    const keyword = screen.getByRole('textbox', { name: '搜索应用' });
    fireEvent.change(keyword, { target: { value: ' 设备 ' } });
    fireEvent.submit(keyword.closest('form')!);
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: '设备' }));
  });

  it('marks a platform application with its provider and offers only 授权, 集成配置 and 接入自检 on it', async () => {
    renderPage();
    const platform = await appRow('设备远程运维');
    expect(within(platform).getByText('平台应用')).toBeTruthy();
    expect(within(platform).getByText('徐工信息')).toBeTruthy();
    expect(
      within(platform)
        .getAllByRole('button')
        .map((b) => b.textContent?.replace(/\s/g, '')),
    ).toEqual(['授权', '集成配置', '接入自检']);
    // The enterprise's own applications keep 编辑 and 删除.
    const own = await appRow('设备管理系统');
    expect(within(own).queryByText('平台应用')).toBeNull();
    expect(
      within(own)
        .getAllByRole('button')
        .map((b) => b.textContent?.replace(/\s/g, '')),
    ).toEqual(['授权', '集成配置', '接入自检', '编辑', '删除']);
  });

  it('接入自检 from the row says first that 应用授权 does not admit the administrator, then runs for the chosen address', async () => {
    const reason = SelfTestMessage.notGranted('admin', '设备管理系统');
    fake.api!.routes[`GET ${API}/5/self-test`] = [{ applicationId: 5, username: 'admin', signInSkipped: reason }];
    const skipped = (key: SelfTestStep['key'], title: string): SelfTestStep => ({ key, title, status: 'skipped', detail: reason });
    fake.api!.routes[`POST ${API}/5/self-test`] = (body) => [
      {
        applicationId: 5,
        protocol: 'cas3',
        service: (body as { service: string }).service,
        username: 'admin',
        passed: true,
        steps: [
          { key: 'registered', title: '服务地址已登记', status: 'passed', detail: '已登记' },
          { key: 'reachable', title: '服务地址可访问', status: 'passed', detail: '返回 HTTP 200' },
          { key: 'logout', title: '注销地址可响应', status: 'passed', detail: '返回 HTTP 200' },
          skipped('signIn', '测试账号登录'),
          skipped('validate', '票据校验（/p3/serviceValidate）'),
          skipped('attributes', '属性释放'),
        ],
        attributes: {},
        ranAt: '2026-11-28 10:00:00',
      } satisfies SelfTestResult,
    ];
    renderPage();
    fireEvent.click(button(await appRow('设备管理系统'), '接入自检'));
    const dialog = await screen.findByRole('dialog', { name: '接入自检：设备管理系统' });
    // Before anything runs, the notice says the sign-in will be skipped and why.
    const notice = await within(dialog).findByText('本次自检将跳过测试登录');
    expect(notice.closest('[role="alert"]')?.textContent).toContain(reason);
    expect(fake.api!.post).not.toHaveBeenCalled();

    await chooseOption(within(dialog).getByRole('combobox', { name: '要检查的服务地址' }), 'http://localhost:3000/erp');
    fireEvent.click(button(dialog, '接入自检'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(`${API}/5/self-test`, { service: 'http://localhost:3000/erp' }, { silent: true }),
    );
    const steps = within(await within(dialog).findByRole('list', { name: '自检步骤' })).getAllByRole('listitem');
    expect(within(steps[3]!).getByRole('img', { name: '已跳过' })).toBeTruthy();
    expect(steps[3]!.textContent).toContain(reason);
  });

  it('shows a platform application’s 集成配置 as its read-only detail', async () => {
    renderPage();
    fireEvent.click(button(await appRow('设备远程运维'), '集成配置'));
    const panel = await screen.findByRole('dialog', { name: '集成配置：设备远程运维' });
    expect(within(panel).getByText('平台应用，由徐工信息提供并接入统一身份认证')).toBeTruthy();
    expect(within(panel).getByText(/由平台维护，企业不能修改/)).toBeTruthy();
    expect(within(panel).getByText('https://ops.eplus-industry.example/')).toBeTruthy();
    expect(within(panel).getByText('姓名 name、企业名称 enterpriseName')).toBeTruthy();
    expect(within(panel).queryByRole('textbox')).toBeNull();
  });

  it('授权 opens 应用授权 on that application', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={['/console/app/list']}>
        <Routes>
          <Route path="/console/app/list" element={<SsoAppListPage />} />
          <Route path="/console/app/authorization" element={<AppAuthorizationPage />} />
        </Routes>
      </MemoryRouter>,
      { session: menusEntry(['app', 'app:list', 'app:authorization']) },
    );
    fireEvent.click(button(await appRow('设备远程运维'), '授权'));
    expect(await screen.findByRole('region', { name: '设备远程运维的授权' })).toBeTruthy();
    await waitFor(() => expect(fake.api!.get).toHaveBeenCalledWith(`${API}/8/grants`));
  });

  it('删除 asks first, then deletes and reloads the list', async () => {
    renderPage();
    fireEvent.click(button(await appRow('协同办公'), '删除'));
    const confirm = await screen.findByRole('dialog', { name: '删除应用' });
    expect(within(confirm).getByText(/确定删除应用「协同办公」吗？/)).toBeTruthy();
    fireEvent.click(button(confirm, '删除'));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/6`));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });
});

describe('应用列表 新增 and 编辑', () => {
  it('checks the service addresses with the shared rule, then posts the body', async () => {
    renderPage();
    await appRow('设备管理系统');
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    // The protocol is CAS 3.0, the user's name is released and the application starts enabled.
    expect(within(drawer).getByText('CAS 3.0')).toBeTruthy();
    expect(within(drawer).getByRole('checkbox', { name: /姓名 name/ })).toHaveProperty('checked', true);
    expect(within(drawer).getByRole('radio', { name: '启用' })).toHaveProperty('checked', true);

    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SsoMessage.nameRequired, SsoMessage.serviceInvalid]));

    type(drawer, '名称', ' 质量追溯 ');
    type(drawer, '服务地址 1', 'http://qa.hengyue.example/');
    fireEvent.click(button(drawer, '添加服务地址'));
    type(drawer, '服务地址 2', 'https://*.hengyue.example/');
    type(drawer, '注销地址', '/logout');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fieldErrors(drawer)).toEqual([SsoMessage.serviceHttps, SsoMessage.serviceWildcard, SsoMessage.logoutUrlInvalid]),
    );

    // The same address twice is refused by the list's rule.
    type(drawer, '服务地址 1', 'https://qa.hengyue.example/');
    type(drawer, '服务地址 2', 'https://QA.hengyue.example/');
    type(drawer, '注销地址', '');
    fireEvent.click(button(drawer, '保存'));
    expect(await within(drawer).findByText(SERVICE_DUPLICATE_MESSAGE)).toBeTruthy();
    expect(fake.api!.post).not.toHaveBeenCalled();

    type(drawer, '服务地址 2', 'http://localhost:8080/qa');
    type(drawer, '分类', '质量管理');
    fireEvent.click(within(drawer).getByRole('checkbox', { name: /账号组 groups/ }));
    fireEvent.click(within(drawer).getByRole('radio', { name: '停用' }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        API,
        {
          name: '质量追溯',
          icon: '',
          category: '质量管理',
          description: '',
          protocol: 'cas3',
          servicePrefixes: ['https://qa.hengyue.example/', 'http://localhost:8080/qa'],
          logoutUrl: '',
          attributes: ['name', 'groups'],
          status: 'disabled',
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增应用' })).toBeNull());
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('offers at most MAX_SERVICE_PREFIXES addresses and never removes the last one', async () => {
    renderPage();
    await appRow('设备管理系统');
    fireEvent.click(screen.getByRole('button', { name: /新增应用/ }));
    const drawer = await screen.findByRole('dialog', { name: '新增应用' });
    expect(within(drawer).getByRole('button', { name: '删除服务地址 1' })).toHaveProperty('disabled', true);
    for (let i = 2; i <= 10; i += 1) fireEvent.click(button(drawer, '添加服务地址'));
    expect(within(drawer).getByLabelText('服务地址 10')).toBeTruthy();
    expect(button(drawer, '添加服务地址')).toHaveProperty('disabled', true);
  });

  it('编辑 starts from the row and shows a refusal of the server under the field it names', async () => {
    fake.api!.put.mockImplementationOnce(() => Promise.reject(new ApiError(SsoMessage.nameTaken, 1, 409)));
    renderPage();
    fireEvent.click(button(await appRow('设备管理系统'), '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑应用 设备管理系统' });
    expect(within(drawer).getByLabelText<HTMLInputElement>('服务地址 2').value).toBe('http://localhost:3000/erp');
    expect(within(drawer).getByRole('checkbox', { name: /账号组 groups/ })).toHaveProperty('checked', true);
    type(drawer, '名称', '协同办公');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SsoMessage.nameTaken]));
    expect(fake.api!.put).toHaveBeenCalledWith(
      `${API}/5`,
      expect.objectContaining({ name: '协同办公', servicePrefixes: ERP.servicePrefixes, attributes: ['name', 'groups'] }),
      { silent: true },
    );
    expect(notify.error).not.toHaveBeenCalled();
  });
});

describe('集成配置', () => {
  it('shows the CAS addresses of the application, each with a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage();
    fireEvent.click(button(await appRow('设备管理系统'), '集成配置'));
    const panel = await screen.findByRole('dialog', { name: '集成配置：设备管理系统' });
    const entry = (label: string) => within(panel).getByText(label).closest('div')!;
    expect(within(entry('登录地址')).getByText(`${CAS}/login`)).toBeTruthy();
    expect(within(entry('票据校验地址（CAS 3.0）')).getByText(`${CAS}/p3/serviceValidate`)).toBeTruthy();
    expect(within(entry('票据校验地址（CAS 2.0）')).getByText(`${CAS}/serviceValidate`)).toBeTruthy();
    expect(within(entry('票据校验地址（CAS 1.0）')).getByText(`${CAS}/validate`)).toBeTruthy();
    expect(within(entry('注销地址')).getByText(`${CAS}/logout`)).toBeTruthy();
    expect(within(entry('casServerUrlPrefix')).getByText(CAS)).toBeTruthy();
    expect(within(panel).getAllByRole('button', { name: '复制' })).toHaveLength(6);
    expect(within(entry('返回属性')).getByText('姓名 name、账号组 groups')).toBeTruthy();

    fireEvent.click(within(entry('登录地址')).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${CAS}/login`));
    fireEvent.click(within(entry('casServerUrlPrefix')).getByRole('button', { name: '复制' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(CAS));
  });
});
