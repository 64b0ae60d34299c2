import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton } from 'antd';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { sanitizeHtml } from '@/lib/sanitize';
import './static-page.css';

/** Spec section 2: the static-HTML page loader fetches `/static{path}.htm` for a route path. */
export function staticPageUrl(routePath: string): string {
  return `/static${routePath}.htm`;
}

export function StaticPage({ path }: { path: string }) {
  const { data, isPending, isError } = useQuery({
    queryKey: queryKeys.staticPage(path),
    queryFn: () => api().html(staticPageUrl(path)),
    staleTime: 10 * 60_000,
  });
  if (isPending) return <Skeleton active paragraph={{ rows: 8 }} className="static-page" />;
  if (isError) return <Empty className="static-page" description="暂无数据" />;
  return <div className="static-page" dangerouslySetInnerHTML={{ __html: sanitizeHtml(data) }} />;
}
