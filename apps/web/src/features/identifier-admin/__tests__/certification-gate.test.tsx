import type { CertificationStatus, PortalMenuEntry } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeTransport, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { RecordAdminPage } from '../components/record-admin-page';
import { TemplateAdminPage } from '../components/template-admin-page';
import { HENGYUE, MACHINES, RECORD, RUICHI } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as unknown }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const ENTERPRISE_ADMIN = ['enterprise', 'enterprise:manage', 'identifier', 'identifier:template', 'identifier:record'];
const OPERATOR = [...ENTERPRISE_ADMIN, 'identifier:all-enterprises'];
const CLOSED = '企业认证通过后开放标识管理';
const api = () => fake.api as FakeApi;
/** What the menus call answers now (the page asks again when it is closed). */
let menus: PortalMenuEntry;
/** The identifier API calls the page made. */
const identifierCalls = () => [...api().get.mock.calls, ...api().post.mock.calls].filter(([url]) => url.startsWith('/web-api/identity/'));

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(notify.error).mockClear();
  fake.api = createFakeApi({
    'GET /web/portal/menu/list': () => [menus],
    'GET /web-api/identity/v1/prefix/list': [HENGYUE, RUICHI],
    'GET /web-api/identity/v1/template/list': [MACHINES],
    'GET /web-api/identity/v1/record/page/list': [{ rows: [RECORD], total: 1 }],
    'GET /web-api/identity/v1/prefix-request/page/list': [{ rows: [], total: 0 }],
  });
});

/** Shows the router's address, so a test can read where 去认证 went. */
function Location() {
  const l = useLocation();
  return <output aria-label="地址">{l.pathname + l.search}</output>;
}
const address = () => screen.getByRole('status', { name: '地址' }).textContent;

/** Each page, and a text its table shows once open. */
const PAGES: [string, () => ReactElement, string][] = [
  ['前缀与模板', () => <TemplateAdminPage />, HENGYUE.prefix],
  ['标识记录', () => <RecordAdminPage />, RECORD.handle],
];

function renderPage(
  page: () => ReactElement,
  authorities: string[],
  certificationStatus: CertificationStatus,
  enterpriseId: number | null = 1,
) {
  menus = menusEntry(authorities, { certificationStatus, enterpriseId });
  return renderWithProviders(
    <MemoryRouter initialEntries={['/console/identifier']}>
      {page()}
      <Location />
    </MemoryRouter>,
    { session: menus },
  );
}

describe.each(PAGES)('%s until the enterprise is certified', (_name, page, opened) => {
  it.each<[CertificationStatus, string]>([
    ['none', '未认证'],
    ['pending', '待审核'],
    ['rejected', '已驳回'],
  ])('is closed for a %s enterprise, sends no identifier request and leads to 企业认证', async (status, label) => {
    renderPage(page, ENTERPRISE_ADMIN, status);
    expect(await screen.findByText(CLOSED)).toBeTruthy();
    expect(screen.getByText(`认证状态：${label}`)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    // The session is checked again (it may have changed since the console opened); still closed.
    await waitFor(() => expect(api().get).toHaveBeenCalledWith('/web/portal/menu/list', expect.anything()));
    expect(screen.getByText(CLOSED)).toBeTruthy();
    expect(identifierCalls()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: '去认证' }));
    await waitFor(() => expect(address()).toBe('/console/enterprise?tab=certification'));
  });

  it('tells a member who cannot open 企业信息 to ask the administrator instead', async () => {
    renderPage(page, ['identifier', 'identifier:template', 'identifier:record'], 'none');
    expect(await screen.findByText(CLOSED)).toBeTruthy();
    expect(screen.getByText('请联系本企业管理员完成企业认证。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '去认证' })).toBeNull();
  });

  it('opens on this visit once the enterprise has been certified since the console opened', async () => {
    // The console opened while pending; the menus call answers certified now.
    api().routes['GET /web/portal/menu/list'] = () => [{ ...menus, user: { ...menus.user, certificationStatus: 'certified' } }];
    renderPage(page, ENTERPRISE_ADMIN, 'pending');
    expect(await screen.findByText(opened)).toBeTruthy();
    expect(screen.queryByText(CLOSED)).toBeNull();
  });

  it('is open for a certified enterprise', async () => {
    renderPage(page, ENTERPRISE_ADMIN, 'certified');
    expect(await screen.findByText(opened)).toBeTruthy();
    expect(screen.queryByText(CLOSED)).toBeNull();
    expect(api().get).toHaveBeenCalledWith('/web-api/identity/v1/prefix/list');
  });

  it('is never closed for an operator, whose own account has no certified enterprise', async () => {
    renderPage(page, OPERATOR, 'none', null);
    expect(await screen.findByText(opened)).toBeTruthy();
    expect(screen.queryByText(CLOSED)).toBeNull();
  });

  it('closes on the server’s certification refusal and does not ask again', async () => {
    // The app's own client over an in-memory server: the session says certified, the server does not.
    const server = createFakeTransport((_method, path) =>
      path === '/web/portal/menu/list'
        ? { body: { code: 20200, msg: '操作成功', data: [menus] } }
        : { status: 403, body: { code: 1, msg: '企业认证通过后才能使用此功能' } },
    );
    fake.api = createApiClient({ baseURL: '', tokenUrl: () => '/web/portal/oauth/token', transport: server.transport });
    renderPage(page, ENTERPRISE_ADMIN, 'certified');
    expect(await screen.findByText(CLOSED)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: '去认证' })).toBeTruthy();
    const reads = () => server.requests.filter((r) => r.path.startsWith('/web-api/identity/'));
    await waitFor(() => expect(server.requests.some((r) => r.path === '/web/portal/menu/list')).toBe(true));
    const sent = reads().length;
    // Each read went out once and is not retried: the closed page stays, the toasts do not repeat.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads()).toHaveLength(sent);
    expect(new Set(reads().map((r) => r.path)).size).toBe(sent);
    expect(screen.getByText(CLOSED)).toBeTruthy();
    // The API client's toast for each refused read, nothing more.
    expect(vi.mocked(notify.error).mock.calls.length).toBeLessThanOrEqual(sent);
    for (const [text] of vi.mocked(notify.error).mock.calls) expect(text).toBe('企业认证通过后才能使用此功能');
  });
});

