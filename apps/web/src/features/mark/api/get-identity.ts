import type { IdentityQueryEntry } from '@portal/shared';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiClient } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { toMarkResult } from '../lib/mark-result';

/**
 * `GET /web-api/portal/v1/identity/query?handle=` (spec section 7: data is a list, the first element
 * is used). Silent: the page shows a refusal's reason itself, never as an error toast (spec section 8).
 */
export async function getIdentity(api: ApiClient, handle: string): Promise<IdentityQueryEntry[]> {
  return (await api.get<IdentityQueryEntry>('/web-api/portal/v1/identity/query', { params: { handle }, silent: true })).data;
}

export const getIdentityQueryOptions = (handle: string) =>
  queryOptions({
    queryKey: queryKeys.identifiers.identity(handle),
    queryFn: ({ client }) => getIdentity(apiOf(client), handle),
    select: toMarkResult,
    gcTime: 60_000,
  });

/**
 * The lookup of the address's keyword (spec section 4, "Identity result"): none until a search
 * returns, then the result of that keyword only. A search runs only for a non-empty keyword (spec
 * section 5). The result belongs to its keyword, so a later search never shows an earlier record.
 */
export function useIdentity(keyword: string) {
  const handle = keyword.trim();
  return useQuery({ ...getIdentityQueryOptions(handle), enabled: handle !== '' });
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
