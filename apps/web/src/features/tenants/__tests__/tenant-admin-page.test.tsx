import { EnterpriseMessage, type TenantRow, type TenantSourceActivity, creditCodeCheckChar } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { TenantAdminPage } from '../components/tenant-admin-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/tenant';
const HENGYUE: TenantRow = {
  id: 1,
  name: '徐州恒岳重工机械有限公司',
  certificationStatus: 'certified',
  status: 'active',
  accountCount: 7,
  admins: ['张伟', '王芳'],
  createdAt: '2026-01-10 08:00:00',
};
const RUICHI: TenantRow = {
  id: 2,
  name: '常州瑞驰液压科技有限公司',
  certificationStatus: 'pending',
  status: 'disabled',
  accountCount: 2,
  admins: [],
  createdAt: '2026-02-11 08:00:00',
};
const OPERATIONS: TenantRow = { ...HENGYUE, id: 3, name: 'Engineering e+ 平台运营中心', accountCount: 1, admins: [] };

const HENGYUE_SOURCES: TenantSourceActivity[] = [
  {
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
      status: 'failed',
      trigger: 'schedule',
      counts: { create: 0, update: 0, disable: 0, move: 0, failed: 0 },
      error: '无法连接到 10.0.0.8:389（连接被拒绝，该端口没有服务在监听）',
      operator: '',
      createdAt: '2026-11-23 02:00:00',
      finishedAt: '2026-11-23 02:00:03',
    },
    updatedAt: '2026-11-20 09:30:00',
    lastSignInAt: '2026-11-28 08:59:12',
    domainReviews: [],
  },
  {
    id: 4,
    type: 'dingtalk',
    name: '钉钉',
    enabled: false,
    endpoint: 'dingabc',
    linkedAccounts: 0,
    lastSync: null,
    updatedAt: '2026-11-21 10:00:00',
    lastSignInAt: '',
    domainReviews: [],
  },
  {
    id: 5,
    type: 'oidc',
    name: '恒岳统一身份',
    enabled: true,
    endpoint: 'https://idp.hengyue.example',
    linkedAccounts: 0,
    lastSync: null,
    updatedAt: '2026-11-22 10:00:00',
    lastSignInAt: '',
    domainReviews: [
      { domain: 'hengyue-hi.cn', status: 'approved' },
      { domain: 'hengyue-group.cn', status: 'pending' },
    ],
  },
];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/page/list`]: [{ rows: [HENGYUE, RUICHI, OPERATIONS], total: 3 }],
    ['GET /web-api/console/v1/tenants/1/integrations']: [
      {
        sources: HENGYUE_SOURCES,
        scimClients: [
          {
            id: 2,
            name: '北森 HR',
            hint: 'scim_Ab12Cd…',
            createdBy: 'admin',
            createdAt: '2026-11-20 09:30:00',
            lastUsedAt: '2026-11-28 22:15:04',
            lastUsedIp: '203.0.113.7',
            lastChange: '停用账号 wangfang 王芳',
            lastChangeAt: '2026-11-28 22:14:58',
          },
          {
            id: 3,
            name: '飞书 HR',
            hint: 'scim_Zz98Yx…',
            createdBy: 'admin',
            createdAt: '2026-11-27 10:00:00',
            lastUsedAt: '',
            lastUsedIp: '',
            lastChange: '',
            lastChangeAt: '',
          },
        ],
      },
    ],
    ['GET /web-api/console/v1/tenants/2/integrations']: [{ sources: [], scimClients: [] }],
    ['GET /web-api/console/v1/tenants/1/ip-rules']: [{ rules: ['10.0.0.0/8', '203.0.113.7'] }],
    ['GET /web-api/console/v1/tenants/2/ip-rules']: [{ rules: [] }],
    ['DELETE /web-api/console/v1/tenants/1/ip-rules']: [],
    ['PUT /web-api/console/v1/tenants/1/federation-domains/hengyue-group.cn']: [],
    ['PUT /web-api/console/v1/tenants/1/federation-domains/hengyue-hi.cn']: [],
    [`PUT ${BASE}/1/status`]: [],
    [`PUT ${BASE}/2/status`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const operator = menusEntry(['tenant'], { enterpriseId: 3, enterpriseName: 'Engineering e+ 平台运营中心' });
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/page/list`).map(([, config]) => config?.params);
const tenantRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });

