import { type ApplicationDetail, type MyAppSubscription, SUBSCRIPTION_PURPOSE_MAX, SubscriptionMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { ApplicationDetailPage } from '../components/application-pages';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const UUID = 'app-remote-ops';
const SUBSCRIPTION = `/web-api/portal/v1/applications/${UUID}/subscription`;
const ADMIN = ['app', 'app:list', 'app:authorization', 'enterprise', 'enterprise:manage'];

const DETAIL: ApplicationDetail = {
  applicationUuid: UUID,
  name: '设备远程运维',
  applicationDescription: '远程诊断与维护',
  imagePath: '/demo/app-1.svg',
  iconPath: '',
  category: '运维服务',
  provider: '徐工信息',
  content: '<p>远程诊断工程机械故障。</p>',
};
const NONE: MyAppSubscription = { status: 'none', decisionNote: '', canApply: true, blockedReason: '', createdAt: '', decidedAt: '' };

function renderDetail(subscription: MyAppSubscription | null, authorities: readonly string[] = ADMIN, user = {}) {
  fake.api = createFakeApi({
    'GET /open-api/app/v1/dtl': [DETAIL],
    [`GET ${SUBSCRIPTION}`]: subscription ? [subscription] : [],
    [`POST ${SUBSCRIPTION}`]: [],
  });
  return renderWithProviders(
    // happy-dom never ends a CSS transition: without motion, a closed dialog leaves the page as it does in a browser.
    <ConfigProvider theme={{ token: { motion: false } }}>
      <MemoryRouter initialEntries={[`/product/center/detail?uuid=${UUID}`]}>
        <ApplicationDetailPage />
      </MemoryRouter>
    </ConfigProvider>,
    { session: subscription ? menusEntry(authorities, user) : null },
  );
}

const panel = () => screen.findByRole('region', { name: '申请使用' });
const subscriptionCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === SUBSCRIPTION);

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(notify.success).mockClear();
  vi.mocked(notify.error).mockClear();
});
afterEach(async () => {
  Modal.destroyAll();
  // The dialogs unmount on React's scheduler: let it finish before the test environment goes away.
  await new Promise((resolve) => setTimeout(resolve, 50));
});

