import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/lib/api-client';
import { type PageHead, type PageHeadContext, excerpt, htmlText } from '@/lib/page-head';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

/** Spec section 2: the static-HTML page loader fetches `/static{path}.htm` for a route path. */
export function staticPageUrl(routePath: string): string {
  return `/static${routePath}.htm`;
}

export function getStaticPage(api: ApiClient, routePath: string): Promise<string> {
  return api.html(staticPageUrl(routePath));
}

export const getStaticPageQueryOptions = (routePath: string) =>
  queryOptions({
    queryKey: queryKeys.staticPage(routePath),
    queryFn: ({ client }) => getStaticPage(apiOf(client), routePath),
    staleTime: 10 * 60_000,
  });

/** A static page's data (its route loader), so the server renders its text. */
export const loadStaticPage = (routePath: string) => (queryClient: QueryClient) =>
  queryClient.ensureQueryData(getStaticPageQueryOptions(routePath));

/** A static page's head: its first paragraphs describe it (its headings name what the title already says). */
export const staticPageHead =
  (routePath: string) =>
  ({ queryClient }: PageHeadContext): PageHead => {
    const html = queryClient.getQueryData(getStaticPageQueryOptions(routePath).queryKey);
    if (!html) return {};
    const paragraphs = [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p\s*>/gi)].map((m) => htmlText(m[1] ?? ''));
    return { description: excerpt(paragraphs.length ? paragraphs.join(' ') : htmlText(html)) };
  };
