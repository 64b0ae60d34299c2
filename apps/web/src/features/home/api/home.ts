import {
  ApiPrefix,
  type ArticleListItem,
  DEFAULT_ARTICLE_SORT_ORDER,
  type HomeBlocks,
  type PageResult,
  type RecommendItem,
} from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

/** Spec section 9: the home list asks for 4 and shows 3. */
export const HOME_NEWS_LIMIT = 4;
export const HOME_NEWS_SHOWN = 3;
/** Spec section 9: the carousel shows at most 6 applications. */
export const RECOMMEND_MAX = 6;

export const getHomeBlocksQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.homeBlocks.published,
    queryFn: async ({ client }): Promise<HomeBlocks> => {
      const blocks = (await apiOf(client).get<HomeBlocks>(`${ApiPrefix.portal}/home`)).data[0];
      return blocks ?? { banners: [], links: [], awards: [], kpis: [] };
    },
  });

export const useHomeBlocks = () => useQuery(getHomeBlocksQueryOptions());

export const getLatestNewsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.articles.latestNews,
    queryFn: async ({ client }): Promise<ArticleListItem[]> => {
      const res = await apiOf(client).get<PageResult<ArticleListItem>>(`${ApiPrefix.openCms}/article/published/page/list`, {
        params: { offset: 0, limit: HOME_NEWS_LIMIT, filterCategoryId: 'news', sortOrder: DEFAULT_ARTICLE_SORT_ORDER },
      });
      return (res.data[0]?.rows ?? []).slice(0, HOME_NEWS_SHOWN);
    },
  });

export const useLatestNews = () => useQuery(getLatestNewsQueryOptions());

export const getRecommendedAppsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.applications.recommended,
    queryFn: async ({ client }): Promise<RecommendItem[]> =>
      (await apiOf(client).get<RecommendItem>(`${ApiPrefix.recommendCenter}/list`)).data.slice(0, RECOMMEND_MAX),
  });

export const useRecommendedApps = () => useQuery(getRecommendedAppsQueryOptions());

/** The home page's data (its route loader): banners and blocks, the latest news, the recommended applications. */
export async function loadHome(queryClient: QueryClient): Promise<void> {
  await Promise.allSettled([
    queryClient.ensureQueryData(getHomeBlocksQueryOptions()),
    queryClient.ensureQueryData(getLatestNewsQueryOptions()),
    queryClient.ensureQueryData(getRecommendedAppsQueryOptions()),
  ]);
}
