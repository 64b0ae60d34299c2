import { ApiPrefix, type PageResult, type SsoApplicationRow } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

/** 应用列表's console API, read by tool 03 for an enterprise administrator (authority app:list). */
const SSO_APP_API = `${ApiPrefix.console}/sso-app`;
/** One page holds every application an enterprise may have (the list's page size limit). */
const ALL_APPS = { offset: 0, limit: 100 } as const;

/** `GET /sso-app/page/list`: the enterprise's applications with their integration settings. */
export async function getEnterpriseApps(): Promise<PageResult<SsoApplicationRow>> {
  return (
    (await api().get<PageResult<SsoApplicationRow>>(`${SSO_APP_API}/page/list`, { params: ALL_APPS })).data[0] ?? { rows: [], total: 0 }
  );
}

// The console's key of the same page: a write in 应用列表 refreshes this view too.
export const getEnterpriseAppsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.ssoApps.page(ALL_APPS), queryFn: getEnterpriseApps, staleTime: 0 });

export const useEnterpriseApps = (enabled: boolean) => useQuery({ ...getEnterpriseAppsQueryOptions(), enabled });
