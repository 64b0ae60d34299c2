import { Authority, type IdentifierStats } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { IdentifierStatsPage } from '../components/identifier-stats-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
// Canvas drawing is ECharts' business; the page test checks what the page hands to the chart.
vi.mock('../components/stats-chart', () => ({
  StatsChart: ({ label, option }: { label: string; option: { series: { name: string; data: unknown[] }[] } }) => (
    <div role="img" aria-label={label} data-series={JSON.stringify(option.series.map((s) => [s.name, s.data]))} />
  ),
}));

const STATS_URL = '/web-api/identity/v1/stats';
const day = (d: number, web: number, qr: number, api: number, upstream = 0) => ({
  day: `2026-05-${String(d).padStart(2, '0')}`,
  web,
  qr,
  api,
  upstream,
});
const OWNER: IdentifierStats = {
  scope: 'owner',
  from: '2026-05-01',
  to: '2026-05-03',
  prefixes: ['88.118.8', '88.118.9'],
  totals: { lookups: 40, found: 30, notFound: 6, malformed: 4, notFoundRate: 0.25 },
  daily: [day(1, 5, 2, 1), day(2, 0, 0, 0), day(3, 20, 10, 2)],
  regions: [
    { region: '江苏', lookups: 24 },
    { region: '内网', lookups: 10 },
    { region: '未知', lookups: 6 },
  ],
  topHandles: [
    { handle: '88.118.8/EX-2024-000123', lookups: 20 },
    { handle: '88.118.8/EX-2024-000124', lookups: 10 },
  ],
  topValues: [
    { item: '产品型号', value: 'HY-E215', lookups: 18 },
    { item: '产品型号', value: 'HY-E20E', lookups: 12 },
  ],
  topMissing: [
    { handle: '88.118.8/EX-2024-999999', outcome: 'not_found', lookups: 6 },
    { handle: '88.118.8 EX-2024', outcome: 'malformed', lookups: 4 },
  ],
};
const NODE: IdentifierStats = { ...OWNER, scope: 'node', prefixes: ['', '88.118.8', '88.118.16', '88.200.1'] };
const EMPTY: IdentifierStats = {
  ...OWNER,
  totals: { lookups: 0, found: 0, notFound: 0, malformed: 0, notFoundRate: 0 },
  daily: [day(1, 0, 0, 0), day(2, 0, 0, 0), day(3, 0, 0, 0)],
  regions: [],
  topHandles: [],
  topValues: [],
  topMissing: [],
};

let answer: IdentifierStats;
beforeEach(() => {
  installRuntimeConfig();
  answer = OWNER;
  fake.api = createFakeApi({ [`GET ${STATS_URL}`]: () => [answer] });
  vi.mocked(saveBlob).mockClear();
  vi.mocked(notify.success).mockClear();
});

/** Shows the router's address, so a test can read it. */
function Location() {
  const l = useLocation();
  return <output aria-label="地址">{l.pathname + l.search}</output>;
}
const location = () => screen.getByRole('status', { name: '地址' }).textContent;

const ADMIN = menusEntry([Authority.IdentifierStats, Authority.IdentifierTemplate]);
const OPERATOR = menusEntry([Authority.IdentifierStats, Authority.IdentifierAll]);

