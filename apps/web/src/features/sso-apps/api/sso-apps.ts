import {
  ApiPrefix,
  type PageResult,
  type SamlMetadataBody,
  type SamlSettings,
  type SsoAppCreated,
  type SsoApplicationBody,
  type SsoApplicationRow,
  type SsoAppSecret,
} from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { SsoAppListQuery } from '../lib/sso-app-query';

/** The console API of 应用管理. */
export const SSO_APP_API = `${ApiPrefix.console}/sso-app`;

/** `GET /sso-app/page/list`: one page of the enterprise's applications on single sign-on. */
export async function getSsoApps(query: SsoAppListQuery): Promise<PageResult<SsoApplicationRow>> {
  return (await api().get<PageResult<SsoApplicationRow>>(`${SSO_APP_API}/page/list`, { params: query })).data[0] ?? { rows: [], total: 0 };
}

export const getSsoAppsQueryOptions = (query: SsoAppListQuery) =>
  queryOptions({
    queryKey: queryKeys.ssoApps.page(query),
    queryFn: () => getSsoApps(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useSsoApps(query: SsoAppListQuery, enabled = true) {
  return useQuery({ ...getSsoAppsQueryOptions(query), enabled });
}

// 新增 and 编辑 are silent: the drawer shows a refusal under the field it names, or toasts it.
/** 新增: the message and what was created (an OIDC confidential client's secret, answered this once). */
export async function createSsoApp(body: SsoApplicationBody): Promise<{ msg: string; created: SsoAppCreated | undefined }> {
  const answer = await api().post<SsoAppCreated>(SSO_APP_API, body, { silent: true });
  return { msg: answer.msg, created: answer.data[0] };
}
/** 重置密钥 of a confidential OIDC application: the new secret, answered this once. */
export async function resetSsoAppSecret(id: number): Promise<{ msg: string; secret: SsoAppSecret | undefined }> {
  const answer = await api().post<SsoAppSecret>(`${SSO_APP_API}/${id}/reset-secret`);
  return { msg: answer.msg, secret: answer.data[0] };
}
export const updateSsoApp = async ({ id, body }: { id: number; body: SsoApplicationBody }) =>
  (await api().put<unknown>(`${SSO_APP_API}/${id}`, body, { silent: true })).msg;
/** Its grants go with it; sessions already open in the application stay until they end. */
export const deleteSsoApp = async (id: number) => (await api().delete<unknown>(`${SSO_APP_API}/${id}`)).msg;

/** A write to an application changes the lists, its grants and everyone's 我的应用. */
export function useSsoAppMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: write, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.ssoApps.all }) });
}

/** 上传 / 获取元数据: the SP settings its metadata (uploaded, or at an address the platform fetches) names; nothing is saved; a refusal toasts. */
export async function readSamlMetadata(source: SamlMetadataBody): Promise<Partial<SamlSettings>> {
  return (await api().post<Partial<SamlSettings>>(`${SSO_APP_API}/saml/metadata`, source)).data[0] ?? {};
}

export const useCreateSsoApp = () => useSsoAppMutation(createSsoApp);
export const useUpdateSsoApp = () => useSsoAppMutation(updateSsoApp);
export const useDeleteSsoApp = () => useSsoAppMutation(deleteSsoApp);
export const useResetSsoAppSecret = () => useSsoAppMutation(resetSsoAppSecret);
