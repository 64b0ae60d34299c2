import { ApiPrefix, type ScimTokenRow, type ScimTokenSecret } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** The console API of SCIM 同步's tokens. */
export const SCIM_TOKEN_API = `${ApiPrefix.console}/auth/scim-tokens`;

/** `GET /auth/scim-tokens`: the enterprise's tokens with their last use (never the token). */
export async function getScimTokens(): Promise<ScimTokenRow[]> {
  return (await api().get<ScimTokenRow>(SCIM_TOKEN_API)).data;
}

export const getScimTokensQueryOptions = () => queryOptions({ queryKey: queryKeys.scimTokens.list, queryFn: getScimTokens, staleTime: 0 });

export const useScimTokens = () => useQuery(getScimTokensQueryOptions());

/** 创建: the token, answered this once, with the server's message. Silent: the dialog shows a refusal under the name. */
export async function createScimToken(name: string): Promise<{ msg: string; token: ScimTokenSecret }> {
  const { msg, data } = await api().post<ScimTokenSecret>(SCIM_TOKEN_API, { name }, { silent: true });
  const token = data[0];
  if (!token) throw new Error('服务器未返回访问令牌');
  return { msg, token };
}

export const revokeScimToken = async (id: number) => (await api().delete<unknown>(`${SCIM_TOKEN_API}/${id}`)).msg;

function useScimTokenMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.scimTokens.all }) });
}

export const useCreateScimToken = () => useScimTokenMutation(createScimToken);
export const useRevokeScimToken = () => useScimTokenMutation(revokeScimToken);
