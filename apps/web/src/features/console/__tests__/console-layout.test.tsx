import type { PortalMenuEntry } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { lazy, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api';
import { tokenStore } from '@/lib/token';
import { type FakeReply, installFakeApi, okReply } from '@/testing/fake-api';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { ConsoleLayout } from '../components/console-layout';
import type { ConsoleRoute } from '../console-route';
import { LAST_URL_KEY } from '../settings';
import { useTagsViewStore } from '../stores/tags-view-store';

/** A page with a field, to see whether its state survives a tab switch. */
function FormPage({ label }: { label: string }) {
  const [value, setValue] = useState('');
  return (
    <label>
      {label}
      <input aria-label={label} value={value} onChange={(e) => setValue(e.target.value)} />
    </label>
  );
}
const page = (label: string) => lazy(() => Promise.resolve({ default: () => <FormPage label={label} /> }));

/** A page whose button calls the API, as any console action does. */
function WorkPage() {
  const [answer, setAnswer] = useState('');
  const run = () =>
    api()
      .get('/web-api/console/v1/work')
      .then(
        () => setAnswer('已办理'),
        () => setAnswer('办理失败'),
      );
  return (
    <>
      <button onClick={() => void run()}>办理</button>
      <p>{answer}</p>
    </>
  );
}

const routes: ConsoleRoute[] = [
  {
    path: '/console/dashboard',
    name: 'Dashboard',
    authCode: 'dashboard',
    title: '工作台',
    icon: 'dashboard',
    affix: true,
    component: page('工作台页'),
  },
  {
    path: '/console/content',
    name: 'Content',
    authCode: 'content',
    title: '内容管理',
    icon: 'manage',
    children: [
      {
        path: '/console/content/article',
        name: 'ContentArticle',
        authCode: 'content:article',
        title: '文章管理',
        component: page('文章页'),
      },
    ],
  },
  { path: '/console/audit', name: 'AuditLog', authCode: 'audit', title: '操作日志', component: page('日志页') },
  {
    path: '/console/work',
    name: 'Work',
    authCode: 'dashboard',
    title: '办理',
    component: lazy(() => Promise.resolve({ default: WorkPage })),
  },
];

function entry(authorities: string[]): PortalMenuEntry {
  return {
    routers: [{ authCode: 'audit', name: 'AuditLog', path: '/console/audit', meta: { title: '审计日志', icon: '' }, children: [] }],
    user: {
      name: '张伟',
      username: 'admin',
      telephone: '13800000001',
      number: 'U1',
      enterpriseName: '徐州恒岳重工机械有限公司',
      enterpriseId: 1,
      certificationStatus: 'certified',
    },
    token: { token_type: 'Bearer', access_token: 'tok', expires_in: 1800 },
    authorities,
  };
}

function at(url: string, answers: Record<string, () => FakeReply>) {
  const requests = installFakeApi(
    (method, path) => answers[`${method} ${path}`]?.() ?? { status: 404, body: { code: 1, msg: '请求的接口不存在' } },
  );
  const router = createMemoryRouter(
    [
      { element: <ConsoleLayout routes={routes} />, children: [{ path: '/console/*' }, { path: '/redirect/console/*' }] },
      { path: '/403', element: <p>当前账号无权限</p> },
      { path: '/404', element: <p>页面不存在</p> },
      { path: '/blank', element: <p>空白页</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, requests };
}

beforeEach(() => {
  installRuntimeConfig();
  tokenStore.clear();
  useTagsViewStore.getState().clear();
});
afterEach(() => vi.restoreAllMocks());

describe('console route guard (spec section 4)', () => {
  it('keeps only the routes whose authority the user holds; the root goes to the first of them', async () => {
    const { router } = at('/console', { 'GET /web/portal/menu/list': () => okReply([entry(['dashboard', 'audit'])]) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/dashboard'));
    const menu = await screen.findByRole('navigation', { name: '控制台菜单' });
    expect(menu.textContent).toContain('工作台');
    expect(menu.textContent).not.toContain('内容管理');
    // The server's name overrides the route's title.
    expect(menu.textContent).toContain('审计日志');
    expect(tokenStore.get()).toBe('Bearer tok');
  });

  it('never shows a page the account may not open, even when its address is typed', async () => {
    const { router } = at('/console/content/article', { 'GET /web/portal/menu/list': () => okReply([entry(['dashboard'])]) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
    expect(screen.queryByLabelText('文章页')).toBeNull();
  });

  it('an unknown console address goes to /404', async () => {
    const { router } = at('/console/nothing', { 'GET /web/portal/menu/list': () => okReply([entry(['dashboard'])]) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
  });

  it('a saved LAST_URL is cleared and becomes the redirect', async () => {
    sessionStorage.setItem(LAST_URL_KEY, '/console/audit?from=login');
    const { router } = at('/console', { 'GET /web/portal/menu/list': () => okReply([entry(['dashboard', 'audit'])]) });
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/console/audit?from=login'));
    expect(sessionStorage.getItem(LAST_URL_KEY)).toBeNull();
  });

  it('a visitor: the URL is saved as LAST_URL and, as the console has menus, the browser goes to the central login', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const { requests } = at('/console/audit?x=1', {
      'GET /web/portal/menu/list': () => okReply([]),
      'GET /web/portal/app/menus': () => okReply([{ name: 'Dashboard', path: '/console/dashboard', title: '工作台', icon: 'dashboard' }]),
    });
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(sessionStorage.getItem(LAST_URL_KEY)).toBe('/console/audit?x=1');
    expect(requests.map((r) => r.path)).toEqual(['/web/portal/menu/list', '/web/portal/app/menus']);
    const login = new URL(String(assign.mock.calls[0]?.[0]));
    // The login starts at the portal server, which binds it to this browser before the CAS.
    expect(login.pathname).toBe('/web/portal/cas/login');
    expect(login.searchParams.get('target')).toBe('/console/audit?x=1');
  });

  it('a session ended elsewhere: the next action saves the page as LAST_URL and goes to the central login at once, without the shell', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const { requests } = at('/console/work?tab=2', {
      'GET /web/portal/menu/list': () => okReply([entry(['dashboard'])]),
      // The session was ended (强制下线, 停用, 重置密码): the token is refused, and so is a new one.
      'GET /web-api/console/v1/work': () => ({ status: 401, body: { code: 20302, msg: '访问令牌无效' } }),
      'GET /web/portal/oauth/token': () => ({ status: 401, body: { code: 1, msg: '登录已失效，请重新登录' } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: '办理' }));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    const login = new URL(String(assign.mock.calls[0]?.[0]));
    expect(login.pathname).toBe('/web/portal/cas/login');
    expect(login.searchParams.get('target')).toBe('/console/work?tab=2');
    expect(sessionStorage.getItem(LAST_URL_KEY)).toBe('/console/work?tab=2');
    expect(tokenStore.get()).toBeNull();
    // No menu drawn over a page that cannot load any more.
    expect(await screen.findByText('正在前往登录…')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '控制台菜单' })).toBeNull();
    expect(requests.filter((r) => r.path === '/web/portal/oauth/token')).toHaveLength(1);
  });

  it('a token refresh the server fails (502) keeps the console: nobody is sent to log in', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    at('/console/work', {
      'GET /web/portal/menu/list': () => okReply([entry(['dashboard'])]),
      'GET /web-api/console/v1/work': () => ({ status: 401, body: { code: 20301, msg: '访问令牌已过期' } }),
      'GET /web/portal/oauth/token': () => ({ status: 502, body: 'Bad Gateway' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: '办理' }));
    expect(await screen.findByText('办理失败')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('navigation', { name: '控制台菜单' })).toBeTruthy();
  });

  it('when the menus fail, the routes are built with those available: no service page, the root goes to /blank', async () => {
    const { router } = at('/console', {
      'GET /web/portal/menu/list': () => ({ status: 500, body: { code: 1, msg: '服务器内部错误，请稍后重试' } }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/blank'));
  });
});

describe('console tabs keep their pages alive (spec section 4)', () => {
  it('a half-typed form survives a tab switch; refresh clears it', async () => {
    const { router } = at('/console/content/article', {
      'GET /web/portal/menu/list': () => okReply([entry(['dashboard', 'content', 'content:article', 'audit'])]),
    });
    fireEvent.change(await screen.findByLabelText('文章页'), { target: { value: '半截标题' } });
    await act(() => router.navigate('/console/audit'));
    await screen.findByLabelText('日志页');
    await act(() => router.navigate('/console/content/article'));
    expect((screen.getByLabelText('文章页') as HTMLInputElement).value).toBe('半截标题');

    // The affix tab came first, then the visited pages, once each.
    expect(useTagsViewStore.getState().visitedViews.map((v) => v.title)).toEqual(['工作台', '文章管理', '审计日志']);

    fireEvent.contextMenu(within(screen.getByRole('navigation', { name: '已打开的页面' })).getByRole('link', { name: '文章管理' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '刷新' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/content/article'));
    await waitFor(() => expect((screen.getByLabelText('文章页') as HTMLInputElement).value).toBe(''));
  });
});
