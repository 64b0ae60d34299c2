import { type AppSubscriptionStatus, SUBSCRIPTION_NOTE_MAX, SubscriptionMessage } from '@portal/shared';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

/** The 状态 filter: one status, or every subscription. */
export type StatusFilter = AppSubscriptionStatus | 'all';

export interface SubscriptionFilters {
  /** 待审核 unless the operator asks for another. */
  status: StatusFilter;
  /** Part of the enterprise's or the application's name. */
  keyword: string;
  page: number;
  limit: number;
}

export const INITIAL_SUBSCRIPTION_FILTERS: SubscriptionFilters = {
  status: 'pending',
  keyword: '',
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

export interface SubscriptionListQuery {
  offset: number;
  limit: number;
  status?: AppSubscriptionStatus;
  keyword?: string;
}

/** One page of the queue: offset = (page - 1) * limit (spec section 7); 全部状态 and an empty keyword are left out. */
export function subscriptionListQuery(filters: SubscriptionFilters): SubscriptionListQuery {
  const keyword = filters.keyword.trim();
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(filters.status === 'all' ? {} : { status: filters.status }),
    ...(keyword ? { keyword } : {}),
  };
}

/** Whether two queue queries ask the server the same thing. */
export function sameQuery(a: SubscriptionListQuery, b: SubscriptionListQuery): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof SubscriptionListQuery)[]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** 驳回 and 撤销: the operator's reason, which the enterprise reads on the application's detail. */
export type Decision = 'reject' | 'revoke';

const NOTE_REQUIRED: Record<Decision, string> = {
  reject: SubscriptionMessage.rejectNoteRequired,
  revoke: SubscriptionMessage.revokeNoteRequired,
};

/** A reason is required and fits SUBSCRIPTION_NOTE_MAX characters (the server's rule and words). */
export function noteProblem(decision: Decision, value: string): string | undefined {
  const text = value.trim();
  if (!text) return NOTE_REQUIRED[decision];
  return [...text].length > SUBSCRIPTION_NOTE_MAX ? SubscriptionMessage.noteTooLong : undefined;
}
