import type { LogoutDeliveryRow, SessionRow } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { SessionPage } from '../components/session-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/session';
const STAFF: SessionRow = {
  id: 's-7f3a',
  username: 'staff',
  name: '李娜',
  ip: '10.1.2.3',
  browser: 'Chrome 131',
  os: 'Windows 10',
  loginAt: '2026-11-20 08:30:00',
  lastActiveAt: '2026-11-20 10:05:12',
  applications: ['门户', 'MES 生产执行'],
  current: false,
};
const OWN: SessionRow = {
  ...STAFF,
  id: 's-own',
  username: 'admin',
  name: '张伟',
  ip: '10.1.9.9',
  browser: 'Firefox 133',
  os: 'macOS',
  applications: ['门户'],
  current: true,
};

const DELIVERED: LogoutDeliveryRow = {
  id: 3,
  sessionId: '12.abc',
  username: 'wangfang',
  applicationName: 'MES 生产执行',
  protocol: 'cas3',
  target: 'https://mes.hengyue-hi.cn/logout',
  state: 'delivered',
  reason: '',
  attempts: 1,
  nextAt: '',
  createdAt: '2026-11-20 09:00:00',
  updatedAt: '2026-11-20 09:00:00',
};
const RETRYING: LogoutDeliveryRow = {
  ...DELIVERED,
  id: 2,
  applicationName: '恒岳移动巡检',
  protocol: 'oidc',
  state: 'retrying',
  reason: '应用返回 HTTP 500',
  attempts: 2,
  nextAt: '2026-11-20 09:06:00',
};
const FAILED: LogoutDeliveryRow = {
  ...DELIVERED,
  id: 1,
  applicationName: 'ERP 财务',
  state: 'failed',
  reason: '无法连接应用（连接被拒绝）',
  attempts: 4,
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/page/list`]: [{ rows: [STAFF, OWN], total: 2 }],
    [`GET ${BASE}/logout-deliveries`]: [{ rows: [DELIVERED, RETRYING, FAILED], total: 3 }],
    [`DELETE ${BASE}/s-7f3a`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const admin = menusEntry(['security', 'security:session']);
const deliveryCalls = () =>
  fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/logout-deliveries`).map(([, config]) => config?.params);
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/page/list`).map(([, config]) => config?.params);
const sessionRow = (text: string) => screen.findByRole('row', { name: new RegExp(text) });

describe('在线会话', () => {
  it('lists each session with account, name, IP, browser, system, times and the applications it opened', async () => {
    renderWithProviders(<SessionPage />, { session: admin });
    const row = await sessionRow('李娜');
    for (const text of [
      'staff',
      '10.1.2.3',
      'Chrome 131',
      'Windows 10',
      '2026-11-20 08:30:00',
      '2026-11-20 10:05:12',
      '门户',
      'MES 生产执行',
    ])
      expect(within(row).getByText(text)).toBeTruthy();
    for (const header of ['账号', '姓名', 'IP', '浏览器', '系统', '登录时间', '最近活动', '已访问应用', '操作'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
  });

  it('marks the administrator’s own session 当前 without 强制下线', async () => {
    renderWithProviders(<SessionPage />, { session: admin });
    const own = await sessionRow('张伟');
    expect(within(own).getByText('当前')).toBeTruthy();
    expect(within(own).queryByRole('button', { name: /强制下线/ })).toBeNull();
  });

  it('searches by account from page 1', async () => {
    renderWithProviders(<SessionPage />, { session: admin });
    await sessionRow('李娜');
    fireEvent.change(screen.getByRole('textbox', { name: '账号' }), { target: { value: ' staff ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, keyword: 'staff' }));
  });

  it('强制下线 asks first, saying the applications sign out too; 取消 calls nothing, confirming calls DELETE and reloads', async () => {
    renderWithProviders(<SessionPage />, { session: admin });
    fireEvent.click(within(await sessionRow('李娜')).getByRole('button', { name: /强制下线/ }));
    let confirm = await screen.findByRole('dialog', { name: '强制下线' });
    expect(within(confirm).getByText(/李娜（staff）.*该会话将立即结束，已登录的应用也将退出/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /取\s*消/ }));
    expect(fake.api!.delete).not.toHaveBeenCalled();

    fireEvent.click(within(await sessionRow('李娜')).getByRole('button', { name: /强制下线/ }));
    // The cancelled dialog may still be fading out: take the new one.
    const cancelled = confirm;
    confirm = await waitFor(() => {
      const fresh = screen.getAllByRole('dialog', { name: '强制下线' }).find((d) => d !== cancelled);
      if (!fresh) throw new Error('the confirmation has not opened again');
      return fresh;
    });
    const lists = listCalls().length;
    fireEvent.click(within(confirm).getByRole('button', { name: /强制下线/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${BASE}/s-7f3a`));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(lists));
  });

  it('单点登出记录 shows each logout message: delivered, waiting for a retry with the reason and when, or given up', async () => {
    renderWithProviders(<SessionPage />, { session: admin });
    await sessionRow('李娜');
    expect(deliveryCalls()).toEqual([]);
    fireEvent.click(screen.getByRole('tab', { name: '单点登出记录' }));
    const section = await screen.findByRole('region', { name: '单点登出记录' });
    const row = (text: string) => within(section).findByRole('row', { name: new RegExp(text) });
    const delivered = await row('MES 生产执行');
    for (const text of ['2026-11-20 09:00:00', 'wangfang', 'CAS', '已送达']) expect(within(delivered).getByText(text)).toBeTruthy();
    const retrying = await row('恒岳移动巡检');
    for (const text of ['OIDC', '等待重试', '应用返回 HTTP 500', '已发送 2 次，2026-11-20 09:06:00 重试'])
      expect(within(retrying).getByText(text)).toBeTruthy();
    const failed = await row('ERP 财务');
    for (const text of ['失败', '无法连接应用（连接被拒绝）', '已发送 4 次，不再重试']) expect(within(failed).getByText(text)).toBeTruthy();
    expect(deliveryCalls()[0]).toEqual({ offset: 0, limit: 20 });
  });
});
