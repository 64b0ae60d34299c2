import { PAGINATION_DEFAULTS } from '@/components/pagination';
import { type PickedRange, dayRangeFilters } from '@/lib/date-range';
import type { AdminArticleQuery, ArticleStatus } from '../api/articles';

export const ARTICLE_STATUS_NAMES: Record<ArticleStatus, string> = { draft: '草稿', published: '已发布', offline: '已下线' };

export interface ArticleAdminFilters {
  searchKey: string;
  categoryId: string | undefined;
  status: ArticleStatus | undefined;
  /** Publish dates; whole days. */
  range: PickedRange;
  page: number;
  limit: number;
}

export const INITIAL_ARTICLE_ADMIN_FILTERS: ArticleAdminFilters = {
  searchKey: '',
  categoryId: undefined,
  status: undefined,
  range: null,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** The management list call for the filters: offset paging, empty filters left out, whole days. */
export function articleAdminQuery(filters: ArticleAdminFilters): AdminArticleQuery {
  const searchKey = filters.searchKey.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(searchKey ? { searchKey } : {}),
    ...(filters.categoryId ? { categoryId: filters.categoryId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...dayRangeFilters(filters.range),
  };
}
