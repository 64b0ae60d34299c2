import type { NotificationRow } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { MessageCenterPage } from '../components/message-center-page';
import { INITIAL_MESSAGE_FILTERS, messageListQuery } from '../lib/message-query';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const BASE = '/web-api/console/v1/notification';
const JOIN: NotificationRow = {
  id: 7,
  kind: 'join',
  title: '新的加入申请',
  content: '李娜申请加入本企业，请在账号管理中处理。',
  link: '/console/org/account',
  read: false,
  createdAt: '2026-11-20 10:00:00',
};
const PASSWORD: NotificationRow = {
  id: 8,
  kind: 'security',
  title: '密码已修改',
  content: '您的登录密码已于 2026-11-19 08:00:00 修改。',
  link: '',
  read: true,
  createdAt: '2026-11-19 08:00:00',
};

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${BASE}/unread-count`]: [{ count: 1 }],
    [`GET ${BASE}/page/list`]: [{ rows: [JOIN, PASSWORD], total: 2 }],
    [`PUT ${BASE}/7/read`]: [],
    [`PUT ${BASE}/read-all`]: [],
  });
  vi.mocked(notify.success).mockClear();
});

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/console/message', element: <MessageCenterPage /> },
      { path: '/console/org/account', element: <p>账号管理页</p> },
    ],
    { initialEntries: ['/console/message'] },
  );
  renderWithProviders(<RouterProvider router={router} />, { session: menusEntry(['message']) });
  return router;
}

const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/page/list`).map(([, config]) => config?.params);
const countCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${BASE}/unread-count`).length;
/** A message's list item, found by the button that opens it (its title first). */
const message = (title: string) => {
  const li = screen.getByRole('button', { name: new RegExp(`^${title}`) }).closest('li');
  if (!li) throw new Error(`no message ${title}`);
  return li;
};
const item = async (title: string) => {
  await screen.findByRole('button', { name: new RegExp(`^${title}`) });
  return message(title);
};

describe('消息中心 query', () => {
  it('全部 sends no unread filter; 未读 and a kind are sent when chosen', () => {
    expect(messageListQuery(INITIAL_MESSAGE_FILTERS)).toEqual({ offset: 0, limit: 20 });
    expect(messageListQuery({ scope: 'unread', kind: 'security', page: 2, limit: 10 })).toEqual({
      offset: 10,
      limit: 10,
      unread: 1,
      kind: 'security',
    });
  });
});

describe('消息中心 page', () => {
  it('lists the messages with kind and time; unread ones are marked and offer 标为已读', async () => {
    renderPage();
    await screen.findByRole('list', { name: '消息列表' });
    const join = await item('新的加入申请');
    for (const text of ['加入申请', '未读', '李娜申请加入本企业，请在账号管理中处理。', '2026-11-20 10:00'])
      expect(within(join).getByText(text)).toBeTruthy();
    expect(within(join).getByRole('button', { name: '标为已读：新的加入申请' })).toBeTruthy();
    const password = message('密码已修改');
    expect(within(password).getByText('安全提醒')).toBeTruthy();
    expect(within(password).queryByText('未读')).toBeNull();
    expect(within(password).queryByRole('button', { name: /标为已读/ })).toBeNull();
    expect(listCalls()).toEqual([{ offset: 0, limit: 20 }]);
  });

  it('shows unread only, or one kind, from page 1', async () => {
    renderPage();
    await screen.findByRole('list', { name: '消息列表' });
    fireEvent.click(screen.getByRole('radio', { name: '未读' }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, unread: 1 }));
    await chooseOption(screen.getByRole('combobox', { name: '类型' }), '安全提醒');
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, unread: 1, kind: 'security' }));
  });

  it('标为已读 marks one message; the list and the unread count reload', async () => {
    renderPage();
    const join = await item('新的加入申请');
    await waitFor(() => expect(countCalls()).toBe(1));
    fireEvent.click(within(join).getByRole('button', { name: '标为已读：新的加入申请' }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/7/read`));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await waitFor(() => expect(countCalls()).toBe(2));
  });

  it('全部已读 marks every message and reloads', async () => {
    renderPage();
    await item('新的加入申请');
    const readAll = screen.getByRole('button', { name: /全部已读/ });
    await waitFor(() => expect((readAll as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(readAll);
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/read-all`));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    await waitFor(() => expect(countCalls()).toBe(2));
    expect(notify.success).toHaveBeenCalledWith('操作成功');
  });

  it('opening an unread message reads it and goes to its page; a read one without a link calls nothing', async () => {
    const router = renderPage();
    await item('新的加入申请');
    fireEvent.click(screen.getByRole('button', { name: /^密码已修改/ }));
    expect(fake.api!.put).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/console/message');

    fireEvent.click(screen.getByRole('button', { name: /^新的加入申请/ }));
    await waitFor(() => expect(fake.api!.put).toHaveBeenCalledWith(`${BASE}/7/read`));
    await waitFor(() => expect(router.state.location.pathname).toBe('/console/org/account'));
  });
});
