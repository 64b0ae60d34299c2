import type { AccountState } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

export interface AccountFilters {
  /** Part of the 账号, 姓名 or 手机号. */
  keyword: string;
  state: AccountState | undefined;
  groupId: number | undefined;
  roleId: number | undefined;
  page: number;
  limit: number;
}

export const INITIAL_ACCOUNT_FILTERS: AccountFilters = {
  keyword: '',
  state: undefined,
  groupId: undefined,
  roleId: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** The filters both the list and the export take. */
export interface AccountFilterParams {
  keyword?: string;
  state?: AccountState;
  groupId?: number;
  roleId?: number;
}

export interface AccountListQuery extends AccountFilterParams {
  offset: number;
  limit: number;
}

/** The filters as query parameters; empty ones are left out. */
export function accountFilterParams(filters: AccountFilters): AccountFilterParams {
  const keyword = filters.keyword.trim();
  return {
    ...(keyword ? { keyword } : {}),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.groupId !== undefined ? { groupId: filters.groupId } : {}),
    ...(filters.roleId !== undefined ? { roleId: filters.roleId } : {}),
  };
}

/** One page of accounts: offset = (page - 1) * limit. */
export function accountListQuery(filters: AccountFilters): AccountListQuery {
  return { offset: (filters.page - 1) * filters.limit, limit: filters.limit, ...accountFilterParams(filters) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `账号-20261120093005.csv` in the browser's local time. */
export function exportFilename(now: Date): string {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `账号-${stamp}.csv`;
}
