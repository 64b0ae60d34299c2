import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleLayout } from '@/features/console/components/console-layout';
import { LAST_URL_KEY } from '@/features/console/settings';
import { tokenStore } from '@/lib/token';
import { installFakeApi, okReply } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { SettledPage } from '../settled-page';

beforeEach(() => {
  installRuntimeConfig();
  tokenStore.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('入驻指南 step 2', () => {
  it('leads to the console’s 企业认证', () => {
    renderWithProviders(<SettledPage />, { session: null });
    const link = screen.getByRole('link', { name: /前往企业认证/ });
    expect(link.getAttribute('href')).toBe('http://localhost:3000/console/enterprise?tab=certification');
  });

  it('a visitor following it goes through the central login and comes back to the same tab', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    installFakeApi((method, path) => {
      if (path === '/web/portal/menu/list') return okReply([]);
      if (path === '/web/portal/app/menus')
        return okReply([{ name: 'Enterprise', path: '/console/enterprise', title: '企业信息', icon: 'setup' }]);
      return { status: 404, body: { code: 1, msg: '请求的接口不存在' } };
    });
    const router = createMemoryRouter([{ element: <ConsoleLayout routes={[]} />, children: [{ path: '/console/*' }] }], {
      initialEntries: ['/console/enterprise?tab=certification'],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(sessionStorage.getItem(LAST_URL_KEY)).toBe('/console/enterprise?tab=certification');
    const login = new URL(assign.mock.calls[0]![0] as string);
    expect(login.searchParams.get('target')).toBe('/console/enterprise?tab=certification');
  });
});
