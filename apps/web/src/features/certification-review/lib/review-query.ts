import type { CertificationApplication } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';
import { type PickedRange, dayRangeFilters } from '@/lib/date-range';

export type ApplicationStatus = CertificationApplication['status'];

export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: '待审核',
  approved: '已通过',
  rejected: '已驳回',
};
export const APPLICATION_STATUS_COLORS: Record<ApplicationStatus, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** The 状态 filter: one status, or every application. */
export type StatusFilter = ApplicationStatus | 'all';

export interface ReviewFilters {
  /** 待审核 unless the reviewer asks for another. */
  status: StatusFilter;
  /** Submission days, whole days. */
  range: PickedRange;
  /** Part of the enterprise's name or credit code. */
  keyword: string;
  page: number;
  limit: number;
}

export const INITIAL_REVIEW_FILTERS: ReviewFilters = {
  status: 'pending',
  range: null,
  keyword: '',
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

export interface ReviewListQuery {
  offset: number;
  limit: number;
  /** '' for every status. */
  status: ApplicationStatus | '';
  keyword?: string;
  filterStartTime?: string;
  filterEndTime?: string;
}

/** One page of the queue: offset = (page - 1) * limit (spec section 7); days run 00:00:00–23:59:59 (spec section 5). */
export function reviewListQuery(filters: ReviewFilters): ReviewListQuery {
  const keyword = filters.keyword.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    status: filters.status === 'all' ? '' : filters.status,
    ...(keyword ? { keyword } : {}),
    ...dayRangeFilters(filters.range),
  };
}

/** Whether two queue queries ask the server the same thing. */
export function sameQuery(a: ReviewListQuery, b: ReviewListQuery): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof ReviewListQuery)[]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** 138****0001: the queue shows who applied without listing whole phone numbers. */
export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}
