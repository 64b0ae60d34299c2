import type { CertificationStatus, PortalMenuEntry } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

/** The seeded header items (spec section 2) and where each leads with the test configuration. */
const NAV: [key: string, title: string, href: string][] = [
  ['center', '首页', '/'],
  ['product', '应用推荐', '/product'],
  ['service', '开放服务', '/open-service'],
  ['mark', '标识查询', '/mark'],
  ['news', '行业资讯', '/news'],
  ['knowledge', '行业知识', '/knowledge'],
  ['settled', '入驻指南', '/settled'],
  ['remote', '远程运维', '/remote'],
];

/** The header on /news (whose page reads `page`, not `utm_source`) as the menus answer `session` (null: a visitor) leaves it. */
function renderHeader(session: PortalMenuEntry | null) {
  const client = new QueryClient();
  setSession(client, session);
  client.setQueryData(getSiteInfoQueryOptions().queryKey, {
    name: '',
    nav: NAV.map(([key, title]) => ({ key, title })),
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
      {
        // The header stays while its links change the page below it, as in the public layout.
        element: (
          <>
            <PublicHeader />
            <Outlet />
          </>
        ),
        children: [
          { path: '/news', handle: { searchParams: ['page'] }, element: null },
          { path: '/my-apps', element: <h1>我的应用页</h1> },
        ],
      },
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

// The user menu and the phone drawer load lazily with antd's provider: importing them once before the
// tests keeps each test's wait about the menu, not about the first load of antd on a busy machine.
beforeAll(async () => {
  await Promise.all([import('../user-menu'), import('../public-nav-drawer'), import('@/components/antd-provider')]);
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

/** Opens the phone header's drawer (its code loads on first use) and returns it. */
async function openDrawer() {
  const button = screen.getByRole('button', { name: '打开菜单' });
  expect(button.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(button);
  const drawer = await screen.findByRole('dialog', { name: '菜单' });
  expect(button.getAttribute('aria-expanded')).toBe('true');
  return drawer;
}

describe('phone drawer', () => {
  it('lists every menu item, each to its page, the current one marked', async () => {
    renderHeader(null);
    const drawer = await openDrawer();
    const nav = within(drawer).getByRole('navigation', { name: '主导航' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, new URL(a.getAttribute('href')!, 'http://localhost:3000').pathname])).toEqual(
      NAV.map(([, title, href]) => [title, href]),
    );
    expect(within(nav).getByRole('link', { name: '行业资讯' }).getAttribute('aria-current')).toBe('page');
  });

  it('a visitor finds 登录 (back to this page) and 注册, which opens the registration and closes the drawer', async () => {
    renderHeader(null);
    const drawer = await openDrawer();
    expect(
      within(drawer)
        .getByRole('link', { name: /登\s*录/ })
        .getAttribute('href'),
    ).toBe('http://localhost:3000/web/portal/cas/login?target=%2Fnews%3Fpage%3D2');
    expect(within(drawer).queryByText('退出登录')).toBeNull();
    expect(within(drawer).queryByText('控制台')).toBeNull();
    fireEvent.click(within(drawer).getByRole('button', { name: /注\s*册/ }));
    expect(useRegisterDialog.getState().open).toBe(true);
    expect(screen.getByRole('button', { name: '打开菜单' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('a logged-in user finds name, enterprise, 控制台, 我的应用 and 退出登录', async () => {
    renderHeader(user(['ROLE_ENTERPRISE_ADMIN']));
    const drawer = await openDrawer();
    const account = within(drawer).getByRole('region', { name: '当前用户' });
    expect(within(account).getByText('王强')).toBeTruthy();
    expect(within(account).getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(within(account).getByText('已认证')).toBeTruthy();
    expect(within(account).getByRole('link', { name: '控制台' }).getAttribute('href')).toBe('http://localhost:3000/console');
    expect(within(account).getByRole('link', { name: '我的应用' }).getAttribute('href')).toBe('/my-apps');
    expect(within(account).getByRole('button', { name: '退出登录' })).toBeTruthy();
    expect(within(drawer).queryByRole('link', { name: /登\s*录/ })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: /注\s*册/ })).toBeNull();
  });

  it('a service-customer employee’s drawer has no 控制台 (spec section 6)', async () => {
    renderHeader(user(['ROLE_SERVICE_CUSTOMER_EMPLOYEE', 'dashboard']));
    const drawer = await openDrawer();
    expect(within(drawer).getByText('王强')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: '退出登录' })).toBeTruthy();
    expect(within(drawer).queryByText('控制台')).toBeNull();
  });

  it('following an item closes the drawer', async () => {
    renderHeader(user(['ROLE_ENTERPRISE_STAFF']));
    const drawer = await openDrawer();
    fireEvent.click(within(drawer).getByRole('link', { name: '我的应用' }));
    expect(await screen.findByRole('heading', { name: '我的应用页' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: '打开菜单' }).getAttribute('aria-expanded')).toBe('false'));
  });
});
