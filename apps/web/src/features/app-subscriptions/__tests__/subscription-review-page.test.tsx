import { type AppSubscriptionRow, SUBSCRIPTION_NOTE_MAX, SubscriptionMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider, Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { SubscriptionReviewPage } from '../components/subscription-review-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/app-subscription';

const PENDING: AppSubscriptionRow = {
  id: 31,
  enterpriseId: 1,
  enterpriseName: '徐州恒岳重工机械有限公司',
  applicationUuid: 'app-remote-ops',
  applicationName: '设备远程运维',
  status: 'pending',
  purpose: '售后服务部远程诊断客户设备，约 20 人使用',
  decisionNote: '',
  applicantName: '张伟',
  applicantUsername: 'admin',
  createdAt: '2026-11-20 09:30:00',
  decidedAt: '',
};
const APPROVED: AppSubscriptionRow = {
  ...PENDING,
  id: 30,
  applicationUuid: 'app-energy',
  applicationName: '能耗分析',
  status: 'approved',
  purpose: '',
  createdAt: '2026-11-18 10:00:00',
  decidedAt: '2026-11-19 15:00:00',
};
const REJECTED: AppSubscriptionRow = {
  ...PENDING,
  id: 29,
  enterpriseName: '常州瑞驰液压科技有限公司',
  applicantName: '',
  applicantUsername: '',
  status: 'rejected',
  decisionNote: '请补充使用部门与人数',
  decidedAt: '2026-11-19 16:00:00',
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/page/list`]: (_body, config) => {
      const status = (config?.params as { status?: string } | undefined)?.status;
      const rows = [PENDING, APPROVED, REJECTED].filter((r) => !status || r.status === status);
      return [{ rows, total: rows.length }];
    },
    [`PUT ${BASE}/31/approve`]: [],
    [`PUT ${BASE}/31/reject`]: [],
    [`PUT ${BASE}/30/revoke`]: [],
  });
  vi.mocked(notify.success).mockClear();
});
afterEach(async () => {
  Modal.destroyAll();
  await new Promise((resolve) => setTimeout(resolve, 50));
});

// happy-dom never ends a CSS transition: without motion, a closed dialog leaves the page as it does in a browser.
const renderPage = () =>
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <SubscriptionReviewPage />
    </ConfigProvider>,
    { session: menusEntry(['app', 'app:subscription'], { enterpriseName: 'Engineering e+ 平台运营中心' }) },
  );
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/page/list`).map(([, config]) => config?.params);
const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });
const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const showAll = async () => {
  await chooseOption(screen.getByRole('combobox', { name: '状态' }), '全部状态');
  fireEvent.click(button(document.body, '查询'));
  await row('能耗分析');
};

describe('应用订阅', () => {
  it('opens on the 待审核 requests with the columns of the queue, and filters by status and keyword', async () => {
    renderPage();
    const pending = await row('设备远程运维');
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20, status: 'pending' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '企业',
      '应用',
      '申请说明',
      '申请人',
      '申请时间',
      '状态',
      '处理时间',
      '操作',
    ]);
    expect(within(pending).getByText('徐州恒岳重工机械有限公司')).toBeTruthy();
    expect(within(pending).getByRole('link', { name: '设备远程运维' }).getAttribute('href')).toBe(
      '/product/center/detail?uuid=app-remote-ops',
    );
    expect(within(pending).getByText('售后服务部远程诊断客户设备，约 20 人使用')).toBeTruthy();
    expect(within(pending).getByText('张伟（admin）')).toBeTruthy();
    expect(within(pending).getByText('待审核')).toBeTruthy();
    expect(screen.queryByRole('row', { name: /能耗分析/ })).toBeNull();

    await showAll();
    expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20 });
    const rejected = await row('常州瑞驰');
    expect(within(rejected).getByText('已驳回')).toBeTruthy();
    expect(within(rejected).getByText('原因：请补充使用部门与人数')).toBeTruthy();
    // A decided request offers nothing more; an approved one can be revoked.
    expect(within(rejected).queryAllByRole('button')).toEqual([]);
    expect(button(await row('能耗分析'), '撤销')).toBeTruthy();

    const keyword = screen.getByRole('textbox', { name: '企业或应用名称' });
    fireEvent.change(keyword, { target: { value: ' 恒岳 ' } });
    fireEvent.submit(keyword.closest('form')!);
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: '恒岳' }));
  });

  it('通过 asks first, then approves and reloads the queue', async () => {
    renderPage();
    fireEvent.click(button(await row('设备远程运维'), '通过'));
    expect(fake.api!.put).not.toHaveBeenCalled();
    const confirm = await screen.findByRole('dialog', { name: '通过申请' });
    expect(within(confirm).getByText(/确定通过「徐州恒岳重工机械有限公司」对「设备远程运维」的使用申请吗？/)).toBeTruthy();
    fireEvent.click(button(confirm, '通过'));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/31/approve`));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    expect(notify.success).toHaveBeenCalledWith('操作成功');
  });

  it('驳回 needs a reason within SUBSCRIPTION_NOTE_MAX characters, then sends it trimmed', async () => {
    renderPage();
    fireEvent.click(button(await row('设备远程运维'), '驳回'));
    const dialog = await screen.findByRole('dialog', { name: '驳回申请' });
    fireEvent.click(button(dialog, '驳回'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SubscriptionMessage.rejectNoteRequired]));

    const note = within(dialog).getByLabelText('驳回原因');
    fireEvent.change(note, { target: { value: '   ' } });
    fireEvent.click(button(dialog, '驳回'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SubscriptionMessage.rejectNoteRequired]));
    fireEvent.change(note, { target: { value: '因'.repeat(SUBSCRIPTION_NOTE_MAX + 1) } });
    fireEvent.click(button(dialog, '驳回'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SubscriptionMessage.noteTooLong]));
    expect(fake.api!.put).not.toHaveBeenCalled();

    fireEvent.change(note, { target: { value: ' 请补充使用部门与人数 ' } });
    fireEvent.click(button(dialog, '驳回'));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/31/reject`, { note: '请补充使用部门与人数' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '驳回申请' })).toBeNull());
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it('撤销 of an approved subscription needs a reason too', async () => {
    renderPage();
    await showAll();
    fireEvent.click(button(await row('能耗分析'), '撤销'));
    const dialog = await screen.findByRole('dialog', { name: '撤销订阅' });
    expect(within(dialog).getByText(/该应用将从企业的应用列表中移除/)).toBeTruthy();
    fireEvent.click(button(dialog, '撤销'));
    await waitFor(() => expect(fieldErrors(dialog)).toEqual([SubscriptionMessage.revokeNoteRequired]));
    expect(fake.api!.put).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('撤销原因'), { target: { value: '合同到期' } });
    fireEvent.click(button(dialog, '撤销'));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/30/revoke`, { note: '合同到期' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '撤销订阅' })).toBeNull());
  });
});
