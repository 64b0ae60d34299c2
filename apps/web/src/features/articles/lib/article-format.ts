import { ARTICLE_SORT_ORDERS, type ArticleQuery, type CategoryNode, DEFAULT_ARTICLE_SORT_ORDER } from '@portal/shared';
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

/** The published-list call for the filters of /news or /knowledge. */
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

/** A list view's state: its category (none: the first, spec section 3) and filters. */
export interface ArticleListView extends ArticleListFilters {
  category: string | undefined;
}

/**
 * The query parameters of /news and /knowledge: a list view lives in the URL, so it can be linked
 * and the server renders it. Defaults are left out.
 */
export const ARTICLE_LIST_SEARCH_PARAMS = ['category', 'page', 'keyword', 'sort', 'from', 'to'] as const;

/** Spec section 5: the date filter's bounds are days, yyyy-MM-dd. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Category codes as the server accepts them. */
const CATEGORY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** A page number above this is no page of a real list (and would overflow the offset): malformed. */
export const MAX_ARTICLE_PAGE = 100_000;
/** The server searches on the first 50 characters of a key; the box takes no more. */
export const MAX_SEARCH_KEY_LENGTH = 50;

/** A yyyy-MM-dd that names a day of the calendar (not 2026-02-30). */
function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A whole positive integer written in digits only (not `2.5`, `1e3`, ` 2` or `0x10`). */
function pageNumber(text: string | null): number {
  if (!text || !/^\d{1,6}$/.test(text)) return 1;
  const page = Number(text);
  return page >= 1 && page <= MAX_ARTICLE_PAGE ? page : 1;
}

/**
 * The view a URL asks for. A parameter that makes no sense (a page that is no positive number, an
 * unknown sort, a date that is no day or a range that ends before it starts) falls back to its
 * default, so a mistyped or truncated link still shows a list.
 */
export function readArticleListView(search: URLSearchParams): ArticleListView {
  const category = search.get('category') ?? '';
  const sort = search.get('sort');
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    category: CATEGORY_ID.test(category) ? category : undefined,
    page: pageNumber(search.get('page')),
    searchKey: (search.get('keyword') ?? '').trim().slice(0, MAX_SEARCH_KEY_LENGTH).trim(),
    sortOrder: ARTICLE_SORT_ORDERS.find((o) => String(o.value) === sort)?.value ?? DEFAULT_ARTICLE_SORT_ORDER,
    range: isCalendarDate(from) && isCalendarDate(to) && from <= to ? [from, to] : null,
  };
}

/** The URL query of a view (the inverse of `readArticleListView`). */
export function articleListSearch(view: ArticleListView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.category) search.set('category', view.category);
  if (view.page > 1) search.set('page', String(view.page));
  if (view.searchKey) search.set('keyword', view.searchKey);
  if (view.sortOrder !== DEFAULT_ARTICLE_SORT_ORDER) search.set('sort', String(view.sortOrder));
  if (view.range) {
    search.set('from', view.range[0]);
    search.set('to', view.range[1]);
  }
  return search;
}

/** The category a view shows: the asked one if the channel has it, otherwise the first (spec section 3). */
export function shownCategory(categories: readonly CategoryNode[] | undefined, asked: string | undefined): string | undefined {
  if (asked !== undefined && categories?.some((c) => c.categoryId === asked)) return asked;
  return categories?.[0]?.categoryId;
}
