import { type IdentifierStatsDay, LOOKUP_CHANNELS, type LookupChannel, LookupChannelLabel } from '@portal/shared';
import type { BarSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

export type StatsChartOption = ComposeOption<BarSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

/** One colour per channel, the same in the chart and the legend of the summary. */
export const CHANNEL_COLORS: Record<LookupChannel, string> = {
  web: '#1456d9',
  qr: '#14a37f',
  api: '#7a4fd1',
  upstream: '#d98200',
};
const AXIS = { line: '#c9cdd4', label: '#86909c', split: '#f2f3f5' };

/** `2026-05-07` → `05-07`: ninety labels fit under a narrow chart once ECharts skips some. */
export const dayLabel = (day: string) => day.slice(5);

export type ChannelTotals = Record<LookupChannel, number>;

/** Lookups of the range by channel. */
export function channelTotals(days: readonly IdentifierStatsDay[]): ChannelTotals {
  const totals: ChannelTotals = { web: 0, qr: 0, api: 0, upstream: 0 };
  for (const day of days) for (const channel of LOOKUP_CHANNELS) totals[channel] += day[channel];
  return totals;
}

/** Whether the range has any lookup to draw. */
export const hasLookups = (days: readonly IdentifierStatsDay[]) => days.some((d) => LOOKUP_CHANNELS.some((c) => d[c] > 0));

/**
 * Lookups per China day as stacked bars, one colour per channel (网页查询, 扫码, Handle API, 上游转发);
 * the legend counts each channel over the range, the tooltip lists a day's channels and their sum.
 */
export function dailyOption(days: readonly IdentifierStatsDay[]): StatsChartOption {
  const totals = channelTotals(days);
  const byName = new Map(LOOKUP_CHANNELS.map((c) => [LookupChannelLabel[c], totals[c]]));
  const series: BarSeriesOption[] = LOOKUP_CHANNELS.map((channel) => ({
    type: 'bar',
    name: LookupChannelLabel[channel],
    stack: 'lookups',
    data: days.map((d) => d[channel]),
    barMaxWidth: 22,
    itemStyle: { color: CHANNEL_COLORS[channel] },
    emphasis: { focus: 'series' },
  }));
  return {
    color: LOOKUP_CHANNELS.map((c) => CHANNEL_COLORS[c]),
    legend: {
      top: 0,
      left: 0,
      itemWidth: 10,
      itemHeight: 10,
      formatter: (name) => `${name} ${byName.get(name) ?? 0}`,
    },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (value) => `${String(value)} 次` },
    xAxis: {
      type: 'category',
      data: days.map((d) => dayLabel(d.day)),
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: AXIS.line } },
      axisLabel: { color: AXIS.label, hideOverlap: true },
    },
    yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { color: AXIS.split } }, axisLabel: { color: AXIS.label } },
    series,
  };
}
