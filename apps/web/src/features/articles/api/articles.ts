import { ApiPrefix, type ArticleDetail, type ArticleListItem, type ArticleQuery, type CategoryNode, type PageResult } from '@portal/shared';
import { type QueryClient, keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, ApiError } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { articleListQuery, readArticleListView, shownCategory } from '../lib/article-format';

export type Channel = 'news' | 'knowledge';

export async function getCategories(api: ApiClient, channel: Channel): Promise<CategoryNode[]> {
  return (await api.get<CategoryNode>(`${ApiPrefix.openCms}/category/tree`, { params: { channel } })).data;
}

export const getCategoriesQueryOptions = (channel: Channel) =>
  queryOptions({
    queryKey: queryKeys.categories.tree(channel),
    queryFn: ({ client }) => getCategories(apiOf(client), channel),
    staleTime: 5 * 60_000,
  });

export function useCategories(channel: Channel) {
  return useQuery(getCategoriesQueryOptions(channel));
}

/** Spec section 7: `data[0].rows` and `data[0].total`. Empty filters are not sent. */
export async function getPublishedArticles(api: ApiClient, query: ArticleQuery): Promise<PageResult<ArticleListItem>> {
  const params = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  const res = await api.get<PageResult<ArticleListItem>>(`${ApiPrefix.openCms}/article/published/page/list`, { params });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getPublishedArticlesQueryOptions = (query: ArticleQuery) =>
  queryOptions({
    queryKey: queryKeys.articles.published(query),
    queryFn: ({ client }) => getPublishedArticles(apiOf(client), query),
    placeholderData: keepPreviousData,
  });

export function usePublishedArticles(query: ArticleQuery, enabled = true) {
  return useQuery({ ...getPublishedArticlesQueryOptions(query), enabled });
}

/** The data of /news or /knowledge for a URL (their route loader): the categories, then the view's page of articles. */
export async function loadArticleList(queryClient: QueryClient, channel: Channel, search: URLSearchParams): Promise<void> {
  const categories = await queryClient.ensureQueryData(getCategoriesQueryOptions(channel));
  const view = readArticleListView(search);
  const category = shownCategory(categories, view.category);
  if (category !== undefined) await queryClient.ensureQueryData(getPublishedArticlesQueryOptions(articleListQuery(view, category)));
}

/**
 * A published article, or null when there is none with that id (the server answers 404, or 400 for an
 * id that cannot be one): the page shows its not-found state, not an error. Silent: the page says it.
 */
export async function getArticleDetail(api: ApiClient, id: string): Promise<ArticleDetail | null> {
  try {
    return (
      (await api.get<ArticleDetail>(`${ApiPrefix.openCms}/article/${encodeURIComponent(id)}/detail`, { silent: true })).data[0] ?? null
    );
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return null;
    throw err;
  }
}

export const getArticleDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.articles.detail(id),
    queryFn: ({ client }) => getArticleDetail(apiOf(client), id),
    // Every reading counts a view (the server renderer's call does not), and shows the article as it is now.
    staleTime: 0,
  });

export function useArticleDetail(id: string) {
  return useQuery({ ...getArticleDetailQueryOptions(id), enabled: id !== '' });
}

/** The data of /news/detail or /knowledge/detail (their route loader). */
export async function loadArticleDetail(queryClient: QueryClient, search: URLSearchParams): Promise<void> {
  const id = search.get('id');
  if (id) await queryClient.ensureQueryData(getArticleDetailQueryOptions(id));
}
