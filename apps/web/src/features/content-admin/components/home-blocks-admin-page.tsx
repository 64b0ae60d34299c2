import { Result } from 'antd';

/** Placeholder until the page lands. */
export function HomeBlocksAdminPage() {
  return <Result status="info" title="首页配置" subTitle="该页面正在建设中" />;
}
