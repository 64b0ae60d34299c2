import { ApiPrefix, type SelfTestBody, type SelfTestPrecheck, type SelfTestResult } from '@portal/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

// 接入自检 is run from 应用列表 and from the open-service centre's tool 03: one client for both.
const SSO_APP_API = `${ApiPrefix.console}/sso-app`;

/**
 * `GET /sso-app/{id}/self-test`: before a run, whether it will skip 测试账号登录 and why (the
 * administrator not admitted by 应用授权, an external CAS). Silent: a refusal only hides the notice.
 */
export async function getSelfTestPrecheck(id: number): Promise<SelfTestPrecheck> {
  const precheck = (await api().get<SelfTestPrecheck>(`${SSO_APP_API}/${id}/self-test`, { silent: true })).data[0];
  if (!precheck) throw new Error('服务器未返回自检预检结果');
  return precheck;
}

export const useSelfTestPrecheck = (id: number) =>
  useQuery({ queryKey: queryKeys.ssoApps.selfTest(id), queryFn: () => getSelfTestPrecheck(id), staleTime: 0 });

/**
 * `POST /sso-app/{id}/self-test` (接入自检): the portal checks the application end to end and answers
 * the checklist. Silent: the panel shows a refusal (rate limit, unknown application) itself.
 */
export async function runSelfTest({ id, body }: { id: number; body: SelfTestBody }): Promise<SelfTestResult> {
  const result = (await api().post<SelfTestResult>(`${SSO_APP_API}/${id}/self-test`, body, { silent: true })).data[0];
  if (!result) throw new Error('服务器未返回自检结果');
  return result;
}

export const useSelfTest = () => useMutation({ mutationFn: runSelfTest });
