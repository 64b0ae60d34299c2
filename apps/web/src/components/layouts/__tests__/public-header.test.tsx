import type { CertificationStatus, PortalMenuEntry } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry, setSession } from '@/testing/session';
import { PublicHeader } from '../public-header';

const user = (authorities: string[], certificationStatus: CertificationStatus = 'certified') =>
  menusEntry(authorities, {
    certificationStatus,
    name: '王强',
    username: 'service',
    telephone: '13800000003',
    number: 'RC0105',
    enterpriseName: '常州瑞驰液压科技有限公司',
    enterpriseId: 2,
  });

/** The header on /news (whose page reads `page`, not `utm_source`) as the menus answer `session` (null: a visitor) leaves it. */
function renderHeader(session: PortalMenuEntry | null) {
  const client = new QueryClient();
  setSession(client, session);
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
  const router = createMemoryRouter(
    [
      { path: '/news', handle: { searchParams: ['page'] }, element: <PublicHeader /> },
      { path: '/my-apps', element: <h1>我的应用页</h1> },
    ],
    { initialEntries: ['/news?utm_source=mail&page=2'] },
  );
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  installRuntimeConfig();
  useRegisterDialog.getState().hide();
});

describe('public header (spec section 2)', () => {
  it('visitors see 登录 (back to this page, with the query parameters it reads) and 注册', () => {
    renderHeader(null);
    const login = screen.getByRole('link', { name: /登\s*录/ });
    // The login starts at the portal server, which binds it to this browser before the CAS.
    expect(login.getAttribute('href')).toBe('http://localhost:3000/web/portal/cas/login?target=%2Fnews%3Fpage%3D2');
    screen.getByRole('button', { name: /注\s*册/ }).click();
    expect(useRegisterDialog.getState().open).toBe(true);
    expect(screen.queryByText('控制台')).toBeNull();
  });

  it('a logged-in user sees name, enterprise and the console button to the tenant-manage address', () => {
    renderHeader(user(['ROLE_ENTERPRISE_ADMIN']));
    expect(screen.getByText('王强')).toBeTruthy();
    expect(screen.getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(screen.getByRole('link', { name: '控制台' }).getAttribute('href')).toBe('http://localhost:3000/console');
    expect(screen.queryByRole('link', { name: /登\s*录/ })).toBeNull();
  });

  it('the user menu (loaded once a session exists) opens from the name with its items', async () => {
    renderHeader(user(['ROLE_ENTERPRISE_ADMIN']));
    fireEvent.click(screen.getByRole('button', { name: '王强，常州瑞驰液压科技有限公司（已认证）' }));
    expect(await screen.findByRole('menuitem', { name: /修改密码/ })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /进入控制台/ })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /我的应用/ })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /退出登录/ })).toBeTruthy();
  });

  it('我的应用 in the user menu opens /my-apps', async () => {
    renderHeader(user(['ROLE_ENTERPRISE_STAFF']));
    fireEvent.click(screen.getByRole('button', { name: '王强，常州瑞驰液压科技有限公司（已认证）' }));
    const item = await screen.findByRole('menuitem', { name: /我的应用/ });
    fireEvent.click(within(item).getByRole('link', { name: '我的应用' }));
    expect(await screen.findByRole('heading', { name: '我的应用页' })).toBeTruthy();
  });

  it('a service-customer employee gets no console button', () => {
    renderHeader(user(['ROLE_SERVICE_CUSTOMER_EMPLOYEE', 'dashboard']));
    expect(screen.getByText('王强')).toBeTruthy();
    expect(screen.queryByText('控制台')).toBeNull();
  });

  it('a certified enterprise’s name is marked 已认证, also for screen readers', () => {
    renderHeader(user(['ROLE_ENTERPRISE_STAFF']));
    const corner = screen.getByRole('button', { name: '王强，常州瑞驰液压科技有限公司（已认证）' });
    expect(within(corner).getByText('已认证')).toBeTruthy();
  });

  it('an enterprise not certified (yet) carries no mark', () => {
    for (const status of ['none', 'pending', 'rejected'] as const) {
      const { unmount } = renderHeader(user(['ROLE_ENTERPRISE_ADMIN'], status));
      expect(screen.getByRole('button', { name: '王强，常州瑞驰液压科技有限公司' })).toBeTruthy();
      expect(screen.queryByText('已认证')).toBeNull();
      unmount();
    }
  });
});
