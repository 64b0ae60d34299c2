import {
  ApiPrefix,
  type MachineClientBody,
  type MachineClientRow,
  type MachineClientSecret,
  type MachineClientStatus,
  type PageResult,
} from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** The console API of 机器客户端. */
export const MACHINE_CLIENT_API = `${ApiPrefix.console}/machine-client`;

export interface MachineClientListQuery {
  offset: number;
  limit: number;
  keyword?: string;
}

/** `GET /machine-client/page/list`: one page of the enterprise's machine clients. */
export async function getMachineClients(query: MachineClientListQuery): Promise<PageResult<MachineClientRow>> {
  return (
    (await api().get<PageResult<MachineClientRow>>(`${MACHINE_CLIENT_API}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 }
  );
}

export const getMachineClientsQueryOptions = (query: MachineClientListQuery) =>
  queryOptions({
    queryKey: queryKeys.machineClients.page(query),
    queryFn: () => getMachineClients(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const useMachineClients = (query: MachineClientListQuery) => useQuery(getMachineClientsQueryOptions(query));

/** The secret of 新建 and 重置密钥, with the server's message; nothing else ever answers it. */
const secretOf = async (answer: Promise<{ msg: string; data: MachineClientSecret[] }>) => {
  const { msg, data } = await answer;
  const secret = data[0];
  if (!secret) throw new Error('服务器未返回客户端密钥');
  return { msg, secret };
};

// 新增 and 编辑 are silent: the dialog shows a refusal under the field it names, or toasts it.
export const createMachineClient = (body: MachineClientBody) =>
  secretOf(api().post<MachineClientSecret>(MACHINE_CLIENT_API, body, { silent: true }));
export const updateMachineClient = async ({ id, body }: { id: number; body: Pick<MachineClientBody, 'name' | 'scopes'> }) =>
  (await api().put<unknown>(`${MACHINE_CLIENT_API}/${id}`, body, { silent: true })).msg;
export const resetMachineClientSecret = (id: number) => secretOf(api().post<MachineClientSecret>(`${MACHINE_CLIENT_API}/${id}/secret`, {}));
export const setMachineClientStatus = async ({ id, status }: { id: number; status: MachineClientStatus }) =>
  (await api().put<unknown>(`${MACHINE_CLIENT_API}/${id}/status`, { status })).msg;
export const deleteMachineClient = async (id: number) => (await api().delete<unknown>(`${MACHINE_CLIENT_API}/${id}`)).msg;

function useMachineClientMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.machineClients.all }) });
}

export const useCreateMachineClient = () => useMachineClientMutation(createMachineClient);
export const useUpdateMachineClient = () => useMachineClientMutation(updateMachineClient);
export const useResetMachineClientSecret = () => useMachineClientMutation(resetMachineClientSecret);
export const useSetMachineClientStatus = () => useMachineClientMutation(setMachineClientStatus);
export const useDeleteMachineClient = () => useMachineClientMutation(deleteMachineClient);
