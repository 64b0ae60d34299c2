import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import type { Statistics } from '../api/get-statistics';
import { StatisticsPage } from '../components/statistics-page';
import { accountStatusOption, applicationsOption, coveragePercent, dayLabel, signInTotals, signInsOption } from '../lib/statistics-charts';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
// Canvas drawing is ECharts' business; the page test checks what the page hands to each chart.
vi.mock('../components/statistics-chart', () => ({
  StatisticsChart: ({ label, option }: { label: string; option: { series: { data: unknown[] }[] } }) => (
    <div role="img" aria-label={label} data-series={JSON.stringify(option.series.map((s) => s.data))} />
  ),
}));

const days = (pairs: [number, number][]) =>
  pairs.map(([success, failure], i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, success, failure }));
const STATISTICS: Statistics = {
  signInsPerDay: days([
    [3, 0],
    [5, 2],
    [0, 0],
    [8, 1],
  ]),
  activeAccounts: { last7Days: 4, last30Days: 6, total: 8 },
  // Most first, as the server sends them; the portal itself is 门户.
  signInsPerApplication: [
    { applicationId: 3, name: 'MES 生产执行', count: 30 },
    { applicationId: null, name: '门户', count: 12 },
    { applicationId: 5, name: '设备运维', count: 5 },
  ],
  accountsByStatus: { active: 6, disabled: 1, locked: 1 },
  twoFactor: { enabled: 3, notEnabled: 5 },
};
const EMPTY: Statistics = {
  signInsPerDay: days([
    [0, 0],
    [0, 0],
  ]),
  activeAccounts: { last7Days: 0, last30Days: 0, total: 0 },
  signInsPerApplication: [],
  accountsByStatus: { active: 0, disabled: 0, locked: 0 },
  twoFactor: { enabled: 0, notEnabled: 0 },
};

let answer: Statistics;
beforeEach(() => {
  installRuntimeConfig();
  answer = STATISTICS;
  fake.api = createFakeApi({ 'GET /web-api/console/v1/statistics': () => [answer] });
});

const admin = menusEntry(['statistics']);
const chartSeries = (label: string) => JSON.parse(screen.getByRole('img', { name: label }).dataset.series ?? '[]') as unknown[];

describe('统计分析 charts', () => {
  it('draw successes and failures per day, applications largest first, states with Chinese names', () => {
    const signIns = signInsOption(STATISTICS.signInsPerDay);
    expect((signIns.xAxis as { data: string[] }).data).toEqual(['11-01', '11-02', '11-03', '11-04']);
    expect(signIns.yAxis).toMatchObject({ type: 'value', minInterval: 1 });
    expect(signIns.series).toEqual([
      expect.objectContaining({ type: 'line', name: '成功', data: [3, 5, 0, 8] }),
      expect.objectContaining({ type: 'line', name: '失败', data: [0, 2, 0, 1] }),
    ]);
    expect(signInTotals(STATISTICS.signInsPerDay)).toEqual({ success: 16, failure: 3 });
    expect(dayLabel('2026-11-30')).toBe('11-30');

    // A horizontal bar chart draws its categories from the bottom: the largest comes last.
    const apps = applicationsOption(STATISTICS.signInsPerApplication);
    expect((apps.yAxis as { data: string[] }).data).toEqual(['设备运维', '门户', 'MES 生产执行']);
    expect(apps.series).toEqual([expect.objectContaining({ type: 'bar', data: [5, 12, 30] })]);

    expect(accountStatusOption(STATISTICS.accountsByStatus).series).toEqual([
      expect.objectContaining({
        type: 'pie',
        data: [
          expect.objectContaining({ name: '正常', value: 6 }),
          expect.objectContaining({ name: '锁定', value: 1 }),
          expect.objectContaining({ name: '停用', value: 1 }),
        ],
      }),
    ]);
    expect(coveragePercent({ enabled: 3, notEnabled: 5 })).toBe(38);
    expect(coveragePercent({ enabled: 0, notEnabled: 0 })).toBe(0);
  });
});

describe('统计分析 page', () => {
  it('shows the active accounts, the 30-day totals and every chart with the enterprise’s figures', async () => {
    renderWithProviders(<StatisticsPage />, { session: admin });
    expect(await screen.findByText('近 7 天活跃账号')).toBeTruthy();
    expect(await screen.findByText('占全部账号 50%')).toBeTruthy();
    expect(screen.getByText('占全部账号 75%')).toBeTruthy();
    expect(screen.getByText('16')).toBeTruthy();
    expect(screen.getByText('3')).toBeTruthy();
    expect(chartSeries('近 30 天每日登录成功与失败次数折线图')).toEqual([
      [3, 5, 0, 8],
      [0, 2, 0, 1],
    ]);
    expect(chartSeries('近 30 天各应用登录次数柱状图')).toEqual([[5, 12, 30]]);
    expect(screen.getByRole('img', { name: '账号状态分布环形图' })).toBeTruthy();
    expect(screen.getByText('共 8 个')).toBeTruthy();
    expect(screen.getByText('38%')).toBeTruthy();
    expect(screen.getByText('已绑定验证器 3 / 8 个账号')).toBeTruthy();
  });

  it('a new enterprise without sign-ins sees zeros and empty panels, no empty charts', async () => {
    answer = EMPTY;
    renderWithProviders(<StatisticsPage />, { session: admin });
    expect(await screen.findByText('近 30 天暂无登录')).toBeTruthy();
    expect(screen.getByText('暂无应用登录')).toBeTruthy();
    expect(screen.getAllByText('暂无账号').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryAllByRole('img', { name: /图$/ })).toEqual([]);
    expect(screen.getAllByText('0')).toHaveLength(4);
  });
});
