import { Result } from 'antd';

/** Placeholder until the page lands. */
export function TemplateAdminPage() {
  return <Result status="info" title="前缀与模板" subTitle="该页面正在建设中" />;
}
