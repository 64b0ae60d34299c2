import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '@/lib/download';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { AuditLogPage } from '../components/audit-log-page';
import { INITIAL_AUDIT_FILTERS, auditFilterParams, auditListQuery, exportFilename } from '../lib/audit-filters';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const ROW = {
  id: 7,
  username: 'staff',
  name: '李娜',
  enterpriseId: 1,
  enterpriseName: '徐州恒岳重工机械有限公司',
  action: 'login-failed',
  actionName: '登录失败',
  target: 'http://localhost/',
  ip: '10.1.2.3',
  outcome: 'failure',
  detail: '密码错误',
  requestId: '0f4c2a9e-6b1d-4e8a-9c3f-5d7b8a1e2c40',
  createdAt: '2026-11-20 10:30:00',
};

const INTACT = {
  intact: true,
  checked: 12,
  firstSeq: 1,
  lastSeq: 12,
  startHash: '0'.repeat(64),
  endHash: 'ab'.repeat(32),
  problem: null,
  enterpriseId: null,
  archivedSeq: 40,
};
let verification: object = INTACT;

beforeEach(() => {
  installRuntimeConfig();
  verification = INTACT;
  fake.api = createFakeApi({
    'GET /web-api/console/v1/audit/page/list': [{ rows: [ROW], total: 1 }],
    'GET /web-api/console/v1/audit/verify': () => [verification],
    'GET /web-api/console/v1/audit/actions': [
      { code: 'login', name: '登录' },
      { code: 'login-failed', name: '登录失败' },
    ],
  });
  vi.mocked(saveBlob).mockClear();
});

const listCalls = () =>
  fake.api!.get.mock.calls.filter(([url]) => url === '/web-api/console/v1/audit/page/list').map(([, config]) => config?.params);

describe('操作日志 filters → query parameters', () => {
  it('the first page asks for 20 rows from offset 0 without filters', () => {
    expect(auditListQuery(INITIAL_AUDIT_FILTERS)).toEqual({ offset: 0, limit: 20 });
  });

  it('sends the picked times to the second, the trimmed user, the action and the outcome', () => {
    const filters = {
      ...INITIAL_AUDIT_FILTERS,
      range: [dayjs('2026-11-20 00:00:00'), dayjs('2026-11-21 23:59:59')] as const,
      username: ' staff ',
      action: 'login',
      outcome: 'failure' as const,
      page: 2,
      limit: 50,
    };
    expect(auditListQuery(filters)).toEqual({
      offset: 50,
      limit: 50,
      filterStartTime: '2026-11-20 00:00:00',
      filterEndTime: '2026-11-21 23:59:59',
      username: 'staff',
      action: 'login',
      outcome: 'failure',
    });
    expect(auditFilterParams(filters)).not.toHaveProperty('offset');
  });

  it('names the file by the local time', () => {
    expect(exportFilename(new Date(2026, 10, 20, 9, 5, 3))).toBe('操作日志-20261120090503.csv');
  });
});

describe('操作日志 page', () => {
  it('shows the log with account, name, action, IP and outcome; enterprise column only for all-enterprise viewers', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit']) });
    expect(await screen.findByText('李娜')).toBeTruthy();
    const row = screen.getByRole('row', { name: /10\.1\.2\.3/ });
    expect(within(row).getByText('staff')).toBeTruthy();
    expect(within(row).getByText('登录失败')).toBeTruthy();
    expect(within(row).getByText('失败')).toBeTruthy();
    expect(within(row).getByText('2026-11-20 10:30:00')).toBeTruthy();
    expect(within(row).getByText('0f4c2a9e-6b1d-4e8a-9c3f-5d7b8a1e2c40')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '企业' })).toBeNull();
    expect(screen.getByText('共 1 条')).toBeTruthy();
  });

  it('applies the user filter on 查询 from page 1, and exports the same filters as CSV with the token-carrying client', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit']) });
    await screen.findByText('李娜');
    fireEvent.change(screen.getByPlaceholderText('账号或姓名'), { target: { value: ' 李娜 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, username: '李娜' }));

    fireEvent.click(screen.getByRole('button', { name: /导出 CSV/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith('/web-api/console/v1/audit/export', { params: { username: '李娜' } });
    const [file, filename] = vi.mocked(saveBlob).mock.calls[0]!;
    expect(file).toBeInstanceOf(Blob);
    expect(filename).toMatch(/^操作日志-\d{14}\.csv$/);
  });

  it('finds the entries of one request by its 请求编号 (the X-Request-Id a user quotes)', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit']) });
    await screen.findByText('李娜');
    fireEvent.change(screen.getByRole('textbox', { name: '请求编号' }), { target: { value: ' 0f4c2a9e-6b1d-4e8a-9c3f-5d7b8a1e2c40 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, requestId: '0f4c2a9e-6b1d-4e8a-9c3f-5d7b8a1e2c40' }));
  });

  it('resets every filter with 重置', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit']) });
    await screen.findByText('李娜');
    fireEvent.change(screen.getByPlaceholderText('账号或姓名'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ username: 'admin' }));
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20 }));
    expect((screen.getByPlaceholderText('账号或姓名') as HTMLInputElement).value).toBe('');
  });

  it('shows the enterprise column to accounts that see every enterprise', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit', 'audit:all-enterprises']) });
    expect(await screen.findByText('徐州恒岳重工机械有限公司')).toBeTruthy();
  });

  it('校验完整性 verifies the chain: 完整 with the period’s end hashes, or the first broken row and why', async () => {
    renderWithProviders(<AuditLogPage />, { session: menusEntry(['audit']) });
    await screen.findByText('李娜');
    fireEvent.click(screen.getByRole('button', { name: /校验完整性/ }));
    const intact = await screen.findByRole('dialog', { name: '操作日志完整性校验' });
    expect(within(intact).getByText('完整')).toBeTruthy();
    expect(within(intact).getByText('数据库中现存的 12 条入链记录未被篡改、删除或插入。')).toBeTruthy();
    expect(within(intact).getByText('ab'.repeat(32))).toBeTruthy();
    // Which chain was read, and what the check leaves to the archive files.
    expect(within(intact).getByText('不属于任何企业的记录（平台账号、未匹配账号的登录尝试）')).toBeTruthy();
    expect(within(intact).getByText(/序号 40 及之前的记录已归档，请用归档文件校验/)).toBeTruthy();
    // The footer's 关闭 (the corner's × is named 关闭 too).
    fireEvent.click(
      within(intact)
        .getAllByRole('button', { name: /关\s*闭/ })
        .at(-1)!,
    );

    verification = {
      ...INTACT,
      intact: false,
      checked: 4,
      problem: {
        kind: 'removed',
        kindText: '被删除',
        rowId: 42,
        seq: 7,
        createdAt: '2026-11-20 10:31:00',
        reason: '序号 6 的记录缺失（位于此行之前）',
      },
    };
    fireEvent.click(screen.getByRole('button', { name: /校验完整性/ }));
    const broken = await screen.findByRole('dialog', { name: '操作日志完整性校验' });
    expect(within(broken).getByText('不完整：记录被删除')).toBeTruthy();
    expect(within(broken).getByText('序号 6 的记录缺失（位于此行之前）')).toBeTruthy();
    expect(within(broken).getByText(/记录 42（序号 7）/)).toBeTruthy();
    expect(fake.api!.get).toHaveBeenCalledWith('/web-api/console/v1/audit/verify', { params: {} });
  });
});
