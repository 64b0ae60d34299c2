import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { StatsChartOption } from '../lib/stats-charts';

// Only what 标识统计 draws; this module loads with the page's own chunk, never with the public site.
echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** An ECharts chart that follows its container's size (also after its tab is shown again). */
export function StatsChart({ option, label, height = 300 }: { option: StatsChartOption; label: string; height?: number }) {
  return (
    <div role="img" aria-label={label}>
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height, width: '100%' }} autoResize />
    </div>
  );
}