describe('租户管理', () => {
  it('lists the enterprises with certification, state, accounts, administrators and creation time', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    const row = await tenantRow('徐州恒岳');
    for (const text of ['已认证', '正常', '7', '张伟、王芳', '2026-01-10 08:00:00']) expect(within(row).getByText(text)).toBeTruthy();
    const ruichi = await tenantRow('常州瑞驰');
    expect(within(ruichi).getByText('待审核')).toBeTruthy();
    expect(within(ruichi).getByText('停用')).toBeTruthy();
    for (const header of ['名称', '认证状态', '状态', '账号数', '管理员', '创建时间'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
  });

  it('searches by name and filters by state and certification from page 1', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    await tenantRow('徐州恒岳');
    fireEvent.change(screen.getByPlaceholderText('企业名称'), { target: { value: ' 恒岳 ' } });
    await chooseOption(screen.getByRole('combobox', { name: '状态' }), '停用');
    await chooseOption(screen.getByRole('combobox', { name: '认证状态' }), '已认证');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: '恒岳', status: 'disabled', certificationStatus: 'certified' }),
    );
  });

  it('停用 asks for confirmation, saying all its accounts are signed out, then calls the API', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /停\s*用/ }));
    const confirm = await screen.findByRole('dialog', { name: '停用企业' });
    expect(within(confirm).getByText(/全部账号（7 个）将立即退出登录，且无法再登录/)).toBeTruthy();
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /停\s*用/ }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/1/status`, { status: 'disabled' }));
  });

  it('a cancelled 停用 calls nothing; 启用 re-enables a disabled enterprise', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /停\s*用/ }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: '停用企业' })).getByRole('button', { name: /取\s*消/ }));
    expect(fake.api!.put).not.toHaveBeenCalled();

    fireEvent.click(within(await tenantRow('常州瑞驰')).getByRole('button', { name: /启\s*用/ }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: '启用企业' })).getByRole('button', { name: /启\s*用/ }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/2/status`, { status: 'active' }));
  });

  it('offers no 停用 on the operator’s own enterprise', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    const own = await tenantRow('平台运营中心');
    expect(within(own).queryByRole('button', { name: /停\s*用/ })).toBeNull();
    expect(within(own).getByText('本企业')).toBeTruthy();
  });

  it('详情 shows the enterprise with its authentication sources and their latest sync', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /详\s*情/ }));
    const drawer = await screen.findByRole('dialog', { name: '企业详情：徐州恒岳重工机械有限公司' });
    const sources = within(drawer).getByRole('region', { name: '认证源' });
    const ldap = await within(sources).findByRole('row', { name: /恒岳目录/ });
    for (const text of [
      'LDAP / AD',
      '启用',
      '2026-11-28 08:59:12',
      '失败',
      '2026-11-23 02:00:03',
      '无法连接到 10.0.0.8:389（连接被拒绝，该端口没有服务在监听）',
    ])
      expect(within(ldap).getByText(text)).toBeTruthy();
    const dingtalk = within(sources).getByRole('row', { name: /钉钉/ });
    for (const text of ['停用', '从未登录', '从未同步']) expect(within(dingtalk).getByText(text)).toBeTruthy();
    expect(
      within(sources)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['类型', '名称', '状态', '最近登录', '最近同步结果']);

    fireEvent.click(within(drawer).getByRole('button', { name: '关闭' }));
    fireEvent.click(within(await tenantRow('常州瑞驰')).getByRole('button', { name: /详\s*情/ }));
    const other = await screen.findByRole('dialog', { name: '企业详情：常州瑞驰液压科技有限公司' });
    expect(await within(other).findByText('未配置认证源')).toBeTruthy();
  });
  it('详情 lists the email domains the enterprise’s providers claim; operators approve or refuse each', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /详\s*情/ }));
    const drawer = await screen.findByRole('dialog', { name: '企业详情：徐州恒岳重工机械有限公司' });
    const domains = await within(drawer).findByRole('region', { name: '企业邮箱域名' });
    const pending = within(domains).getByRole('listitem', { name: 'hengyue-group.cn' });
    for (const text of ['恒岳统一身份', '待审核']) expect(within(pending).getByText(text)).toBeTruthy();
    const approved = within(domains).getByRole('listitem', { name: 'hengyue-hi.cn' });
    expect(within(approved).getByText('已批准')).toBeTruthy();
    expect(within(approved).queryByRole('button', { name: /批\s*准/ })).toBeNull();
    fireEvent.click(within(pending).getByRole('button', { name: /批\s*准/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/tenants/1/federation-domains/hengyue-group.cn', { approve: true }),
    );
    fireEvent.click(within(approved).getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/tenants/1/federation-domains/hengyue-hi.cn', { approve: false }),
    );
  });

  it('详情 shows the enterprise’s SCIM clients with their last activity', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /详\s*情/ }));
    const drawer = await screen.findByRole('dialog', { name: '企业详情：徐州恒岳重工机械有限公司' });
    const scim = within(drawer).getByRole('region', { name: 'SCIM 客户端' });
    const hr = await within(scim).findByRole('row', { name: /北森 HR/ });
    for (const text of ['scim_Ab12Cd…', '2026-11-28 22:15:04', '203.0.113.7', '停用账号 wangfang 王芳', '2026-11-28 22:14:58'])
      expect(within(hr).getByText(text)).toBeTruthy();
    const unused = within(scim).getByRole('row', { name: /飞书 HR/ });
    for (const text of ['从未使用', '暂无变更']) expect(within(unused).getByText(text)).toBeTruthy();
    expect(
      within(scim)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['名称', '令牌', '最近活动', '最近变更']);
    // Sources and SCIM clients come from one operator read.
    const reads = fake.api!.get.mock.calls.map(([url]) => url).filter((url) => url.startsWith('/web-api/console/v1/tenants/1/'));
    expect(reads.filter((url) => url !== '/web-api/console/v1/tenants/1/ip-rules')).toEqual(['/web-api/console/v1/tenants/1/integrations']);
    fireEvent.click(within(drawer).getByRole('button', { name: '关闭' }));
    fireEvent.click(within(await tenantRow('常州瑞驰')).getByRole('button', { name: /详\s*情/ }));
    const other = await screen.findByRole('dialog', { name: '企业详情：常州瑞驰液压科技有限公司' });
    expect(await within(other).findByText('未接入 SCIM 客户端')).toBeTruthy();
  });

  it('详情 shows the enterprise’s 控制台访问 list, and 清除限制 lifts it after confirming', async () => {
    renderWithProviders(<TenantAdminPage />, { session: operator });
    fireEvent.click(within(await tenantRow('徐州恒岳')).getByRole('button', { name: /详\s*情/ }));
    const drawer = await screen.findByRole('dialog', { name: '企业详情：徐州恒岳重工机械有限公司' });
    const access = within(drawer).getByRole('region', { name: '控制台访问' });
    expect(await within(access).findByText('10.0.0.0/8')).toBeTruthy();
    expect(within(access).getByText('203.0.113.7')).toBeTruthy();

    fireEvent.click(within(access).getByRole('button', { name: /清除限制/ }));
    const confirm = await screen.findByRole('dialog', { name: '清除控制台访问限制' });
    expect(within(confirm).getByText(/该企业的操作日志将记录此操作/)).toBeTruthy();
    expect(fake.api!.delete).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /清\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith('/web-api/console/v1/tenants/1/ip-rules'));

    fireEvent.click(within(drawer).getByRole('button', { name: '关闭' }));
    fireEvent.click(within(await tenantRow('常州瑞驰')).getByRole('button', { name: /详\s*情/ }));
    const other = await screen.findByRole('dialog', { name: '企业详情：常州瑞驰液压科技有限公司' });
    const none = within(other).getByRole('region', { name: '控制台访问' });
    expect(await within(none).findByText('不限制访问地址')).toBeTruthy();
    expect(within(none).queryByRole('button', { name: /清除限制/ })).toBeNull();
  });

  it('新建企业 checks the credit code before sending, shows a taken name under its field, then creates', async () => {
    const code = `91320200MA1NEW001${creditCodeCheckChar('91320200MA1NEW001')}`;
    let refuse = true;
    vi.mocked(notify.error).mockClear();
    fake.api!.routes[`POST ${BASE}`] = () => {
      if (refuse) throw new ApiError(EnterpriseMessage.nameTaken, 1, 409);
      return [{ id: 9 }];
    };
    renderWithProviders(<TenantAdminPage />, { session: operator });
    await tenantRow('徐州恒岳');
    fireEvent.click(screen.getByRole('button', { name: /新建企业/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建企业' });
    const type = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    type('企业名称', '徐州恒岳重工机械有限公司');
    type('统一社会信用代码', `${code.slice(0, 17)}${code.endsWith('0') ? '1' : '0'}`);
    type('管理员姓名', '赵新');
    type('管理员账号', 'zhaoxin');
    type('管理员手机号', '13900000801');
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    await waitFor(() => expect(fieldErrors(dialog)).toContain(EnterpriseMessage.creditCodeCheck));
    expect(fake.api!.post).not.toHaveBeenCalled();

    type('统一社会信用代码', code);
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    await waitFor(() => expect(fieldErrors(dialog)).toContain(EnterpriseMessage.nameTaken));
    expect(notify.error).not.toHaveBeenCalled();

    refuse = false;
    const reads = listCalls().length;
    type('企业名称', ' 无锡新建精工科技有限公司 ');
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(2));
    expect(fake.api!.post).toHaveBeenLastCalledWith(
      BASE,
      { name: '无锡新建精工科技有限公司', creditCode: code, adminName: '赵新', adminUsername: 'zhaoxin', adminPhone: '13900000801' },
      { silent: true },
    );
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('操作成功'));
    // The list is read again with the new enterprise.
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(reads));
  });
});
