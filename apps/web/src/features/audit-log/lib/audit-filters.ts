import type { AuditOutcome } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';
import { type PickedRange, dateTimeRangeFilters } from '@/lib/date-range';

export const OUTCOME_NAMES: Record<AuditOutcome, string> = { success: '成功', failure: '失败' };

export interface AuditFilters {
  /** Picked with times; a day picked without touching the time runs 00:00:00 – 23:59:59. */
  range: PickedRange;
  /** Account or name. */
  username: string;
  action: string | undefined;
  outcome: AuditOutcome | undefined;
  /** 请求编号: the X-Request-Id a user quotes from an answer or an error. */
  requestId: string;
  page: number;
  limit: number;
}

export const INITIAL_AUDIT_FILTERS: AuditFilters = {
  range: null,
  username: '',
  action: undefined,
  outcome: undefined,
  requestId: '',
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** The filters both the page list and the CSV export take. */
export interface AuditFilterParams {
  filterStartTime?: string;
  filterEndTime?: string;
  username?: string;
  action?: string;
  outcome?: AuditOutcome;
  requestId?: string;
}

export interface AuditListQuery extends AuditFilterParams {
  offset: number;
  limit: number;
}

/** The filters as query parameters; empty ones are left out. */
export function auditFilterParams(filters: AuditFilters): AuditFilterParams {
  const username = filters.username.trim();
  const requestId = filters.requestId.trim();
  return {
    ...dateTimeRangeFilters(filters.range),
    ...(username ? { username } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** One page of the log: offset = (page - 1) * limit (spec section 7). */
export function auditListQuery(filters: AuditFilters): AuditListQuery {
  return { offset: (filters.page - 1) * filters.limit, limit: filters.limit, ...auditFilterParams(filters) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `操作日志-20261120093005.csv` in the browser's local time. */
export function exportFilename(now: Date): string {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `操作日志-${stamp}.csv`;
}
