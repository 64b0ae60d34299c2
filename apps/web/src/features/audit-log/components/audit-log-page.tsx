import { Result } from 'antd';

/** Placeholder until the page lands. */
export function AuditLogPage() {
  return <Result status="info" title="操作日志" subTitle="该页面正在建设中" />;
}
