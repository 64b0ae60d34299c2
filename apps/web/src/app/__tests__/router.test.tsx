import { encodeRuntimeConfig } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { routerContext } from '@/lib/query-client';
import { routes } from '../router';

beforeEach(() => {
  const origin = 'http://localhost:3000';
  window.getPortalConfig = () =>
    encodeRuntimeConfig({
      casLoginUrl: `${origin}/cas/login`,
      casLogoutUrl: `${origin}/cas/logout`,
      mainUrl: origin,
      mainVisitPrefix: '/',
      appCenterUrl: `${origin}/product`,
      openServiceUrl: `${origin}/open-service`,
      tenantManageUrl: `${origin}/console`,
      operatePlatformUrl: `${origin}/console`,
      fileStaticUrl: `${origin}/files`,
      homeUrl: origin,
      apiBaseUrl: origin,
      appPackageUrl: '',
    });
});

function at(url: string) {
  const queryClient = new QueryClient();
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
  return router;
}

describe('routing rules (spec section 2)', () => {
  it('sends any other path to /404 titled 页面不存在', async () => {
    const router = at('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByText('页面不存在')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('页面不存在 - Engineering e+'));
  });

  it('/redirect/{path*} replaces the route with the path and keeps the query', async () => {
    const router = at('/redirect/news/detail?id=abc&x=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/news/detail'));
    expect(router.state.location.search).toBe('?id=abc&x=1');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('/blank renders an empty page and /403 the no-permission page', async () => {
    const router = at('/403');
    expect(await screen.findByText('当前账号无权限')).toBeTruthy();
    // The group's name links back to the main site plus its visit prefix.
    expect(screen.getByText('工程机械集团有限公司').getAttribute('href')).toBe('http://localhost:3000/');
    await router.navigate('/blank');
    await waitFor(() => expect(router.state.location.pathname).toBe('/blank'));
    // Nothing at all on it: no header, no text.
    await waitFor(() => expect(document.body.textContent).toBe(''));
  });
});
