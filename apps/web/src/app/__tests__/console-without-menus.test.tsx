import { Role } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { routerContext } from '@/lib/query-client';
import { tokenStore } from '@/lib/token';
import { installFakeApi, okReply } from '@/testing/fake-api';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { routes } from '../router';

beforeEach(() => {
  installRuntimeConfig();
  tokenStore.clear();
});

/** The whole app at `url` for a logged-in service-customer employee: the menus answer has no routers at all. */
function openAsServiceCustomer(url: string) {
  const requests = installFakeApi((method, path) =>
    method === 'GET' && path === '/web/portal/menu/list'
      ? okReply([
          menusEntry([Role.ServiceCustomerEmployee], { name: '王强', username: 'service', enterpriseName: '常州瑞驰液压科技有限公司' }),
        ])
      : { status: 404, body: { code: 1, msg: '请求的接口不存在' } },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(getSiteInfoQueryOptions().queryKey, {
    name: 'Engineering e+ 工业互联网平台',
    nav: [],
    address: '',
    phone: '',
    email: '',
    support: '',
    copyright: '© 2026 工程机械集团有限公司 版权所有',
    icp: '',
    appDownloadUrl: '/product',
    linkGroups: [],
  });
  const router = createMemoryRouter(routes, { initialEntries: [url], getContext: () => routerContext(queryClient) });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, requests };
}

describe('a logged-in account with no console menus (spec sections 2 and 6: ROLE_SERVICE_CUSTOMER_EMPLOYEE)', () => {
  it.each(['/console', '/console/dashboard'])('%s shows the no-permission page, without a trip to the central login', async (url) => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { router, requests } = openAsServiceCustomer(url);
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
    expect(await screen.findByText('当前账号无权限')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '控制台菜单' })).toBeNull();
    // Logged in already: the guard neither asks for the visitors' app menus nor sends the browser to log in again.
    expect(requests.map((r) => r.path)).not.toContain('/web/portal/app/menus');
    expect(assign).not.toHaveBeenCalled();
    assign.mockRestore();
  });
});
