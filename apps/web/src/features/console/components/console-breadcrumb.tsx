import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import type { ConsoleRoute } from '../console-route';

/** Spec section 2: the breadcrumb of the matched routes with titles; a group without a page is text. */
export function ConsoleBreadcrumb({ chain }: { chain: readonly ConsoleRoute[] }) {
  const items = chain
    .filter((r) => r.title)
    .map((r, i, all) => ({
      key: r.path,
      title: r.component && i < all.length - 1 ? <Link to={r.path}>{r.title}</Link> : <span>{r.title}</span>,
    }));
  return <Breadcrumb className="console-breadcrumb" aria-label="当前位置" items={items} />;
}
