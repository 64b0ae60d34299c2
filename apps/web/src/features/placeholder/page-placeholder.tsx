import { Button, Result } from 'antd';
import { Link, useMatches } from 'react-router';
import type { RouteHandle } from '@/lib/page-url';
import './page-placeholder.css';

/** Stands in for a page whose feature has not landed yet; names the page and links home. */
export function PagePlaceholder() {
  const matches = useMatches();
  const title = (matches[matches.length - 1]?.handle as RouteHandle | undefined)?.title ?? '';
  return (
    <div className="page-placeholder">
      <section className="page-placeholder__hero">
        <h1>{title}</h1>
        <p>Engineering e+ 工业互联网平台</p>
      </section>
      <Result
        status="info"
        title={`「${title}」栏目建设中`}
        subTitle="该栏目正在建设，敬请期待。"
        extra={
          <Link to="/">
            <Button type="primary">返回首页</Button>
          </Link>
        }
      />
    </div>
  );
}
