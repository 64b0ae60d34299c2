import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '@/lib/download';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import type { LoginLogRow, LogoutDeliveryRow } from '@portal/shared';
import { LoginLogPage } from '../components/login-log-page';
import { INITIAL_LOGIN_LOG_FILTERS, exportFilename, loginLogFilterParams, loginLogListQuery } from '../lib/login-log-filters';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const CONSOLE = '/web-api/console/v1';
const FAILED: LoginLogRow = {
  id: 41,
  createdAt: '2026-11-20 10:30:00',
  username: 'staff',
  name: '李娜',
  result: 'failure',
  reason: 'bad-password',
  reasonText: '密码错误',
  applicationName: 'MES 生产执行',
  ip: '10.1.2.3',
  browser: 'Chrome 131',
  os: 'Windows 10',
  enterpriseName: '徐州恒岳重工机械有限公司',
};
const SIGNED_IN: LoginLogRow = {
  ...FAILED,
  id: 42,
  createdAt: '2026-11-20 10:31:00',
  result: 'success',
  reason: '',
  reasonText: '',
  applicationName: '',
  ip: '10.1.2.4',
};

const FORCED_OUT: LoginLogRow = {
  ...SIGNED_IN,
  id: 43,
  createdAt: '2026-11-20 11:00:00',
  result: 'logout',
  reason: 'forced',
  reasonText: '管理员强制下线',
  ip: '10.1.2.5',
  logoutDeliveries: { total: 2, delivered: 1, retrying: 1, failed: 0 },
};
const delivery = (id: number, applicationName: string, state: LogoutDeliveryRow['state']): LogoutDeliveryRow => ({
  id,
  sessionId: '7.abc',
  username: 'staff',
  applicationName,
  protocol: id === 1 ? 'cas3' : 'oidc',
  target: 'https://mes.example.com/logout',
  state,
  reason: state === 'delivered' ? '' : '应用返回 HTTP 503',
  attempts: 1,
  nextAt: state === 'retrying' ? '2026-11-20 11:01:00' : '',
  createdAt: '2026-11-20 11:00:00',
  updatedAt: '2026-11-20 11:00:00',
});

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${CONSOLE}/login-log/page/list`]: [{ rows: [FAILED, SIGNED_IN, FORCED_OUT], total: 3 }],
    [`GET ${CONSOLE}/login-log/43/logout-deliveries`]: [delivery(1, 'MES 生产执行', 'delivered'), delivery(2, '移动巡检', 'retrying')],
    [`GET ${CONSOLE}/login-log/applications`]: [
      { id: 3, name: 'MES 生产执行' },
      { id: 5, name: '设备运维' },
    ],
  });
  vi.mocked(saveBlob).mockClear();
});

const admin = menusEntry(['security', 'security:login-log']);
const listCalls = () =>
  fake.api!.get.mock.calls.filter(([url]) => url === `${CONSOLE}/login-log/page/list`).map(([, config]) => config?.params);

describe('登录日志 filters → query parameters', () => {
  it('the first page asks for 20 rows from offset 0 without filters', () => {
    expect(loginLogListQuery(INITIAL_LOGIN_LOG_FILTERS)).toEqual({ offset: 0, limit: 20 });
  });

  it('sends the picked times to the second, the trimmed account, the result and the application', () => {
    const filters = {
      ...INITIAL_LOGIN_LOG_FILTERS,
      range: [dayjs('2026-11-20 00:00:00'), dayjs('2026-11-21 23:59:59')] as const,
      username: ' staff ',
      result: 'failure' as const,
      applicationId: 3,
      page: 3,
      limit: 10,
    };
    expect(loginLogListQuery(filters)).toEqual({
      offset: 20,
      limit: 10,
      filterStartTime: '2026-11-20 00:00:00',
      filterEndTime: '2026-11-21 23:59:59',
      username: 'staff',
      result: 'failure',
      applicationId: 3,
    });
    expect(loginLogFilterParams(filters)).not.toHaveProperty('offset');
  });

  it('names the file by the local time', () => {
    expect(exportFilename(new Date(2026, 10, 20, 9, 5, 3))).toBe('登录日志-20261120090503.csv');
  });
});

describe('登录日志 page', () => {
  it('shows each attempt with time, account, name, result with its reason, application, IP and browser', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    const failed = await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    for (const text of ['2026-11-20 10:30:00', 'staff', '李娜', '失败', '密码错误', 'MES 生产执行', 'Chrome 131', 'Windows 10'])
      expect(within(failed).getByText(text)).toBeTruthy();
    const ok = screen.getByRole('row', { name: /10\.1\.2\.4/ });
    expect(within(ok).getByText('成功')).toBeTruthy();
    expect(within(ok).queryByText('密码错误')).toBeNull();
    for (const header of ['时间', '账号', '姓名', '结果', '应用', 'IP', '浏览器'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
    expect(screen.getByText('共 3 条')).toBeTruthy();
  });

  it('a 登出 row says how the session ended and opens what its applications were told', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    const row = await screen.findByRole('row', { name: /10\.1\.2\.5/ });
    expect(within(row).getByText('登出')).toBeTruthy();
    expect(within(row).getByText('管理员强制下线')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '单点登出 2 个应用（1 个等待重试）' }));
    const dialog = await screen.findByRole('dialog', { name: '单点登出记录' });
    const waiting = await within(dialog).findByRole('row', { name: /移动巡检/ });
    expect(within(waiting).getByText('等待重试')).toBeTruthy();
    expect(within(waiting).getByText('应用返回 HTTP 503')).toBeTruthy();
    expect(within(within(dialog).getByRole('row', { name: /MES 生产执行/ })).getByText('已送达')).toBeTruthy();
    // Rows that are no 登出 offer no such list.
    expect(within(screen.getByRole('row', { name: /10\.1\.2\.4/ })).queryByRole('button', { name: /单点登出/ })).toBeNull();
  });

  it('filters by account, result and application from page 1, and exports the same filters as CSV', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    fireEvent.change(screen.getByRole('textbox', { name: '账号' }), { target: { value: ' staff ' } });
    await chooseOption(screen.getByRole('combobox', { name: '结果' }), '失败');
    await chooseOption(screen.getByRole('combobox', { name: '应用' }), '设备运维');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    const filters = { username: 'staff', result: 'failure', applicationId: 5 };
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, ...filters }));

    fireEvent.click(screen.getByRole('button', { name: /导出 CSV/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${CONSOLE}/login-log/export`, { params: filters });
    const [file, filename] = vi.mocked(saveBlob).mock.calls[0]!;
    expect(file).toBeInstanceOf(Blob);
    expect(filename).toMatch(/^登录日志-\d{14}\.csv$/);
  });

  it('重置 clears every filter', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    await chooseOption(screen.getByRole('combobox', { name: '结果' }), '成功');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, result: 'success' }));
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20 }));
  });

  it('offers 门户 (sign-ins naming no application, sent as 0) before the enterprise’s applications', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    await chooseOption(screen.getByRole('combobox', { name: '应用' }), '门户');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, applicationId: 0 }));
  });

  it('shows each attempt’s enterprise to operators who read every enterprise', async () => {
    fake.api!.routes[`GET ${CONSOLE}/login-log/page/list`] = [
      { rows: [{ ...FAILED, enterpriseName: '常州瑞驰液压科技有限公司' }], total: 1 },
    ];
    renderWithProviders(<LoginLogPage />, { session: menusEntry(['security', 'security:login-log', 'audit', 'audit:all-enterprises']) });
    const row = await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    expect(within(row).getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '企业' })).toBeTruthy();
  });

  it('an enterprise administrator sees no enterprise column', async () => {
    renderWithProviders(<LoginLogPage />, { session: admin });
    await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    expect(screen.queryByRole('columnheader', { name: '企业' })).toBeNull();
  });

  it('says how much of a large log one export holds before downloading it', async () => {
    fake.api!.routes[`GET ${CONSOLE}/login-log/page/list`] = [{ rows: [FAILED], total: 60_000 }];
    renderWithProviders(<LoginLogPage />, { session: admin });
    await screen.findByRole('row', { name: /10\.1\.2\.3/ });
    fireEvent.click(screen.getByRole('button', { name: /导出 CSV/ }));
    const confirm = await screen.findByRole('dialog', { name: '导出登录日志' });
    expect(within(confirm).getByText(/共 60000 条，单次最多导出最新的 50000 条/)).toBeTruthy();
    expect(fake.api!.blob).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: '继续导出' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${CONSOLE}/login-log/export`, { params: {} });
  });
});
