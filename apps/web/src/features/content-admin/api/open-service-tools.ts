import { ApiPrefix, type OpenServiceToolAdmin, type OpenServiceToolBody } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const BASE = `${ApiPrefix.console}/open-service/tool`;

/** `GET /tool/list`: the six tools of the open-service centre, offline ones too. */
export async function getAdminOpenServiceTools(): Promise<OpenServiceToolAdmin[]> {
  return (await api().get<OpenServiceToolAdmin>(`${BASE}/list`)).data;
}

export const getAdminOpenServiceToolsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.openService.admin, queryFn: getAdminOpenServiceTools, staleTime: 10_000 });

export const useAdminOpenServiceTools = () => useQuery(getAdminOpenServiceToolsQueryOptions());

/** The editable fields of a tool, e.g. to flip 上线/下线 and send the rest unchanged. */
export function openServiceToolBody(tool: OpenServiceToolAdmin): OpenServiceToolBody {
  const { title, summary, body, icon, sort, status } = tool;
  return { title, summary, body, icon, sort, status };
}

/** `PUT /tool/{id}`: answers the server's message. */
export const updateOpenServiceTool = async ({ id, body }: { id: string; body: OpenServiceToolBody }) =>
  (await api().put<OpenServiceToolAdmin>(`${BASE}/${encodeURIComponent(id)}`, body)).msg;

/** A tool write: the console list and the centre open in this tab (cards, details) reload. */
export function useUpdateOpenServiceTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOpenServiceTool,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.openService.all }),
  });
}
