import { ApiPrefix, type ApplicationDetail, type RecommendItem } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, type ApiClient } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

export function useApplications() {
  return useQuery({
    queryKey: queryKeys.applications.published,
    queryFn: async ({ client }): Promise<RecommendItem[]> => (await apiOf(client).get<RecommendItem>(`${ApiPrefix.openApp}/list`)).data,
  });
}

/**
 * Spec section 7: App detail, `GET /open-api/app/v1/dtl?appId=`; null when there is none (the server
 * answers 404, or 400 for an id that cannot be one): the page shows its not-found state, not an error.
 * Silent: the page says it.
 */
export async function getApplicationDetail(api: ApiClient, appId: string): Promise<ApplicationDetail | null> {
  try {
    return (await api.get<ApplicationDetail>(`${ApiPrefix.openApp}/dtl`, { params: { appId }, silent: true })).data[0] ?? null;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return null;
    throw err;
  }
}

export const getApplicationDetailQueryOptions = (appId: string) =>
  queryOptions({ queryKey: queryKeys.applications.detail(appId), queryFn: ({ client }) => getApplicationDetail(apiOf(client), appId) });

export function useApplicationDetail(appId: string) {
  return useQuery({ ...getApplicationDetailQueryOptions(appId), enabled: appId !== '' });
}

/** The data of /product/center/detail (its route loader), so the server renders the application's text. */
export async function loadApplicationDetail(queryClient: QueryClient, search: URLSearchParams): Promise<void> {
  const uuid = search.get('uuid');
  if (uuid) await queryClient.ensureQueryData(getApplicationDetailQueryOptions(uuid));
}
