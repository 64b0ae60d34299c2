import type { IdentityQueryEntry } from '@portal/shared';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { type MarkResult, toMarkResult } from '../lib/mark-result';

/**
 * `GET /web-api/portal/v1/identity/query?handle=` (spec section 7: data is a list, the first element
 * is used). Silent: a failed search shows nothing (spec section 8), so the client does not toast.
 */
export async function getIdentity(handle: string): Promise<IdentityQueryEntry[]> {
  return (await api().get<IdentityQueryEntry>('/web-api/portal/v1/identity/query', { params: { handle }, silent: true })).data;
}

export const getIdentityQueryOptions = (handle: string) =>
  // Every search asks the server again: an identifier's record may have just been written.
  queryOptions({ queryKey: queryKeys.identifiers.identity(handle), queryFn: () => getIdentity(handle), staleTime: 0, gcTime: 60_000 });

/**
 * The lookup's state (spec section 4, "Identity result"): none until a search returns, set on the
 * response, cleared by `clear`. A search runs only for a non-empty keyword (spec section 5); a failed
 * one changes nothing; when searches overlap, the last one wins. `search` resolves true once a
 * result was set.
 */
export function useIdentitySearch() {
  const client = useQueryClient();
  const [result, setResult] = useState<MarkResult | null>(null);
  const [searching, setSearching] = useState(false);
  const latest = useRef(0);

  const search = useCallback(
    async (keyword: string): Promise<boolean> => {
      const handle = keyword.trim();
      if (!handle) return false;
      const ticket = ++latest.current;
      setSearching(true);
      try {
        const data = await client.fetchQuery(getIdentityQueryOptions(handle));
        if (ticket !== latest.current) return false;
        setResult(toMarkResult(data));
        return true;
      } catch {
        // Spec section 8: an identity search failure shows nothing.
        return false;
      } finally {
        if (ticket === latest.current) setSearching(false);
      }
    },
    [client],
  );

  const clear = useCallback(() => {
    latest.current++;
    setSearching(false);
    setResult(null);
  }, []);

  return { result, searching, search, clear };
}