describe('应用详情: 申请使用', () => {
  it('offers a visitor the central login, coming back to this detail, and asks nothing about subscriptions', async () => {
    renderDetail(null);
    const login = within(await panel()).getByRole('link', { name: '登录后申请' });
    expect(login.getAttribute('href')).toBe(
      `http://localhost:3000/web/portal/cas/login?target=${encodeURIComponent(`/product/center/detail?uuid=${UUID}`)}`,
    );
    expect(subscriptionCalls()).toEqual([]);
  });

  it('shows the provider once, beside the category', async () => {
    renderDetail(null);
    await screen.findByRole('heading', { name: '设备远程运维' });
    expect(screen.getAllByText(/徐工信息/)).toHaveLength(1);
    expect(screen.getByText('提供方：徐工信息')).toBeTruthy();
  });

  it('申请使用 sends the 申请说明, refusing one over SUBSCRIPTION_PURPOSE_MAX characters first', async () => {
    renderDetail(NONE);
    fireEvent.click(within(await panel()).getByRole('button', { name: '申请使用' }));
    const dialog = await screen.findByRole('dialog', { name: '申请使用「设备远程运维」' });
    const purpose = within(dialog).getByLabelText('申请说明');

    fireEvent.change(purpose, { target: { value: '用'.repeat(SUBSCRIPTION_PURPOSE_MAX + 1) } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交申请' }));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SubscriptionMessage.purposeTooLong]));
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(purpose, { target: { value: ' 售后服务部远程诊断客户设备，约 20 人使用 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交申请' }));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(SUBSCRIPTION, { purpose: '售后服务部远程诊断客户设备，约 20 人使用' }, { silent: true }),
    );
    expect(notify.success).toHaveBeenCalledWith('操作成功');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '申请使用「设备远程运维」' })).toBeNull());
    // The detail asks again and shows the request as the server has it now.
    await waitFor(() => expect(subscriptionCalls()).toHaveLength(2));
  });

  it('shows a refusal of the server in its Chinese words, and the dialog stays open', async () => {
    renderDetail(NONE);
    fake.api!.post.mockImplementationOnce(() => Promise.reject(new ApiError('应用已下架，不能申请使用', 1, 400)));
    fireEvent.click(within(await panel()).getByRole('button', { name: '申请使用' }));
    const dialog = await screen.findByRole('dialog', { name: '申请使用「设备远程运维」' });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交申请' }));
    expect(await within(dialog).findByText('应用已下架，不能申请使用')).toBeTruthy();
    expect(fake.api!.post).toHaveBeenCalledWith(SUBSCRIPTION, { purpose: '' }, { silent: true });
  });

  it('shows a request waiting for the operator as 待审核, disabled, with its date', async () => {
    renderDetail({
      ...NONE,
      status: 'pending',
      canApply: false,
      blockedReason: '本企业已申请使用该应用，请等待平台审核',
      createdAt: '2026-11-20 09:30:00',
    });
    const region = await panel();
    const waiting = within(region).getByRole('button', { name: '待审核' });
    expect(waiting).toHaveProperty('disabled', true);
    expect(within(region).getByText(/已于 2026-11-20 提交申请/)).toBeTruthy();
    expect(within(region).queryByRole('button', { name: '申请使用' })).toBeNull();
  });

  it('shows 已订阅 and leads an administrator to 应用授权 and 应用列表 in the console', async () => {
    renderDetail({ ...NONE, status: 'approved', canApply: false, createdAt: '2026-11-18 10:00:00', decidedAt: '2026-11-19 15:00:00' });
    const region = await panel();
    expect(within(region).getByText('已订阅')).toBeTruthy();
    expect(within(region).getByText(/已于 2026-11-19 订阅此应用/)).toBeTruthy();
    expect(within(region).getByRole('link', { name: '前往应用授权' }).getAttribute('href')).toBe(
      'http://localhost:3000/console/app/authorization',
    );
    expect(within(region).getByRole('link', { name: '查看应用列表' }).getAttribute('href')).toBe('http://localhost:3000/console/app/list');
  });

  it('tells a member of a subscribed enterprise to ask an administrator, without console links', async () => {
    renderDetail({ ...NONE, status: 'approved', canApply: false, decidedAt: '2026-11-19 15:00:00' }, ['enterprise']);
    const region = await panel();
    expect(within(region).getByText('已订阅')).toBeTruthy();
    expect(within(region).getByText(/请联系企业管理员为您授权/)).toBeTruthy();
    expect(within(region).queryByRole('link', { name: '前往应用授权' })).toBeNull();
  });

  it('shows the operator’s note of a rejection and lets the administrator apply again', async () => {
    renderDetail({
      ...NONE,
      status: 'rejected',
      decisionNote: '请补充使用部门与人数',
      createdAt: '2026-11-18 10:00:00',
      decidedAt: '2026-11-19 15:00:00',
    });
    const region = await panel();
    expect(within(region).getByText('已驳回')).toBeTruthy();
    expect(within(region).getByText('原因：请补充使用部门与人数')).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: '重新申请' }));
    expect(await screen.findByRole('dialog', { name: '申请使用「设备远程运维」' })).toBeTruthy();
  });

  it('shows a revocation with its note; who may not apply sees why instead of 重新申请', async () => {
    renderDetail(
      {
        ...NONE,
        status: 'revoked',
        decisionNote: '合同到期',
        canApply: false,
        blockedReason: '仅企业管理员可以申请使用应用',
        decidedAt: '2026-11-19 15:00:00',
      },
      ['enterprise'],
    );
    const region = await panel();
    expect(within(region).getByText('已撤销')).toBeTruthy();
    expect(within(region).getByText('原因：合同到期')).toBeTruthy();
    expect(within(region).getByText('仅企业管理员可以申请使用应用')).toBeTruthy();
    expect(within(region).getByRole('button', { name: '重新申请' })).toHaveProperty('disabled', true);
  });

  it('tells a member who is not an administrator why they cannot apply', async () => {
    renderDetail({ ...NONE, canApply: false, blockedReason: '仅企业管理员可以申请使用应用' }, ['enterprise']);
    const region = await panel();
    expect(within(region).getByText('仅企业管理员可以申请使用应用')).toBeTruthy();
    expect(within(region).getByRole('button', { name: '申请使用' })).toHaveProperty('disabled', true);
    expect(within(region).queryByRole('link', { name: '前往企业认证' })).toBeNull();
  });

  it('sends the administrator of an uncertified enterprise to 企业认证 in the console', async () => {
    renderDetail({ ...NONE, canApply: false, blockedReason: '企业尚未通过认证，认证通过后可申请使用应用' }, ADMIN, {
      certificationStatus: 'none',
    });
    const region = await panel();
    expect(within(region).getByText('企业尚未通过认证，认证通过后可申请使用应用')).toBeTruthy();
    expect(within(region).getByRole('link', { name: '前往企业认证' }).getAttribute('href')).toBe(
      'http://localhost:3000/console/enterprise?tab=certification',
    );
  });
});
