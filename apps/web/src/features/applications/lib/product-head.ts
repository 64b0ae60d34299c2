import { ApiPrefix, type RecommendItem } from '@portal/shared';
import type { QueryClient } from '@tanstack/react-query';
import { type PageHead, type PageHeadContext, excerpt, htmlText } from '@/lib/page-head';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { getApplicationDetailQueryOptions } from '../api/applications';

const PRODUCT_DESCRIPTION = '精选工业 APP，覆盖设备管理、运维服务、数据分析与标识解析';

/** /product's list for the server's render: the query `useApplications` reads, fetched the same way. */
export function loadApplicationList(queryClient: QueryClient): Promise<RecommendItem[]> {
  return queryClient.ensureQueryData({
    queryKey: queryKeys.applications.published,
    queryFn: async ({ client }) => (await apiOf(client).get<RecommendItem>(`${ApiPrefix.openApp}/list`)).data,
  });
}

/** /product's head: what the application center offers, and the first applications by name. */
export function productHead({ queryClient }: PageHeadContext): PageHead {
  const apps = queryClient.getQueryData<RecommendItem[]>(queryKeys.applications.published) ?? [];
  const names = apps.map((a) => a.name).join('、');
  return { description: excerpt(names ? `${PRODUCT_DESCRIPTION}：${names}` : `${PRODUCT_DESCRIPTION}。`) };
}

/**
 * The head of an application's detail: its name, its description (or the start of its text), its
 * picture; an unknown or missing uuid is not found (HTTP 404 from the server), as for articles.
 */
export function applicationHead({ search, queryClient }: PageHeadContext): PageHead {
  const uuid = search.get('uuid') ?? '';
  if (!uuid) return { notFound: true };
  const app = queryClient.getQueryData(getApplicationDetailQueryOptions(uuid).queryKey);
  if (app === null) return { notFound: true };
  if (!app) return {};
  return {
    subject: app.name,
    description: excerpt(app.applicationDescription.trim() || htmlText(app.content)),
    image: app.imagePath,
  };
}
