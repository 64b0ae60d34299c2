import type { AccountCreateBody, AccountRow, AccountUpdateBody, PageResult, PasswordMode } from '@portal/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import type { AccountListQuery } from '../lib/account-query';
import { ORG_API, useInvalidateOrg } from './org-client';

/** `GET /account/page/list`: one page of the enterprise's accounts (deleted ones never). */
export async function getAccounts(query: AccountListQuery): Promise<PageResult<AccountRow>> {
  const res = await api().get<PageResult<AccountRow>>(`${ORG_API}/account/page/list`, { params: query });
  return res.data[0] ?? { rows: [], total: 0 };
}

export const getAccountsQueryOptions = (query: AccountListQuery) =>
  queryOptions({
    queryKey: queryKeys.org.accounts(query),
    queryFn: () => getAccounts(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAccounts(query: AccountListQuery) {
  return useQuery(getAccountsQueryOptions(query));
}

// 新增, 编辑 and 重置密码 are silent: the form shows a refusal under the field it names, or toasts it.
export const createAccount = async (body: AccountCreateBody) =>
  (await api().post<{ id: number }>(`${ORG_API}/account`, body, { silent: true })).msg;

export const updateAccount = async ({ id, body }: { id: number; body: AccountUpdateBody }) =>
  (await api().put<unknown>(`${ORG_API}/account/${id}`, body, { silent: true })).msg;

/** 停用 ends the account's sessions (portal, SSO, and single logout of its applications); 启用 lets it log in again. */
export const setAccountStatus = async ({ id, status }: { id: number; status: 'active' | 'disabled' }) =>
  (await api().put<unknown>(`${ORG_API}/account/${id}/status`, { status })).msg;

export const unlockAccount = async (id: number) => (await api().post<unknown>(`${ORG_API}/account/${id}/unlock`)).msg;

/** 清除通行密钥: every passkey of the account goes (a lost device, a handover). */
export const clearAccountPasskeys = async (id: number) => (await api().delete<unknown>(`${ORG_API}/account/${id}/passkeys`)).msg;

export interface PasswordReset {
  id: number;
  passwordMode: PasswordMode;
  /** Encoded; only for passwordMode manual. */
  password?: string;
}

export const resetAccountPassword = async ({ id, ...body }: PasswordReset) =>
  (await api().post<unknown>(`${ORG_API}/account/${id}/password`, body, { silent: true })).msg;

/** Soft delete: the username and phone stay taken. */
export const deleteAccount = async (id: number) => (await api().delete<unknown>(`${ORG_API}/account/${id}`)).msg;

function useOrgMutation<T>(write: (input: T) => Promise<string>) {
  const invalidate = useInvalidateOrg();
  return useMutation({ mutationFn: write, onSettled: invalidate });
}

export const useCreateAccount = () => useOrgMutation(createAccount);
export const useUpdateAccount = () => useOrgMutation(updateAccount);
export const useSetAccountStatus = () => useOrgMutation(setAccountStatus);
export const useUnlockAccount = () => useOrgMutation(unlockAccount);
export const useClearAccountPasskeys = () => useOrgMutation(clearAccountPasskeys);
export const useResetAccountPassword = () => useOrgMutation(resetAccountPassword);
export const useDeleteAccount = () => useOrgMutation(deleteAccount);
