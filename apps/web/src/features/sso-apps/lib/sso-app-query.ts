import type { SsoApplicationStatus } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface SsoAppFilters {
  /** Part of the 名称 or 分类. */
  keyword: string;
  status: SsoApplicationStatus | undefined;
  page: number;
  limit: number;
}

export const INITIAL_SSO_APP_FILTERS: SsoAppFilters = {
  keyword: '',
  status: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

export interface SsoAppListQuery {
  offset: number;
  limit: number;
  keyword?: string;
  status?: SsoApplicationStatus;
}

/** One page of applications: offset = (page - 1) * limit; empty filters are left out. */
export function ssoAppListQuery(filters: SsoAppFilters): SsoAppListQuery {
  const keyword = filters.keyword.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(keyword ? { keyword } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}
