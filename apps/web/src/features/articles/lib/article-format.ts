import { type ArticleQuery, DEFAULT_ARTICLE_SORT_ORDER } from '@portal/shared';
import { dateRangeBounds } from '@/lib/article-text';

/** Listing calls page with offset = (page - 1) * limit (spec section 7). */
export function pageOffset(page: number, limit: number): number {
  return (page - 1) * limit;
}

/** Spec section 9: page size 10, first page 1. */
export const ARTICLE_PAGE_SIZE = 10;

export interface ArticleListFilters {
  searchKey: string;
  /** yyyy-MM-dd start and end, or none. */
  range: [string, string] | null;
  sortOrder: number;
  page: number;
}

export const INITIAL_ARTICLE_FILTERS: ArticleListFilters = { searchKey: '', range: null, sortOrder: DEFAULT_ARTICLE_SORT_ORDER, page: 1 };

/** The published-list call for the filters of /news or /knowledge (also what the server renders first). */
export function articleListQuery(filters: ArticleListFilters, filterCategoryId: string | undefined): ArticleQuery {
  return {
    offset: pageOffset(filters.page, ARTICLE_PAGE_SIZE),
    limit: ARTICLE_PAGE_SIZE,
    searchKey: filters.searchKey,
    filterCategoryId,
    ...(filters.range ? dateRangeBounds(filters.range[0], filters.range[1]) : {}),
    sortOrder: filters.sortOrder,
  };
}
