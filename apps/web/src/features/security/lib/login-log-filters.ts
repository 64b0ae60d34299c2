import type { LoginLogRow } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';
import { type PickedRange, dateTimeRangeFilters } from '@/lib/date-range';

export type LoginResult = LoginLogRow['result'];

export { LOGIN_LOG_EXPORT_MAX_ROWS } from '@portal/shared';
export const LOGIN_RESULT_NAMES: Record<LoginResult, string> = { success: '成功', failure: '失败', logout: '登出' };

export interface LoginLogFilters {
  /** Picked with times; a day picked without touching the time runs 00:00:00 – 23:59:59 (China time, as the server stores it). */
  range: PickedRange;
  /** Account or name, matched whole. */
  username: string;
  result: LoginResult | undefined;
  /** An application's id, or 0 for the portal itself. */
  applicationId: number | undefined;
  page: number;
  limit: number;
}

export const INITIAL_LOGIN_LOG_FILTERS: LoginLogFilters = {
  range: null,
  username: '',
  result: undefined,
  applicationId: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** The filters both the page list and the CSV export take. */
export interface LoginLogFilterParams {
  filterStartTime?: string;
  filterEndTime?: string;
  username?: string;
  result?: LoginResult;
  applicationId?: number;
}

export interface LoginLogListQuery extends LoginLogFilterParams {
  offset: number;
  limit: number;
}

/** The filters as query parameters; empty ones are left out. */
export function loginLogFilterParams(filters: LoginLogFilters): LoginLogFilterParams {
  const username = filters.username.trim();
  return {
    ...dateTimeRangeFilters(filters.range),
    ...(username ? { username } : {}),
    ...(filters.result ? { result: filters.result } : {}),
    ...(filters.applicationId !== undefined ? { applicationId: filters.applicationId } : {}),
  };
}

/** One page of the log: offset = (page - 1) * limit (spec section 7). */
export function loginLogListQuery(filters: LoginLogFilters): LoginLogListQuery {
  return { offset: (filters.page - 1) * filters.limit, limit: filters.limit, ...loginLogFilterParams(filters) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `登录日志-20261120093005.csv` in the browser's local time. */
export function exportFilename(now: Date): string {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `登录日志-${stamp}.csv`;
}
