import { Result } from 'antd';

/** Placeholder until the page lands. */
export function RecordAdminPage() {
  return <Result status="info" title="标识记录" subTitle="该页面正在建设中" />;
}
