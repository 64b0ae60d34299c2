import {
  ApiPrefix,
  type ApiReferenceGroup,
  type OpenServiceTool,
  type OpenServiceToolCard,
  type OpenServiceToolId,
  isOpenServiceToolId,
} from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, type ApiClient } from '@/lib/api-client';
import { apiOf } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

const PORTAL_API = `${ApiPrefix.portal}/open-service`;

/** `GET /tools`: the centre's cards, online tools in display order. */
export async function getOpenServiceTools(api: ApiClient): Promise<OpenServiceToolCard[]> {
  return (await api.get<OpenServiceToolCard>(`${PORTAL_API}/tools`)).data;
}

export const getOpenServiceToolsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.openService.tools, queryFn: ({ client }) => getOpenServiceTools(apiOf(client)) });

export const useOpenServiceTools = () => useQuery(getOpenServiceToolsQueryOptions());

/**
 * `GET /tools/{id}`: a tool's detail, or null when the server answers 404 (unknown or offline). The
 * page shows its own notice for that, so the call is silent; null is an answer like any other, so
 * the server renders the notice and the browser hydrates the same.
 */
export async function getOpenServiceTool(api: ApiClient, id: OpenServiceToolId): Promise<OpenServiceTool | null> {
  try {
    return (await api.get<OpenServiceTool>(`${PORTAL_API}/tools/${id}`, { silent: true })).data[0] ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const getOpenServiceToolQueryOptions = (id: OpenServiceToolId) =>
  queryOptions({ queryKey: queryKeys.openService.tool(id), queryFn: ({ client }) => getOpenServiceTool(apiOf(client), id) });

/** A tool id that is not one of 01–06 is never asked for: the answer is known. */
export function useOpenServiceTool(id: string | null) {
  const valid = id !== null && isOpenServiceToolId(id);
  return useQuery({ ...getOpenServiceToolQueryOptions(valid ? id : '01'), enabled: valid });
}

/**
 * `GET /api-reference`: the public operations, grouped, with examples (built from the OpenAPI
 * document); null when the deployment publishes no API documentation (404, API_DOCS=off), which
 * the page says itself.
 */
export async function getApiReference(api: ApiClient): Promise<ApiReferenceGroup[] | null> {
  try {
    return (await api.get<ApiReferenceGroup>(`${PORTAL_API}/api-reference`, { silent: true })).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const getApiReferenceQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.openService.apiReference,
    queryFn: ({ client }) => getApiReference(apiOf(client)),
    // Changes with releases only.
    staleTime: 10 * 60_000,
  });

export const useApiReference = () => useQuery(getApiReferenceQueryOptions());

/** The data of /open-service for a URL (its route loader): the cards, and the detail `?toolId=` asks for. */
export async function loadOpenService(queryClient: QueryClient, search: URLSearchParams): Promise<void> {
  const toolId = search.get('toolId');
  // Both settle before the page renders, whichever fails.
  await Promise.allSettled([
    queryClient.ensureQueryData(getOpenServiceToolsQueryOptions()),
    toolId !== null && isOpenServiceToolId(toolId) ? queryClient.ensureQueryData(getOpenServiceToolQueryOptions(toolId)) : undefined,
  ]);
}

export async function loadApiReference(queryClient: QueryClient): Promise<void> {
  await queryClient.ensureQueryData(getApiReferenceQueryOptions());
}
