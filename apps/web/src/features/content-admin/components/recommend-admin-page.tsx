import { Result } from 'antd';

/** Placeholder until the page lands. */
export function RecommendAdminPage() {
  return <Result status="info" title="推荐应用" subTitle="该页面正在建设中" />;
}