function renderPage(url = '/console/identifier/stats', session = ADMIN) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <IdentifierStatsPage />
      <Location />
    </MemoryRouter>,
    { session },
  );
}
/** The query of every statistics call so far, oldest first. */
const statsCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === STATS_URL).map(([, config]) => config?.params as unknown);
const panel = (name: string) => screen.getByRole('region', { name });
const tile = (label: string) => within(screen.getByRole('list', { name: '统计概览' })).getByRole('listitem', { name: label }).textContent;
const rowsOf = (name: string) =>
  within(panel(name))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('标识统计', () => {
  it("shows an owner's figures: totals, lookups per day by channel, regions, top identifiers, values and the handles not found", async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: '标识统计' })).toBeTruthy();
    expect(
      await screen.findByText('本企业标识前缀（88.118.8、88.118.9）的查询情况，2026-05-01 至 2026-05-03，按北京时间统计。'),
    ).toBeTruthy();
    expect(statsCalls()).toEqual([{ days: 30 }]);

    expect(tile('查询总量')).toBe('查询总量40日均 13.3 次');
    expect(tile('找到')).toBe('找到30占 75%');
    expect(tile('扫码查询')).toBe('扫码查询12占 30%');
    expect(tile('未找到率')).toBe('未找到率25%含格式错误的查询');
    expect(tile('未找到')).toBe('未找到10未登记 6 · 格式错误 4');

    const chart = screen.getByRole('img', { name: '近 30 天每日按渠道的查询次数堆叠柱状图' });
    expect(JSON.parse(chart.dataset.series ?? '[]')).toEqual([
      ['网页查询', [5, 0, 20]],
      ['扫码', [2, 0, 10]],
      ['Handle API', [1, 0, 2]],
      ['上游转发', [0, 0, 0]],
    ]);

    const regions = within(panel('地区分布')).getByRole('list', { name: '各地区查询次数' });
    expect(
      within(regions)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['1江苏2460%', '2内网1025%', '3未知615%']);

    expect(rowsOf('热门标识')).toEqual([
      ['1', '88.118.8/EX-2024-000123', '20占 50%'],
      ['2', '88.118.8/EX-2024-000124', '10占 25%'],
    ]);
    expect(rowsOf('热门数据项取值')).toEqual([
      ['1', '产品型号', 'HY-E215', '18'],
      ['2', '产品型号', 'HY-E20E', '12'],
    ]);
    expect(rowsOf('未找到的标识')).toEqual([
      ['88.118.8/EX-2024-999999', '未找到', '6'],
      ['88.118.8 EX-2024', '格式错误', '4'],
    ]);
    expect(within(panel('未找到的标识')).getByText('未找到率 25%')).toBeTruthy();
  });

  it('an operator sees the whole node as 运营统计, with every prefix to filter on', async () => {
    answer = NODE;
    renderPage('/console/identifier/stats', OPERATOR);
    expect(await screen.findByText(/本节点全部标识的查询情况/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: '运营统计' })).toBeTruthy();
    await chooseOption(screen.getByRole('combobox', { name: '标识前缀' }), '88.200.1');
    await waitFor(() => expect(location()).toBe('/console/identifier/stats?prefix=88.200.1'));
    await waitFor(() => expect(statsCalls().at(-1)).toEqual({ days: 30, prefix: '88.200.1' }));
  });

  it('keeps the range and the prefix in the address, and reads them from it', async () => {
    renderPage('/console/identifier/stats?days=90&prefix=88.118.9');
    await screen.findByText(/前缀 88.118.9 下标识的查询情况/);
    expect(statsCalls()).toEqual([{ days: 90, prefix: '88.118.9' }]);
    expect((screen.getByRole('radio', { name: '近 90 天' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByRole('radio', { name: '近 7 天' }));
    await waitFor(() => expect(location()).toBe('/console/identifier/stats?days=7&prefix=88.118.9'));
    await waitFor(() => expect(statsCalls().at(-1)).toEqual({ days: 7, prefix: '88.118.9' }));
    expect(await screen.findByRole('img', { name: '近 7 天每日按渠道的查询次数堆叠柱状图' })).toBeTruthy();

    await chooseOption(screen.getByRole('combobox', { name: '标识前缀' }), '本企业全部前缀');
    await waitFor(() => expect(location()).toBe('/console/identifier/stats?days=7'));
    await waitFor(() => expect(statsCalls().at(-1)).toEqual({ days: 7 }));

    // The default range stays out of the address.
    fireEvent.click(screen.getByRole('radio', { name: '近 30 天' }));
    await waitFor(() => expect(location()).toBe('/console/identifier/stats'));
  });

  it('a range in the address that is none of 7, 30 or 90 days shows the default', async () => {
    renderPage('/console/identifier/stats?days=15');
    await screen.findByText(/本企业标识前缀/);
    expect(statsCalls()).toEqual([{ days: 30 }]);
    expect((screen.getByRole('radio', { name: '近 30 天' }) as HTMLInputElement).checked).toBe(true);
  });

  it("each table's 导出 CSV downloads that table of the shown range and prefix", async () => {
    renderPage('/console/identifier/stats?days=7&prefix=88.118.8');
    await screen.findByText('88.118.8/EX-2024-999999');
    fireEvent.click(within(panel('未找到的标识')).getByRole('button', { name: /导出 CSV/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith('/web-api/identity/v1/stats/export', {
      params: { table: 'missing', days: 7, prefix: '88.118.8' },
    });
    expect(vi.mocked(saveBlob).mock.calls[0]?.[1]).toBe('标识统计-missing-2026-05-01-2026-05-03.csv');
    expect(notify.success).toHaveBeenCalledWith('导出成功');

    fireEvent.click(within(panel('每日查询')).getByRole('button', { name: /导出 CSV/ }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(2));
    expect(fake.api!.blob).toHaveBeenLastCalledWith('/web-api/identity/v1/stats/export', {
      params: { table: 'daily', days: 7, prefix: '88.118.8' },
    });
    for (const name of ['地区分布', '热门标识', '热门数据项取值'])
      expect(
        within(panel(name))
          .getByRole('button', { name: /导出 CSV/ })
          .hasAttribute('disabled'),
      ).toBe(false);
  });

  it('shows placeholders while loading, without exports', async () => {
    fake.api!.get.mockImplementation(() => new Promise(() => undefined));
    renderPage();
    expect(await screen.findByRole('heading', { name: '标识统计' })).toBeTruthy();
    expect(screen.getByText('正在统计…')).toBeTruthy();
    expect(tile('查询总量')).toBe('查询总量—');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryAllByRole('img', { name: /图$/ })).toEqual([]);
    expect(
      within(panel('热门标识'))
        .getByRole('button', { name: /导出 CSV/ })
        .hasAttribute('disabled'),
    ).toBe(true);
  });

  it("a failed load says so with the server's reason and 重试 loads again", async () => {
    let fail = true;
    fake.api!.get.mockImplementation(() =>
      fail
        ? Promise.reject(new ApiError('前缀不存在或不属于本企业', 1, 400))
        : Promise.resolve({ code: 20200, msg: '操作成功', data: [OWNER] }),
    );
    renderPage('/console/identifier/stats?prefix=88.200.1');
    expect(await screen.findByText('标识统计加载失败')).toBeTruthy();
    expect(screen.getByText('前缀不存在或不属于本企业')).toBeTruthy();
    expect(screen.queryByText('正在统计…')).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByRole('region', { name: '热门标识' })).toBeTruthy();
    expect(screen.queryByText('标识统计加载失败')).toBeNull();
  });

  it('a failed load with a prefix offers every prefix instead', async () => {
    fake.api!.get.mockImplementation((_url, config) =>
      (config?.params as { prefix?: string }).prefix
        ? Promise.reject(new ApiError('前缀不存在或不属于本企业', 1, 400))
        : Promise.resolve({ code: 20200, msg: '操作成功', data: [OWNER] }),
    );
    renderPage('/console/identifier/stats?days=7&prefix=88.200.1');
    fireEvent.click(await screen.findByRole('button', { name: '查看全部前缀' }));
    await waitFor(() => expect(location()).toBe('/console/identifier/stats?days=7'));
    expect(await screen.findByRole('region', { name: '热门标识' })).toBeTruthy();
  });

  it('without lookups every panel says what would fill it; the values panel tells how to count a template item', async () => {
    answer = EMPTY;
    renderPage();
    expect(await screen.findAllByText('近 30 天暂无查询')).toHaveLength(2);
    expect(screen.queryAllByRole('img', { name: /图$/ })).toEqual([]);
    expect(within(panel('热门标识')).getByText('近 30 天暂无查到的标识')).toBeTruthy();
    expect(within(panel('未找到的标识')).getByText('近 30 天没有未找到的查询')).toBeTruthy();
    const values = panel('热门数据项取值');
    expect(values.textContent).toContain('勾选“计入统计”');
    expect(within(values).getByRole('link', { name: '前往前缀与模板' }).getAttribute('href')).toBe('/console/identifier/template');
    expect(tile('未找到率')).toBe('未找到率0%含格式错误的查询');
    // Nothing to export but the days themselves.
    expect(
      within(values)
        .getByRole('button', { name: /导出 CSV/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(
      within(panel('每日查询'))
        .getByRole('button', { name: /导出 CSV/ })
        .hasAttribute('disabled'),
    ).toBe(false);
  });

  it('a user without 前缀与模板 is told what to ask for, without a link', async () => {
    answer = EMPTY;
    renderPage('/console/identifier/stats', menusEntry([Authority.IdentifierStats]));
    const values = await screen.findByRole('region', { name: '热门数据项取值' });
    await within(values).findByText('暂无数据项取值统计');
    expect(within(values).queryByRole('link')).toBeNull();
  });

  it('an enterprise without a prefix is told where its figures will come from', async () => {
    answer = { ...EMPTY, prefixes: [] };
    renderPage();
    expect(await screen.findByText('本企业暂无标识前缀')).toBeTruthy();
    expect(screen.queryByRole('region', { name: '每日查询' })).toBeNull();
  });

  it('shows every region on demand', async () => {
    answer = { ...OWNER, regions: Array.from({ length: 12 }, (_, i) => ({ region: `地区${i + 1}`, lookups: 12 - i })) };
    renderPage();
    const list = await screen.findByRole('list', { name: '各地区查询次数' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: '展开全部 12 个地区' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
  });
});
