import type { MyApplication } from '@portal/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { MyAppsPage } from '../components/my-apps-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));

const MY_APPS = 'GET /web-api/portal/v1/my-apps';

const ERP: MyApplication = {
  id: 5,
  name: '设备管理系统',
  icon: '/uploads/erp.png',
  category: '生产管理',
  description: '设备台账与点检',
  url: 'https://erp.hengyue.example/',
};
const OA: MyApplication = { id: 6, name: '协同办公', icon: '', category: '', description: '', url: 'https://oa.hengyue.example/home' };

beforeEach(() => {
  installRuntimeConfig();
});
afterEach(async () => {
  Modal.destroyAll();
  // The dialogs unmount on React's scheduler: let it finish before the test environment goes away.
  await new Promise((resolve) => setTimeout(resolve, 50));
});

describe('我的应用 (/my-apps)', () => {
  it('shows the applications the user may open as cards, each opening its own address in a new tab', async () => {
    fake.api = createFakeApi({ [MY_APPS]: [ERP, OA] });
    renderWithProviders(<MyAppsPage />, { session: menusEntry([]) });
    const cards = within(await screen.findByRole('list', { name: '我的应用' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);

    const [erp, oa] = cards as [HTMLElement, HTMLElement];
    expect(within(erp).getByRole('heading', { name: '设备管理系统' })).toBeTruthy();
    expect(within(erp).getByText('生产管理')).toBeTruthy();
    expect(within(erp).getByText('设备台账与点检')).toBeTruthy();
    expect(erp.querySelector('img')?.getAttribute('src')).toBe('http://localhost:3000/files/uploads/erp.png');
    const open = within(erp).getByRole('link', { name: '打开设备管理系统' });
    expect(open.getAttribute('href')).toBe('https://erp.hengyue.example/');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toBe('noopener noreferrer');

    // Without an icon, the name's first character stands in.
    expect(oa.querySelector('img')).toBeNull();
    expect(within(oa).getByText('协')).toBeTruthy();
    expect(within(oa).getByRole('link', { name: '打开协同办公' }).getAttribute('href')).toBe('https://oa.hengyue.example/home');
  });

  it('says so when the user may open none', async () => {
    fake.api = createFakeApi({ [MY_APPS]: [] });
    renderWithProviders(<MyAppsPage />, { session: menusEntry([]) });
    expect(await screen.findByText('暂无可用的应用')).toBeTruthy();
    expect(screen.queryByRole('list', { name: '我的应用' })).toBeNull();
  });

  it('asks a visitor to log in (coming back to /my-apps) and never calls the API', async () => {
    fake.api = createFakeApi({});
    renderWithProviders(<MyAppsPage />, { session: null });
    const prompt = await screen.findByRole('dialog', { name: '请先登录' });
    expect(within(prompt).getByText('登录后可查看并打开您有权使用的应用。')).toBeTruthy();
    expect(screen.getByRole('link', { name: '登录' }).getAttribute('href')).toBe(
      'http://localhost:3000/web/portal/cas/login?target=%2Fmy-apps',
    );
    await waitFor(() => expect(screen.getByText('登录后查看我的应用')).toBeTruthy());
    expect(fake.api.get).not.toHaveBeenCalled();
  });
});
