import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton } from 'antd';
import { getStaticPageQueryOptions } from '@/api/get-static-page';
import { canSanitizeHtml, sanitizeHtml } from '@/lib/sanitize';
import './static-page.css';

/** A static HTML page of the server (spec section 2's static-page loader), cleaned before it is shown. */
export function StaticPage({ path }: { path: string }) {
  const { data, isPending, isError } = useQuery(getStaticPageQueryOptions(path));
  if (isPending) return <Skeleton active paragraph={{ rows: 8 }} className="static-page" />;
  if (isError) return <Empty className="static-page" description="暂无数据" />;
  return <div className="static-page" dangerouslySetInnerHTML={{ __html: canSanitizeHtml ? sanitizeHtml(data) : data }} />;
}
