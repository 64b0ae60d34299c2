import type { CertificationStatus } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { MemoryRouter, RouterProvider, createMemoryRouter } from 'react-router';
import { tokenStore } from '@/lib/token';
import { installFakeApi, okReply } from '@/testing/fake-api';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { CertificationBanner } from '../components/certification-banner';
import { ConsoleLayout } from '../components/console-layout';
import type { ConsoleRoute } from '../console-route';
import { useTagsViewStore } from '../stores/tags-view-store';

const ADMIN = ['dashboard', 'enterprise', 'enterprise:manage'];
const STAFF = ['dashboard', 'enterprise'];

function renderBanner(status: CertificationStatus, authorities = ADMIN, pathname = '/console/dashboard', enterpriseId: number | null = 1) {
  renderWithProviders(
    <MemoryRouter>
      <CertificationBanner pathname={pathname} />
    </MemoryRouter>,
    { session: menusEntry(authorities, { certificationStatus: status, enterpriseId }) },
  );
}

const banner = () => screen.queryByRole('alert');

beforeEach(() => {
  installRuntimeConfig();
  tokenStore.clear();
  useTagsViewStore.getState().clear();
});

describe('console banner of an uncertified enterprise', () => {
  it('未认证: says so, with 去认证 to the 企业认证 tab', () => {
    renderBanner('none');
    expect(banner()!.textContent).toContain('企业尚未完成认证');
    expect(screen.getByRole('link', { name: '去认证' }).getAttribute('href')).toBe('/console/enterprise?tab=certification');
  });

  it('待审核: 认证审核中 with the review time', () => {
    renderBanner('pending');
    expect(banner()!.textContent).toContain('企业认证审核中');
    expect(banner()!.textContent).toContain('1–3 个工作日');
    expect(screen.getByRole('link', { name: '查看进度' }).getAttribute('href')).toBe('/console/enterprise?tab=certification');
  });

  it('已驳回: 认证被驳回, to fix and resubmit', () => {
    renderBanner('rejected');
    expect(banner()!.textContent).toContain('企业认证被驳回');
    expect(banner()!.textContent).toContain('重新提交');
    expect(screen.getByRole('link', { name: '去认证' })).toBeTruthy();
  });

  it('every member sees it; one who cannot apply is told to ask the administrator, without a link when the page is closed to them', () => {
    renderBanner('none', STAFF);
    expect(banner()!.textContent).toContain('请联系企业管理员');
    expect(screen.getByRole('link', { name: '去认证' })).toBeTruthy();
  });

  it('no link for a member who cannot open 企业信息', () => {
    renderBanner('none', ['dashboard']);
    expect(banner()!.textContent).toContain('企业尚未完成认证');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('not for a certified enterprise', () => {
    renderBanner('certified');
    expect(banner()).toBeNull();
  });

  it('not for an account without an enterprise', () => {
    renderBanner('none', ADMIN, '/console/dashboard', null);
    expect(banner()).toBeNull();
  });

  it('not on 企业信息, which shows the status itself', () => {
    renderBanner('none', ADMIN, '/console/enterprise');
    expect(banner()).toBeNull();
  });
});

describe('the banner in the console shell', () => {
  const page = (text: string) => lazy(() => Promise.resolve({ default: () => <p>{text}</p> }));
  const routes: ConsoleRoute[] = [
    { path: '/console/dashboard', name: 'Dashboard', authCode: 'dashboard', title: '工作台', affix: true, component: page('工作台页') },
    { path: '/console/enterprise', name: 'Enterprise', authCode: 'enterprise', title: '企业信息', component: page('企业信息页') },
  ];

  it('stands above the pages of an uncertified enterprise and its link opens 企业认证, where it is not repeated', async () => {
    installFakeApi((method, path) =>
      method === 'GET' && path === '/web/portal/menu/list'
        ? okReply([menusEntry(ADMIN, { certificationStatus: 'none' })])
        : { status: 404, body: { code: 1, msg: '请求的接口不存在' } },
    );
    const router = createMemoryRouter(
      [{ element: <ConsoleLayout routes={routes} />, children: [{ path: '/console/*' }, { path: '/redirect/console/*' }] }],
      { initialEntries: ['/console/dashboard'] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByText('工作台页');
    expect(banner()!.textContent).toContain('企业尚未完成认证');
    fireEvent.click(screen.getByRole('link', { name: '去认证' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe('/console/enterprise?tab=certification'),
    );
    await screen.findByText('企业信息页');
    expect(banner()).toBeNull();
  });
});
