import type { ArticleDetail, ArticleListItem, ArticleQuery, CategoryNode, PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type Channel = 'news' | 'knowledge';

export async function getCategories(channel: Channel): Promise<CategoryNode[]> {
  return (await api().get<CategoryNode>('/open-api/cms/v1/category/tree', { params: { channel } })).data;
}

export const getCategoriesQueryOptions = (channel: Channel) =>
  queryOptions({ queryKey: queryKeys.categories.tree(channel), queryFn: () => getCategories(channel), staleTime: 5 * 60_000 });

export function useCategories(channel: Channel) {
  return useQuery(getCategoriesQueryOptions(channel));
}

/** Spec section 7: `data[0].rows` and `data[0].total`. Empty filters are not sent. */
export async function getPublishedArticles(query: ArticleQuery): Promise<PageResult<ArticleListItem>> {
  const params = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  const res = await api().get<PageResult<ArticleListItem>>('/open-api/cms/v1/article/published/page/list', { params });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getPublishedArticlesQueryOptions = (query: ArticleQuery) =>
  queryOptions({
    queryKey: queryKeys.articles.published(query),
    queryFn: () => getPublishedArticles(query),
    placeholderData: keepPreviousData,
  });

export function usePublishedArticles(query: ArticleQuery, enabled = true) {
  return useQuery({ ...getPublishedArticlesQueryOptions(query), enabled });
}

export async function getArticleDetail(id: string): Promise<ArticleDetail> {
  const article = (await api().get<ArticleDetail>(`/open-api/cms/v1/article/${encodeURIComponent(id)}/detail`)).data[0];
  if (!article) throw new Error('文章不存在');
  return article;
}

export function useArticleDetail(id: string) {
  return useQuery({ queryKey: queryKeys.articles.detail(id), queryFn: () => getArticleDetail(id), enabled: id !== '', staleTime: 0 });
}
