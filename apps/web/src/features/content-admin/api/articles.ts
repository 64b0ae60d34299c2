import { ApiPrefix, type PageResult } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type ArticleStatus = 'draft' | 'published' | 'offline';

export interface AdminArticleRow {
  id: number;
  uuid: string;
  title: string;
  summary: string;
  thumbnail: string | null;
  number: string | null;
  categoryId: string;
  categoryName: string;
  dataSourceName: string | null;
  expirationDay: number | null;
  status: ArticleStatus;
  /** `yyyy-MM-dd HH:mm:ss` China time, empty until first published. */
  publishTime: string;
  viewCount: number;
  /** ISO instant. */
  updatedAt: string;
}

export interface AdminArticle extends AdminArticleRow {
  content: string;
}

/** `GET /web-api/cms/v1/article/page/list` parameters (empty filters are left out). */
export interface AdminArticleQuery {
  offset: number;
  limit: number;
  searchKey?: string;
  categoryId?: string;
  status?: ArticleStatus;
  filterStartTime?: string;
  filterEndTime?: string;
}

export interface ArticleInput {
  title: string;
  summary: string;
  thumbnail: string | null;
  content: string;
  number: string | null;
  categoryId: string;
  dataSourceName: string | null;
  expirationDay: number | null;
}

export async function getAdminArticles(query: AdminArticleQuery): Promise<PageResult<AdminArticleRow>> {
  const res = await api().get<PageResult<AdminArticleRow>>(`${ApiPrefix.cms}/article/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getAdminArticlesQueryOptions = (query: AdminArticleQuery) =>
  queryOptions({
    queryKey: queryKeys.articles.adminList(query),
    queryFn: () => getAdminArticles(query),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function useAdminArticles(query: AdminArticleQuery) {
  return useQuery(getAdminArticlesQueryOptions(query));
}

export async function getAdminArticle(uuid: string): Promise<AdminArticle> {
  const article = (await api().get<AdminArticle>(`${ApiPrefix.cms}/article/${encodeURIComponent(uuid)}`)).data[0];
  if (!article) throw new Error('文章不存在');
  return article;
}

export const getAdminArticleQueryOptions = (uuid: string) =>
  queryOptions({ queryKey: queryKeys.articles.adminDetail(uuid), queryFn: () => getAdminArticle(uuid), staleTime: 0 });

export function useAdminArticle(uuid: string | undefined) {
  return useQuery({ ...getAdminArticleQueryOptions(uuid ?? ''), enabled: Boolean(uuid) });
}

export interface ArticleWriteResult {
  article: AdminArticle;
  msg: string;
}

const written = (res: { data: AdminArticle[]; msg: string }): ArticleWriteResult => {
  const article = res.data[0];
  if (!article) throw new Error('服务器未返回文章');
  return { article, msg: res.msg };
};

export const createArticle = async (input: ArticleInput) => written(await api().post<AdminArticle>(`${ApiPrefix.cms}/article`, input));
export const updateArticle = async ({ uuid, input }: { uuid: string; input: ArticleInput }) =>
  written(await api().put<AdminArticle>(`${ApiPrefix.cms}/article/${encodeURIComponent(uuid)}`, input));
export const publishArticle = async (uuid: string) =>
  written(await api().post<AdminArticle>(`${ApiPrefix.cms}/article/${encodeURIComponent(uuid)}/publish`));
export const unpublishArticle = async (uuid: string) =>
  written(await api().post<AdminArticle>(`${ApiPrefix.cms}/article/${encodeURIComponent(uuid)}/unpublish`));
export const deleteArticle = async (uuid: string) =>
  (await api().delete<unknown>(`${ApiPrefix.cms}/article/${encodeURIComponent(uuid)}`)).msg;

/** An article write: every view of the articles (console and public) and the categories' article counts reload afterwards. */
function useArticleMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.articles.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.categories.admin }),
      ]),
  });
}

export const useCreateArticle = () => useArticleMutation(createArticle);
export const useUpdateArticle = () => useArticleMutation(updateArticle);
export const usePublishArticle = () => useArticleMutation(publishArticle);
export const useUnpublishArticle = () => useArticleMutation(unpublishArticle);
export const useDeleteArticle = () => useArticleMutation(deleteArticle);
