import type { NotificationKind } from '@portal/shared';
import type { NotificationListQuery } from '@/api/notifications';
import { PAGINATION_DEFAULTS } from '@/components/pagination';

export type MessageScope = 'all' | 'unread';

export interface MessageFilters {
  scope: MessageScope;
  kind: NotificationKind | undefined;
  page: number;
  limit: number;
}

export const INITIAL_MESSAGE_FILTERS: MessageFilters = {
  scope: 'all',
  kind: undefined,
  page: PAGINATION_DEFAULTS.page,
  limit: PAGINATION_DEFAULTS.limit,
};

/** One page of messages: offset = (page - 1) * limit (spec section 7); 全部 sends no unread filter. */
export function messageListQuery(filters: MessageFilters): NotificationListQuery {
  return {
    offset: (filters.page - 1) * filters.limit,
    limit: filters.limit,
    ...(filters.scope === 'unread' ? { unread: 1 as const } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
  };
}
