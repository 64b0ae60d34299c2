import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import type { Dashboard } from '../api/get-dashboard';
import { DashboardPage } from '../components/dashboard-page';
import { dailyChartOption, dayLabel, seriesTotal } from '../lib/dashboard-charts';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
// Canvas drawing is ECharts' business; the page test checks what the page hands to the chart.
vi.mock('../components/daily-chart', () => ({
  DailyChart: ({ label, option }: { label: string; option: { series: { data: number[] }[] } }) => (
    <div role="img" aria-label={label} data-points={option.series[0]?.data.join(',')} />
  ),
}));

const days = (counts: number[]) => counts.map((count, i) => ({ date: `2026-11-${String(10 + i).padStart(2, '0')}`, count }));
const DASHBOARD: Dashboard = {
  kpis: { publishedArticles: 60, totalViews: 14490, accounts: 4, enterprises: 3, loginsLast7Days: 9 },
  publishedPerDay: days([0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0, 1]),
  registrationsPerDay: days([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3]),
  mostViewed: [
    { uuid: 'a1', title: '开放服务中心上线六类开发者工具', viewCount: 499 },
    { uuid: 'a2', title: '预测性维护让设备停机时间减少三成', viewCount: 250 },
  ],
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({ 'GET /web-api/console/v1/dashboard': [DASHBOARD] });
});

describe('dashboard charts', () => {
  it('label the fourteen China dates by month and day, one point per day, whole numbers on the axis', () => {
    const option = dailyChartOption(DASHBOARD.publishedPerDay, 'line', '发布文章', '#1456d9');
    expect(option.xAxis).toMatchObject({ type: 'category', data: DASHBOARD.publishedPerDay.map((d) => dayLabel(d.date)) });
    expect((option.xAxis as { data: string[] }).data[0]).toBe('11-10');
    expect(option.yAxis).toMatchObject({ type: 'value', minInterval: 1 });
    expect(option.series).toEqual([
      expect.objectContaining({ type: 'line', name: '发布文章', data: [0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0, 1] }),
    ]);
    expect(dailyChartOption(DASHBOARD.registrationsPerDay, 'bar', '注册账号', '#14a37f').series).toEqual([
      expect.objectContaining({ type: 'bar' }),
    ]);
    expect(seriesTotal(DASHBOARD.publishedPerDay)).toBe(9);
  });
});

describe('工作台', () => {
  it('shows the KPI tiles, both daily charts with their totals, and the most read articles linking to the public page', async () => {
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByText('14,490')).toBeTruthy();
    for (const label of ['已发布文章', '文章累计浏览', '注册账号', '入驻企业', '近 7 天登录']) expect(screen.getByText(label)).toBeTruthy();
    expect(screen.getByRole('img', { name: '近 14 天每日发布文章数折线图' }).dataset.points).toBe('0,1,1,0,2,0,0,1,0,0,3,0,0,1');
    expect(screen.getByRole('img', { name: '近 14 天每日注册账号数柱状图' }).dataset.points).toBe('0,0,0,0,0,0,0,0,0,0,0,0,1,3');
    expect(screen.getByText('共 9 篇')).toBeTruthy();
    expect(screen.getByText('共 4 个')).toBeTruthy();
    const top = screen.getByRole('link', { name: '开放服务中心上线六类开发者工具' });
    expect(top.getAttribute('href')).toBe('http://localhost:3000/news/detail?id=a1');
    expect(top.getAttribute('target')).toBe('_blank');
    // The most read comes first, with its views.
    const first = within(screen.getByRole('list', { name: '热门文章' })).getAllByRole('listitem')[0]!;
    expect(within(first).getByRole('link').getAttribute('href')).toBe('http://localhost:3000/news/detail?id=a1');
    expect(within(first).getByText('499 次')).toBeTruthy();
  });
});
