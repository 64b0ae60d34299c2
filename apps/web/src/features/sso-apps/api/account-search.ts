import { ApiPrefix, type AccountRow, type PageResult } from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const CONSOLE_API = ApiPrefix.console;

/** Most accounts one search offers in 添加账号. */
export const ACCOUNT_SEARCH_LIMIT = 20;

/** `GET /account/page/list?keyword=`: the first accounts matching 账号, 姓名 or 手机号 (the 账号管理 list's own call). */
export async function searchAccounts(keyword: string): Promise<PageResult<AccountRow>> {
  const params = { offset: 0, limit: ACCOUNT_SEARCH_LIMIT, ...(keyword ? { keyword } : {}) };
  return (await api().get<PageResult<AccountRow>>(`${CONSOLE_API}/account/page/list`, { params })).data[0] ?? { rows: [], total: 0 };
}

export function useAccountSearch(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.org.accounts({ offset: 0, limit: ACCOUNT_SEARCH_LIMIT, ...(keyword ? { keyword } : {}) }),
    queryFn: () => searchAccounts(keyword),
    select: (page) => page.rows,
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}
