import { type ArticleQuery, DEFAULT_ARTICLE_SORT_ORDER } from '@portal/shared';

/** Spec section 9: expiry threshold 365 days. */
export const EXPIRY_YEAR_DAYS = 365;

/** Spec section 2: > 365 → years and days; -1 or missing → 长期有效; otherwise the days. */
export function expiryText(expirationDay: number | null | undefined): string {
  if (expirationDay === null || expirationDay === undefined || expirationDay === -1) return '长期有效';
  if (expirationDay > EXPIRY_YEAR_DAYS) {
    const years = Math.floor(expirationDay / EXPIRY_YEAR_DAYS);
    const days = expirationDay % EXPIRY_YEAR_DAYS;
    return days ? `${years}年${days}天` : `${years}年`;
  }
  return `${expirationDay}天`;
}

/** Spec section 2: the first 10 characters of the publish time, or 未发布. */
export function publishDateText(publishTime: string | null | undefined): string {
  return publishTime ? publishTime.slice(0, 10) : '未发布';
}

/** Spec section 5: the range's start gets 00:00:00 and its end 23:59:59 (yyyy-MM-dd). */
export function dateRangeBounds(start: string, end: string): { filterStartTime: string; filterEndTime: string } {
  return { filterStartTime: `${start} 00:00:00`, filterEndTime: `${end} 23:59:59` };
}

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
