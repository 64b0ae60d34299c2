import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { useHeaderStore } from '@/stores/header-store';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { useSessionStore } from '@/stores/session-store';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { PublicHeader } from '../public-header';

const user = (authorities: string[]) => ({
  routers: [],
  user: {
    name: '王强',
    username: 'service',
    telephone: '13800000003',
    number: 'RC0105',
    enterpriseName: '常州瑞驰液压科技有限公司',
    enterpriseId: 2,
  },
  token: { token_type: 'Bearer', access_token: 'a.b', expires_in: 1800 },
  authorities,
});

/** The header on /news, whose page reads `page` (and not `utm_source`). */
function renderHeader() {
  const client = new QueryClient();
  client.setQueryData(getSiteInfoQueryOptions().queryKey, {
    name: '',
    nav: [],
    address: '',
    phone: '',
    email: '',
    support: '',
    copyright: '',
    icp: '',
    appDownloadUrl: '',
    linkGroups: [],
  });
  const router = createMemoryRouter([{ path: '/news', handle: { searchParams: ['page'] }, element: <PublicHeader /> }], {
    initialEntries: ['/news?utm_source=mail&page=2'],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  installRuntimeConfig();
  useSessionStore.getState().clear();
  useHeaderStore.getState().clear();
  useRegisterDialog.getState().hide();
});

describe('public header (spec section 2)', () => {
  it('visitors see 登录 (back to this page, with the query parameters it reads) and 注册', () => {
    renderHeader();
    const login = screen.getByRole('link', { name: /登\s*录/ });
    expect(login.getAttribute('href')).toBe(
      `http://localhost:3000/cas/login?service=${encodeURIComponent('http://localhost:3000/web/portal/cas/callback?target=%2Fnews%3Fpage%3D2')}`,
    );
    screen.getByRole('button', { name: /注\s*册/ }).click();
    expect(useRegisterDialog.getState().open).toBe(true);
    expect(screen.queryByText('控制台')).toBeNull();
  });

  it('a logged-in user sees name, enterprise and the console button to the tenant-manage address', () => {
    useSessionStore.getState().setFromMenus(user(['ROLE_ENTERPRISE_ADMIN']));
    renderHeader();
    expect(screen.getByText('王强')).toBeTruthy();
    expect(screen.getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(screen.getByRole('link', { name: '控制台' }).getAttribute('href')).toBe('http://localhost:3000/console');
    expect(screen.queryByRole('link', { name: /登\s*录/ })).toBeNull();
  });

  it('the user menu (loaded once a session exists) opens from the name with its three items', async () => {
    useSessionStore.getState().setFromMenus(user(['ROLE_ENTERPRISE_ADMIN']));
    renderHeader();
    fireEvent.click(screen.getByRole('button', { name: '王强，常州瑞驰液压科技有限公司' }));
    expect(await screen.findByRole('menuitem', { name: /修改密码/ }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /进入控制台/ })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /退出登录/ })).toBeTruthy();
  }, 20_000);

  it('a service-customer employee gets no console button', () => {
    useSessionStore.getState().setFromMenus(user(['ROLE_SERVICE_CUSTOMER_EMPLOYEE', 'dashboard']));
    renderHeader();
    expect(screen.getByText('王强')).toBeTruthy();
    expect(screen.queryByText('控制台')).toBeNull();
  });
});
