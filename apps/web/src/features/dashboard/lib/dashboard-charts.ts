import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { DayCount } from '@portal/shared';

export type DailyChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption | TooltipComponentOption>;

/** `2026-05-07` → `05-07`: fourteen labels fit under a narrow chart. */
export function dayLabel(date: string): string {
  return date.slice(5);
}

/** One series per China day, as a line or bars, whole numbers on the axis; `unit` follows the values in the tooltip (次, 篇, 个). */
export function dailyChartOption(
  days: readonly DayCount[],
  kind: 'line' | 'bar',
  name: string,
  color: string,
  unit: string,
): DailyChartOption {
  const data = days.map((d) => d.count);
  const series: LineSeriesOption | BarSeriesOption =
    kind === 'line'
      ? { type: 'line', name, data, symbolSize: 6, areaStyle: { color, opacity: 0.12 }, itemStyle: { color }, lineStyle: { width: 2 } }
      : { type: 'bar', name, data, barMaxWidth: 22, itemStyle: { color, borderRadius: [3, 3, 0, 0] } };
  return {
    color: [color],
    grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${String(value)} ${unit}` },
    xAxis: {
      type: 'category',
      data: days.map((d) => dayLabel(d.date)),
      boundaryGap: kind === 'bar',
      axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: '#c9cdd4' } },
      axisLabel: { color: '#86909c' },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      splitLine: { lineStyle: { color: '#f2f3f5' } },
      axisLabel: { color: '#86909c' },
    },
    series: [series],
  };
}

/** The total of a daily series, shown beside its chart's title. */
export function seriesTotal(days: readonly DayCount[]): number {
  return days.reduce((sum, d) => sum + d.count, 0);
}
