import type { SsoAppGrants, SsoAppGrantsBody } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { SSO_APP_API, useSsoAppMutation } from './sso-apps';

/** `GET /sso-app/{id}/grants`: who may sign in to the application. */
export async function getSsoAppGrants(id: number): Promise<SsoAppGrants> {
  const grants = (await api().get<SsoAppGrants>(`${SSO_APP_API}/${id}/grants`)).data[0];
  if (!grants) throw new Error('服务器未返回授权信息');
  return grants;
}

export const getSsoAppGrantsQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.ssoApps.grants(id), queryFn: () => getSsoAppGrants(id), staleTime: 0 });

export function useSsoAppGrants(id: number | undefined) {
  return useQuery({ ...getSsoAppGrantsQueryOptions(id ?? 0), enabled: id !== undefined });
}

/** `PUT /sso-app/{id}/grants`: replaces the whole grant set (the CAS checks it at the next sign-in and validation). */
export const saveSsoAppGrants = async ({ id, body }: { id: number; body: SsoAppGrantsBody }) =>
  (await api().put<unknown>(`${SSO_APP_API}/${id}/grants`, body)).msg;

export const useSaveSsoAppGrants = () => useSsoAppMutation(saveSsoAppGrants);
