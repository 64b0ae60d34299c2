import { ApiPrefix } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type Channel = 'news' | 'knowledge';

/** `GET /web-api/cms/v1/category/list`: every category, flat, with its article count. */
export interface AdminCategory {
  id: number;
  categoryId: string;
  categoryName: string;
  channel: Channel;
  parentId: string | null;
  sort: number;
  articleCount: number;
}

export interface CategoryInput {
  code: string;
  name: string;
  channel: Channel;
  parentId?: string | null;
  sort?: number;
}

export async function getAdminCategories(): Promise<AdminCategory[]> {
  return (await api().get<AdminCategory>(`${ApiPrefix.cms}/category/list`)).data;
}

export const getAdminCategoriesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.categories.admin, queryFn: getAdminCategories, staleTime: 30_000 });

export function useAdminCategories() {
  return useQuery(getAdminCategoriesQueryOptions());
}

export const createCategory = async (input: CategoryInput) =>
  (await api().post<{ categoryId: string }>(`${ApiPrefix.cms}/category`, input)).msg;
export const updateCategory = async ({ code, name, sort }: { code: string; name: string; sort?: number }) =>
  (await api().put<unknown>(`${ApiPrefix.cms}/category/${encodeURIComponent(code)}`, { name, ...(sort === undefined ? {} : { sort }) }))
    .msg;
export const deleteCategory = async (code: string) =>
  (await api().delete<unknown>(`${ApiPrefix.cms}/category/${encodeURIComponent(code)}`)).msg;

/** A category write: the console list, the public category tabs and the articles (their category names) reload afterwards. */
function useCategoryMutation<T>(write: (input: T) => Promise<string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.categories.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.articles.all }),
      ]),
  });
}

export const useCreateCategory = () => useCategoryMutation(createCategory);
export const useUpdateCategory = () => useCategoryMutation(updateCategory);
export const useDeleteCategory = () => useCategoryMutation(deleteCategory);
