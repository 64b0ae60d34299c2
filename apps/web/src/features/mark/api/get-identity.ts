import { ApiPrefix, type IdentityQueryEntry, QR_SOURCE_PARAM, QR_SOURCE_VALUE } from '@portal/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback } from 'react';
import type { ApiClient } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { toMarkResult } from '../lib/mark-result';

/**
 * `GET /web-api/portal/v1/identity/query?handle=` (spec section 7: data is a list, the first element
 * is used). Silent: the page shows a refusal's reason itself, never as an error toast (spec section 8).
 * `scanned`: the lookup comes from a printed label's QR code, which the server counts as 扫码.
 */
export async function getIdentity(api: ApiClient, handle: string, scanned = false): Promise<IdentityQueryEntry[]> {
  const params = scanned ? { handle, [QR_SOURCE_PARAM]: QR_SOURCE_VALUE } : { handle };
  return (await api.get<IdentityQueryEntry>(`${ApiPrefix.portal}/identity/query`, { params, silent: true })).data;
}

/**
 * One identifier's lookup. `scanned` is read when the lookup is sent, so a search typed on a page a QR
 * code opened is no longer counted as a scan even when it asks for the same identifier again.
 */
export const getIdentityQueryOptions = (handle: string, scanned?: RefObject<boolean>) =>
  queryOptions({
    queryKey: queryKeys.identifiers.identity(handle),
    queryFn: ({ client }) => getIdentity(apiOf(client), handle, scanned?.current ?? false),
    select: toMarkResult,
    gcTime: 60_000,
    // Every arrival is a lookup the owner's 标识统计 counts (the server renderer's own call is not), and
    // shows the record as it is now: a page the server rendered asks again once in the browser.
    staleTime: 0,
  });

/**
 * The lookup of the address's keyword (spec section 4, "Identity result"): none until a search
 * returns, then the result of that keyword only. A search runs only for a non-empty keyword (spec
 * section 5). The result belongs to its keyword, so a later search never shows an earlier record.
 */
export function useIdentity(keyword: string, scanned?: RefObject<boolean>) {
  const handle = keyword.trim();
  return useQuery({ ...getIdentityQueryOptions(handle, scanned), enabled: handle !== '' });
}

/**
 * Forgets what an identifier's earlier search returned, so the next search shows nothing until the
 * server answers again (an identifier's record may have just been written); a search on the page's
 * own keyword asks again at once.
 */
export function useForgetIdentity() {
  const client = useQueryClient();
  return useCallback((keyword: string) => client.resetQueries({ queryKey: queryKeys.identifiers.identity(keyword.trim()) }), [client]);
}
