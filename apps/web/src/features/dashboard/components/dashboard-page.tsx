import { Result } from 'antd';

/** Placeholder until the page lands. */
export function DashboardPage() {
  return <Result status="info" title="工作台" subTitle="该页面正在建设中" />;
}
