import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { DailyChartOption } from '../lib/dashboard-charts';

// Only what the dashboard draws: keeps the console chunk small and echarts out of the public site.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

/** An ECharts chart that follows its container's size (also after its tab is shown again). */
export function DailyChart({ option, label, height = 280 }: { option: DailyChartOption; label: string; height?: number }) {
  return (
    <div role="img" aria-label={label}>
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height, width: '100%' }} autoResize />
    </div>
  );
}
