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

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The view a URL asks for; a parameter that makes no sense falls back to its default. */
export function readArticleListView(search: URLSearchParams): ArticleListView {
  const page = Number(search.get('page'));
  const sort = Number(search.get('sort'));
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    category: search.get('category') || undefined,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    searchKey: search.get('keyword')?.trim() ?? '',
    sortOrder: ARTICLE_SORT_ORDERS.some((o) => o.value === sort) ? sort : DEFAULT_ARTICLE_SORT_ORDER,
    range: DATE.test(from) && DATE.test(to) ? [from, to] : null,
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
