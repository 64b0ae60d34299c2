import { ApiPrefix } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/**
 * `GET /web-api/console/v1/enterprise/certification/file/{id}`: a private file's bytes (certification
 * materials). They are served only with the console's bearer token, so they come through
 * the API client as a blob, never as an `<img src>`; a refused file rejects with the server's message.
 */
export async function getPrivateFile(id: number): Promise<Blob> {
  return api().blob(`${ApiPrefix.console}/enterprise/certification/file/${id}`);
}

export const getPrivateFileQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.privateFile(id),
    queryFn: () => getPrivateFile(id),
    // A stored file never changes; its bytes leave memory soon after the last viewer closes.
    staleTime: Infinity,
    gcTime: 60_000,
  });

export function usePrivateFile(id: number) {
  return useQuery(getPrivateFileQueryOptions(id));
}
