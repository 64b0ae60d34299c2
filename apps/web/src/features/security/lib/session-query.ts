import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface SessionFilters {
  /** Part of the 账号 or 姓名. */
  keyword: string;
  page: number;
  limit: number;
}

export const INITIAL_SESSION_FILTERS: SessionFilters = { keyword: '', page: PAGINATION_DEFAULTS.page, limit: PAGINATION_DEFAULTS.limit };

export interface SessionListQuery {
  keyword?: string;
  offset: number;
  limit: number;
}

/** One page of sessions: offset = (page - 1) * limit; an empty keyword is left out. */
export function sessionListQuery(filters: SessionFilters): SessionListQuery {
  const keyword = filters.keyword.trim();
  return { offset: (filters.page - 1) * filters.limit, limit: filters.limit, ...(keyword ? { keyword } : {}) };
}