describe('the 分配前缀 form (operators)', () => {
  it('offers uncertified enterprises disabled, marked 未认证, since the server refuses them', async () => {
    api().routes['GET /web-api/identity/v1/enterprise/list'] = [
      { id: 1, name: '徐州恒岳重工机械有限公司', certificationStatus: 'certified' },
      { id: 4, name: '新注册企业', certificationStatus: 'none' },
      { id: 5, name: '审核中企业', certificationStatus: 'pending' },
      { id: 6, name: '被驳回企业', certificationStatus: 'rejected' },
    ];
    api().routes['POST /web-api/identity/v1/prefix'] = [HENGYUE];
    renderPage(() => <TemplateAdminPage />, OPERATOR, 'none', null);
    fireEvent.click(await screen.findByRole('button', { name: /分配前缀/ }));
    const modal = await screen.findByRole('dialog', { name: '分配标识前缀' });
    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: '88.118.20' } });
    fireEvent.change(within(modal).getByLabelText('前缀名称'), { target: { value: '新企业产品标识' } });
    fireEvent.mouseDown(within(modal).getByRole('combobox', { name: '所属企业' }));
    // Listed with the mark, and not choosable: a click on one chooses nothing.
    const marked = await screen.findByRole('option', { name: '新注册企业（未认证）' });
    expect(marked.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('option', { name: '徐州恒岳重工机械有限公司' }).getAttribute('aria-disabled')).toBe('false');
    fireEvent.click(screen.getByTitle('新注册企业（未认证）'));
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    expect(await within(modal).findByText('请选择所属企业')).toBeTruthy();
    expect(api().post).not.toHaveBeenCalled();
  });

  it('keeps an existing prefix’s enterprise choosable when editing, even if it is not certified', async () => {
    api().routes['GET /web-api/identity/v1/enterprise/list'] = [
      { id: 1, name: '徐州恒岳重工机械有限公司', certificationStatus: 'pending' },
      { id: 2, name: '常州瑞驰液压科技有限公司', certificationStatus: 'certified' },
    ];
    api().routes['PUT /web-api/identity/v1/prefix/88.118.8'] = [HENGYUE];
    api().routes['GET /web-api/identity/v1/prefix/list'] = [HENGYUE];
    renderPage(() => <TemplateAdminPage />, OPERATOR, 'none', null);
    const row = await screen.findByRole('row', { name: /88\.118\.8/ });
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const modal = await screen.findByRole('dialog', { name: '编辑标识前缀 88.118.8' });
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(api().put).toHaveBeenCalledWith('/web-api/identity/v1/prefix/88.118.8', { name: HENGYUE.name, enterpriseId: 1 }),
    );
  });
});
