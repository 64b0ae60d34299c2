import { Result } from 'antd';

/** Placeholder until the page lands. */
export function CategoryAdminPage() {
  return <Result status="info" title="栏目管理" subTitle="该页面正在建设中" />;
}
