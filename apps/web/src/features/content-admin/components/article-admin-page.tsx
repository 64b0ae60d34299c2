import { Result } from 'antd';

/** Placeholder until the page lands. */
export function ArticleAdminPage() {
  return <Result status="info" title="文章管理" subTitle="该页面正在建设中" />;
}
