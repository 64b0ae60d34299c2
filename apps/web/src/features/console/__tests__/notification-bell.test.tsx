import type { NotificationRow, PortalMenuEntry } from '@portal/shared';
import { focusManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { NotificationBell, bellLabel } from '../components/notification-bell';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/notification';
const RESULT: NotificationRow = {
  id: 5,
  kind: 'certification',
  title: '企业认证已通过',
  content: '常州瑞驰液压科技有限公司的企业认证已通过审核。',
  link: '/console/enterprise',
  read: false,
  createdAt: '2026-11-20 10:00:00',
};
const SIGN_IN: NotificationRow = {
  id: 6,
  kind: 'security',
  title: '新设备登录提醒',
  content: '您的账号于 2026-11-20 09:00:00 在 Chrome 131 / Windows 10 登录。',
  link: '',
  read: false,
  createdAt: '2026-11-20 09:00:00',
};

let unread = 3;
beforeEach(() => {
  installRuntimeConfig();
  unread = 3;
  fake.api = createFakeApi({
    [`GET ${BASE}/unread-count`]: () => [{ count: unread }],
    [`GET ${BASE}/page/list`]: [{ rows: [RESULT, SIGN_IN], total: 2 }],
    [`PUT ${BASE}/5/read`]: () => {
      unread -= 1;
      return [];
    },
    [`PUT ${BASE}/6/read`]: [],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

const holder = menusEntry(['dashboard', 'message']);

function renderBell(session: PortalMenuEntry = holder) {
  const router = createMemoryRouter(
    [
      {
        // The bell stays in the navbar while the pages change below it.
        element: (
          <>
            <NotificationBell />
            <Outlet />
          </>
        ),
        children: [
          { path: '/console/dashboard', element: <p>工作台页</p> },
          { path: '/console/message', element: <p>消息中心页</p> },
          { path: '/console/enterprise', element: <p>企业信息页</p> },
        ],
      },
    ],
    { initialEntries: ['/console/dashboard'] },
  );
  // happy-dom never ends a CSS transition: without motion, a closed popover leaves the page as in a browser.
  renderWithProviders(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <RouterProvider router={router} />
    </ConfigProvider>,
    { session },
  );
  return router;
}

const countCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/unread-count`).length;
const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/page/list`).map(([, config]) => config?.params);

describe('navbar bell', () => {
  it('shows the unread count on a badge, in its accessible name too', async () => {
    renderBell();
    const bell = await screen.findByRole('button', { name: '消息中心，3 条未读' });
    expect(within(bell).getByText('3')).toBeTruthy();
    expect(bellLabel(0)).toBe('消息中心，没有未读消息');
  });

  it('is not there for an account without 消息中心, and asks nothing', async () => {
    renderBell(menusEntry(['dashboard']));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('button', { name: /消息中心/ })).toBeNull();
    expect(fake.api!.get).not.toHaveBeenCalled();
  });

  it('asks for the count again every minute and when the window regains focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderBell();
    await screen.findByRole('button', { name: '消息中心，3 条未读' });
    expect(countCalls()).toBe(1);

    unread = 4;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await screen.findByRole('button', { name: '消息中心，4 条未读' });
    expect(countCalls()).toBe(2);

    unread = 0;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await screen.findByRole('button', { name: '消息中心，没有未读消息' });
    expect(countCalls()).toBe(3);
    act(() => focusManager.setFocused(undefined));
  });

  it('lists the newest unread messages; opening one reads it, goes to its page and updates the count', async () => {
    const router = renderBell();
    fireEvent.click(await screen.findByRole('button', { name: '消息中心，3 条未读' }));
    const list = await screen.findByRole('list', { name: '未读消息' });
    expect(listCalls()).toEqual([{ offset: 0, limit: 5, unread: 1 }]);
    expect(within(list).getByText('新设备登录提醒')).toBeTruthy();

    fireEvent.click(within(list).getByRole('button', { name: /企业认证已通过/ }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/5/read`));
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/enterprise'));
    await waitFor(() => expect(countCalls()).toBe(2));
    expect(await screen.findByRole('button', { name: '消息中心，2 条未读' })).toBeTruthy();
  });

  it('查看全部 opens 消息中心', async () => {
    const router = renderBell();
    fireEvent.click(await screen.findByRole('button', { name: '消息中心，3 条未读' }));
    const all = await screen.findByRole('link', { name: /查看全部/ });
    expect(all.getAttribute('href')).toBe('/console/message');
    fireEvent.click(all);
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/message'));
    await waitFor(() => expect(screen.queryByRole('list', { name: '未读消息' })).toBeNull());
    expect(fake.api!.put).not.toHaveBeenCalled();
  });
});
