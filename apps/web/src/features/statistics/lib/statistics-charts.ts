import { ACCOUNT_STATE_LABELS, type AccountState } from '@portal/shared';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { Statistics } from '../api/get-statistics';

export type StatisticsChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

export const SUCCESS_COLOR = '#14a37f';
export const FAILURE_COLOR = '#e5484d';
const AXIS = { line: '#c9cdd4', label: '#86909c', split: '#f2f3f5' };
const STATE_COLORS: Record<AccountState, string> = { active: '#1456d9', locked: '#ffb020', disabled: '#c9cdd4' };

/** `2026-05-07` → `05-07`: thirty labels fit under a narrow chart. */
export const dayLabel = (date: string) => date.slice(5);

export interface SignInTotals {
  success: number;
  failure: number;
}

export function signInTotals(days: Statistics['signInsPerDay']): SignInTotals {
  return days.reduce((t, d) => ({ success: t.success + d.success, failure: t.failure + d.failure }), { success: 0, failure: 0 });
}

/** Sign-ins per China day: successes and failures as two lines, whole numbers on the axis. */
export function signInsOption(days: Statistics['signInsPerDay']): StatisticsChartOption {
  const line = (name: string, color: string, data: number[]): LineSeriesOption => ({
    type: 'line',
    name,
    data,
    symbolSize: 5,
    itemStyle: { color },
    lineStyle: { width: 2 },
    areaStyle: { color, opacity: 0.08 },
  });
  return {
    color: [SUCCESS_COLOR, FAILURE_COLOR],
    legend: { top: 0, right: 0, itemWidth: 14, itemHeight: 8 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${String(value)} 次` },
    xAxis: {
      type: 'category',
      data: days.map((d) => dayLabel(d.date)),
      boundaryGap: false,
      axisLine: { lineStyle: { color: AXIS.line } },
      axisLabel: { color: AXIS.label },
    },
    yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { color: AXIS.split } }, axisLabel: { color: AXIS.label } },
    series: [
      line(
        '成功',
        SUCCESS_COLOR,
        days.map((d) => d.success),
      ),
      line(
        '失败',
        FAILURE_COLOR,
        days.map((d) => d.failure),
      ),
    ],
  };
}

/** Sign-ins per application as horizontal bars, the most used on top. */
export function applicationsOption(apps: Statistics['signInsPerApplication']): StatisticsChartOption {
  // ECharts draws a category axis from the bottom up: ascending order puts the largest first.
  const sorted = [...apps].sort((a, b) => a.count - b.count);
  return {
    color: ['#1456d9'],
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (value) => `${String(value)} 次` },
    xAxis: {
      type: 'value',
      minInterval: 1,
      splitNumber: 4,
      splitLine: { lineStyle: { color: AXIS.split } },
      axisLabel: { color: AXIS.label, hideOverlap: true },
    },
    yAxis: {
      type: 'category',
      data: sorted.map((a) => a.name),
      axisLine: { lineStyle: { color: AXIS.line } },
      axisLabel: { color: '#4e5969', width: 96, overflow: 'truncate' },
    },
    series: [
      { type: 'bar', name: '登录次数', data: sorted.map((a) => a.count), barMaxWidth: 18, itemStyle: { borderRadius: [0, 3, 3, 0] } },
    ],
  };
}

const STATES: AccountState[] = ['active', 'locked', 'disabled'];

/** All the enterprise's accounts, whatever their state. */
export const accountTotal = (byStatus: Statistics['accountsByStatus']) => byStatus.active + byStatus.disabled + byStatus.locked;

/** Accounts by state as a ring: 正常, 锁定, 停用, each counted in the legend (a narrow card has no room for outside labels). */
export function accountStatusOption(byStatus: Statistics['accountsByStatus']): StatisticsChartOption {
  const data = STATES.map((s) => ({ name: ACCOUNT_STATE_LABELS[s], value: byStatus[s], itemStyle: { color: STATE_COLORS[s] } }));
  const counts = new Map(data.map((d) => [d.name, d.value]));
  return {
    legend: { bottom: 0, itemWidth: 10, itemHeight: 10, formatter: (name) => `${name} ${counts.get(name) ?? 0}` },
    tooltip: { trigger: 'item', valueFormatter: (value) => `${String(value)} 个` },
    series: [
      {
        type: 'pie',
        name: '账号状态',
        radius: ['48%', '72%'],
        center: ['50%', '44%'],
        label: { show: false },
        data,
      },
    ],
  };
}

/** Share of accounts with two-factor enrolled, in whole per cent (0 without accounts). */
export function coveragePercent({ enabled, notEnabled }: Statistics['twoFactor']): number {
  const total = enabled + notEnabled;
  return total > 0 ? Math.round((enabled / total) * 100) : 0;
}

/** Whether a statistics answer has anything to draw: a brand-new enterprise has no sign-ins yet. */
export const hasSignIns = (days: Statistics['signInsPerDay']) => days.some((d) => d.success > 0 || d.failure > 0);
