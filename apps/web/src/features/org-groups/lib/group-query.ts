import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface PagedSearch {
  keyword: string;
  page: number;
  limit: number;
}

export const INITIAL_SEARCH: PagedSearch = { keyword: '', page: PAGINATION_DEFAULTS.page, limit: PAGINATION_DEFAULTS.limit };

export interface GroupListQuery {
  offset: number;
  limit: number;
  keyword?: string;
}
export type MemberListQuery = GroupListQuery;

/** One page: offset = (page - 1) * limit (spec section 7); an empty keyword is left out. */
export function pagedQuery(search: PagedSearch): GroupListQuery {
  const keyword = search.keyword.trim();
  return { offset: (search.page - 1) * search.limit, limit: search.limit, ...(keyword ? { keyword } : {}) };
}
