import type { Dashboard } from '@portal/shared';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
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
const ENTERPRISE: Dashboard = {
  scope: 'enterprise',
  enterpriseName: '徐州恒岳重工机械有限公司',
  accounts: { active: 5, disabled: 1, locked: 1 },
  activeLast7Days: 3,
  activeLast30Days: 4,
  loginsPerDay: days([0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0, 1]),
  identifiers: { prefixes: 1, records: 1280 },
  lookupsPerDay: days([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 6]),
  platform: null,
};
const PLATFORM: Dashboard = {
  ...ENTERPRISE,
  scope: 'platform',
  enterpriseName: '',
  accounts: { active: 12, disabled: 2, locked: 0 },
  platform: {
    publishedArticles: 60,
    totalViews: 14490,
    enterprises: 3,
    publishedPerDay: days([0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0, 1]),
    registrationsPerDay: days([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3]),
    mostViewed: [
      { uuid: 'a1', title: '开放服务中心上线六类开发者工具', viewCount: 499 },
      { uuid: 'a2', title: '预测性维护让设备停机时间减少三成', viewCount: 250 },
    ],
  },
};

const answer = (dashboard: Dashboard) => {
  fake.api = createFakeApi({ 'GET /web-api/console/v1/dashboard': [dashboard] });
};
/** The tile labelled `label`: its value and its note. */
const tile = (label: string) => screen.getByText(label).parentElement!;

beforeEach(() => {
  installRuntimeConfig();
});

describe('dashboard charts', () => {
  it('label the fourteen China dates by month and day, one point per day, whole numbers on the axis', () => {
    const option = dailyChartOption(ENTERPRISE.loginsPerDay, 'line', '登录', '#7a4fd1', '次');
    expect(option.xAxis).toMatchObject({ type: 'category', data: ENTERPRISE.loginsPerDay.map((d) => dayLabel(d.date)) });
    expect((option.xAxis as { data: string[] }).data[0]).toBe('11-10');
    expect(option.yAxis).toMatchObject({ type: 'value', minInterval: 1 });
    expect(option.series).toEqual([
      expect.objectContaining({ type: 'line', name: '登录', data: [0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0, 1] }),
    ]);
    expect(dailyChartOption(ENTERPRISE.lookupsPerDay, 'bar', '标识查询', '#d98200', '次').series).toEqual([
      expect.objectContaining({ type: 'bar' }),
    ]);
    expect(seriesTotal(ENTERPRISE.loginsPerDay)).toBe(9);
  });
});

describe('工作台 of an enterprise account', () => {
  it('shows 本企业 figures: accounts by state, active accounts, identifiers, logins and lookups per day; no platform content', async () => {
    answer(ENTERPRISE);
    renderWithProviders(<DashboardPage />, { session: menusEntry(['dashboard']) });
    expect(await screen.findByText('以下为本企业（徐州恒岳重工机械有限公司）实时数据，近 14 天按北京时间统计。')).toBeTruthy();
    expect(within(tile('本企业账号')).getByText('7')).toBeTruthy();
    expect(tile('本企业账号').textContent).toContain('正常 5 · 停用 1 · 锁定 1');
    expect(within(tile('近 7 天活跃')).getByText('3')).toBeTruthy();
    expect(within(tile('近 30 天活跃')).getByText('4')).toBeTruthy();
    expect(within(tile('本企业标识')).getByText('1,280')).toBeTruthy();
    expect(within(tile('本企业标识')).getByText('标识前缀 1 个')).toBeTruthy();
    expect(within(tile('近 14 天标识查询')).getByText('10')).toBeTruthy();

    expect(screen.getByText('本企业近 14 天登录')).toBeTruthy();
    expect(screen.getByRole('img', { name: '近 14 天每日登录次数折线图' }).dataset.points).toBe('0,1,1,0,2,0,0,1,0,0,3,0,0,1');
    expect(screen.getByText('共 9 次')).toBeTruthy();
    expect(screen.getByText('本企业近 14 天标识查询')).toBeTruthy();
    expect(screen.getByRole('img', { name: '近 14 天每日标识查询次数柱状图' }).dataset.points).toBe('0,0,0,0,0,0,0,0,0,0,0,0,4,6');

    for (const platformOnly of ['入驻企业', '已发布文章', '文章累计浏览', '热门文章', '近 14 天注册账号'])
      expect(screen.queryByText(platformOnly)).toBeNull();
  });
});

describe('工作台 of an operator', () => {
  it('shows 全平台 figures with enterprises, content, registrations and the most read articles linking to the public page', async () => {
    answer(PLATFORM);
    renderWithProviders(<DashboardPage />, { session: menusEntry(['dashboard', 'tenant']) });
    expect(await screen.findByText('以下为全平台实时数据，近 14 天按北京时间统计。')).toBeTruthy();
    expect(within(tile('全平台账号')).getByText('14')).toBeTruthy();
    expect(within(tile('入驻企业')).getByText('3')).toBeTruthy();
    expect(within(tile('文章累计浏览')).getByText('14,490')).toBeTruthy();
    expect(screen.getByText('全平台近 14 天登录')).toBeTruthy();
    expect(screen.getByRole('img', { name: '近 14 天每日发布文章数折线图' }).dataset.points).toBe('0,1,1,0,2,0,0,1,0,0,3,0,0,1');
    expect(screen.getByRole('img', { name: '近 14 天每日注册账号数柱状图' }).dataset.points).toBe('0,0,0,0,0,0,0,0,0,0,0,0,1,3');
    expect(screen.getByText('共 9 篇')).toBeTruthy();
    expect(screen.getByText('共 4 个')).toBeTruthy();
    expect(screen.queryByText(/本企业/)).toBeNull();

    const top = screen.getByRole('link', { name: '开放服务中心上线六类开发者工具' });
    expect(top.getAttribute('href')).toBe('http://localhost:3000/news/detail?id=a1');
    expect(top.getAttribute('target')).toBe('_blank');
    // The most read comes first, with its views.
    const first = within(screen.getByRole('list', { name: '热门文章' })).getAllByRole('listitem')[0]!;
    expect(within(first).getByRole('link').getAttribute('href')).toBe('http://localhost:3000/news/detail?id=a1');
    expect(within(first).getByText('499 次')).toBeTruthy();
  });
});
