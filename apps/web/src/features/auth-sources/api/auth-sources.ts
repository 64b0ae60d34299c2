import {
  ApiPrefix,
  type AuthSourceDetail,
  type AuthSourceInput,
  type AuthSourceSummary,
  type AuthSourceTestInput,
  type AuthSourceTestResult,
  type SamlIdpMetadata,
  type SamlMetadataRead,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { configOf, storedInput } from '../lib/auth-source-form';

/** The console API of 认证源. */
export const AUTH_SOURCE_API = `${ApiPrefix.console}/auth/sources`;

/**
 * The keys of 认证源's reads. A write invalidates `all`; 租户管理's per-enterprise list of sources sits
 * under the tenants' key and is invalidated with it.
 */
export const authSourceKeys = {
  all: ['auth-sources'] as const,
  list: ['auth-sources', 'list'] as const,
  detail: (id: number) => ['auth-sources', 'detail', id] as const,
  /** A row's 测试连接: run when its dialog opens, never kept after it closes; outside `all`, so no write re-runs it. */
  test: (id: number) => ['auth-source-test', id] as const,
};

/** `GET /auth/sources`: the enterprise's sources, with their linked accounts and latest sync. */
export async function getAuthSources(): Promise<AuthSourceSummary[]> {
  return (await api().get<AuthSourceSummary>(AUTH_SOURCE_API)).data;
}

export const getAuthSourcesQueryOptions = () => queryOptions({ queryKey: authSourceKeys.list, queryFn: getAuthSources, staleTime: 0 });

export function useAuthSources() {
  return useQuery(getAuthSourcesQueryOptions());
}

/** `GET /auth/sources/{id}`: the settings the form edits; the secret never leaves the server (`hasSecret` says one is stored). */
export async function getAuthSource(id: number): Promise<AuthSourceDetail> {
  const detail = (await api().get<AuthSourceDetail>(`${AUTH_SOURCE_API}/${id}`)).data[0];
  if (!detail) throw new Error('认证源不存在');
  return detail;
}

export const getAuthSourceQueryOptions = (id: number) =>
  queryOptions({ queryKey: authSourceKeys.detail(id), queryFn: () => getAuthSource(id), staleTime: 0 });

export function useAuthSource(id: number | undefined) {
  return useQuery({ ...getAuthSourceQueryOptions(id ?? 0), enabled: id !== undefined });
}

// 新增 and 编辑 are silent: the drawer shows a refusal under the field it names, or toasts it.
export async function createAuthSource(body: AuthSourceInput): Promise<{ msg: string; id: number | undefined }> {
  const answer = await api().post<{ id: number }>(AUTH_SOURCE_API, body, { silent: true });
  return { msg: answer.msg, id: answer.data[0]?.id };
}
export const updateAuthSource = async ({ id, body }: { id: number; body: AuthSourceInput }) =>
  (await api().put<unknown>(`${AUTH_SOURCE_API}/${id}`, body, { silent: true })).msg;
/** Refused (409) while accounts are linked to it or sync jobs read from it; the client toasts the server's reason. */
export const deleteAuthSource = async (id: number) => (await api().delete<unknown>(`${AUTH_SOURCE_API}/${id}`)).msg;

/** 停用 / 启用 from the list: the stored settings sent back with the new state (no secret: the stored one stays). */
export async function setAuthSourceEnabled({ id, enabled }: { id: number; enabled: boolean }): Promise<string> {
  const detail = await getAuthSource(id);
  return (await api().put<unknown>(`${AUTH_SOURCE_API}/${id}`, storedInput(detail, enabled))).msg;
}

/**
 * `POST /auth/sources/test`: answers 200 with the steps whether or not the source answered; 400 only
 * for input it cannot try (a bad filter), shown by the caller.
 */
export async function testAuthSource(input: AuthSourceTestInput): Promise<AuthSourceTestResult> {
  const result = (await api().post<AuthSourceTestResult>(`${AUTH_SOURCE_API}/test`, input, { silent: true })).data[0];
  if (!result) throw new Error('服务器未返回测试结果');
  return result;
}

/** A row's 测试连接 with the stored settings and secret. */
export async function testStoredAuthSource(id: number): Promise<AuthSourceTestResult> {
  return testAuthSource({ ...configOf(await getAuthSource(id)), id });
}

export function useStoredSourceTest(id: number | undefined) {
  return useQuery({
    queryKey: authSourceKeys.test(id ?? 0),
    queryFn: () => testStoredAuthSource(id!),
    enabled: id !== undefined,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    // A test reaches the directory: it runs when asked, not when the window regains focus.
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * A write that may carry a secret: the mutation (its variables) leaves the cache as soon as the form
 * that made it closes (gcTime 0), and the lists reload.
 */
function useAuthSourceMutation<T, R>(write: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    gcTime: 0,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authSourceKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants.all }),
      ]),
  });
}

export const useCreateAuthSource = () => useAuthSourceMutation(createAuthSource);
export const useUpdateAuthSource = () => useAuthSourceMutation(updateAuthSource);
export const useDeleteAuthSource = () => useAuthSourceMutation(deleteAuthSource);
export const useSetAuthSourceEnabled = () => useAuthSourceMutation(setAuthSourceEnabled);

/** 测试连接 in the form: nothing changes on the server, and the typed secret is forgotten with the form. */
export function useTestAuthSource() {
  return useMutation({ mutationFn: testAuthSource, gcTime: 0 });
}

/** `POST /auth/sources/saml-metadata`: an IdP's metadata by address or as pasted XML, read into a SAML source's fields. */
export async function readSamlMetadata(body: SamlMetadataRead): Promise<SamlIdpMetadata> {
  const meta = (await api().post<SamlIdpMetadata>(`${AUTH_SOURCE_API}/saml-metadata`, body, { silent: true })).data[0];
  if (!meta) throw new Error('服务器未返回元数据');
  return meta;
}

export function useReadSamlMetadata() {
  return useMutation({ mutationFn: readSamlMetadata });
}

/** `POST /auth/sources/{id}/sign-in-test`: 测试登录's popup address (a signed link, two minutes). */
export async function signInTestLink(id: number): Promise<{ url: string }> {
  const link = (await api().post<{ url: string }>(`${AUTH_SOURCE_API}/${id}/sign-in-test`, {}, { silent: true })).data[0];
  if (!link) throw new Error('服务器未返回测试登录地址');
  return link;
}

export function useSignInTestLink() {
  return useMutation({ mutationFn: signInTestLink, gcTime: 0 });
}
