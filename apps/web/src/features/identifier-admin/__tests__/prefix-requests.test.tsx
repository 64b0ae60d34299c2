import { PREFIX_PURPOSE_MAX } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { TemplateAdminPage } from '../components/template-admin-page';
import { APPROVED_REQUEST, HENGYUE, MACHINES, PENDING_REQUEST, REJECTED_REQUEST, RUICHI } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as unknown }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const REQUESTS = '/web-api/identity/v1/prefix-request';
const ENTERPRISE_ADMIN = ['identifier', 'identifier:template', 'identifier:record'];
const OPERATOR = [...ENTERPRISE_ADMIN, 'identifier:all-enterprises'];
const api = () => fake.api as FakeApi;
/** The status filter of every request list call, in order ('' for none). */
const listedStatuses = () =>
  api()
    .get.mock.calls.filter(([url]) => url === `${REQUESTS}/page/list`)
    .map(([, config]) => (config?.params as { status?: string; limit: number }) ?? {})
    .filter((params) => params.limit !== 1)
    .map((params) => params.status ?? '');

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(notify.success).mockClear();
  fake.api = createFakeApi({
    'GET /web-api/identity/v1/prefix/list': [HENGYUE],
    'GET /web-api/identity/v1/template/list': [MACHINES],
    [`GET ${REQUESTS}/page/list`]: (_body, config) => {
      const status = (config?.params as { status?: string } | undefined)?.status;
      const rows = [PENDING_REQUEST, APPROVED_REQUEST, REJECTED_REQUEST].filter((r) => !status || r.status === status);
      return [{ rows, total: rows.length }];
    },
    [`POST ${REQUESTS}`]: [{ id: 22 }],
    [`POST ${REQUESTS}/21/decision`]: [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const dialog = (title: string) => screen.findByRole('dialog', { name: title });
const requestsTab = () => screen.findByRole('tab', { name: /前缀申请/ });
const requestList = () => screen.findByRole('region', { name: '前缀申请' });
const requestRow = async (prefix: string) =>
  within(await requestList()).findByRole('row', { name: new RegExp(prefix.replace(/[.]/g, '\\.')) });

describe('申请标识前缀 (certified enterprise)', () => {
  it('checks the prefix and the purpose before sending, then sends them trimmed and shows the request', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    fireEvent.click(await screen.findByRole('button', { name: /申请标识前缀/ }));
    const modal = await dialog('申请标识前缀');
    const submit = () => fireEvent.click(within(modal).getByRole('button', { name: /提交申请/ }));
    submit();
    await waitFor(() => expect(fieldErrors(modal)).toEqual(['请输入标识前缀', '请填写用途说明']));
    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: '88.118.x' } });
    fireEvent.change(within(modal).getByLabelText('用途说明'), { target: { value: '长'.repeat(PREFIX_PURPOSE_MAX + 1) } });
    submit();
    await waitFor(() =>
      expect(fieldErrors(modal)).toEqual([
        '标识前缀格式不正确：应为以点分隔的数字，如 88.118.8',
        `用途说明不能超过 ${PREFIX_PURPOSE_MAX} 个字符`,
      ]),
    );
    expect(api().post).not.toHaveBeenCalled();

    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: ' 88.118.31 ' } });
    fireEvent.change(within(modal).getByLabelText('用途说明'), { target: { value: ' 恒岳重工配件产品标识 ' } });
    submit();
    await waitFor(() => expect(api().post).toHaveBeenCalledWith(REQUESTS, { prefix: '88.118.31', purpose: '恒岳重工配件产品标识' }));
    expect(notify.success).toHaveBeenCalledWith('操作成功');
    // The page turns to the enterprise's requests, the new one among them.
    await waitFor(async () => expect((await requestsTab()).getAttribute('aria-selected')).toBe('true'));
    expect(await requestRow('88.118.30')).toBeTruthy();
    expect(listedStatuses()).toEqual(['']);
  });

  it('keeps the dialog open with the server’s reason when it refuses', async () => {
    api().routes[`POST ${REQUESTS}`] = () => {
      throw new ApiError('标识前缀 88.118.8 已被使用', 1, 409);
    };
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    fireEvent.click(await screen.findByRole('button', { name: /申请标识前缀/ }));
    const modal = await dialog('申请标识前缀');
    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: '88.118.8' } });
    fireEvent.change(within(modal).getByLabelText('用途说明'), { target: { value: '重复申请' } });
    fireEvent.click(within(modal).getByRole('button', { name: /提交申请/ }));
    expect(await within(modal).findByText('标识前缀 88.118.8 已被使用')).toBeTruthy();
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('lists the enterprise’s requests of every status, with the operator’s reason for a rejection, and no decisions', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    fireEvent.click(await requestsTab());
    const pending = await requestRow('88.118.30');
    expect(within(pending).getByText('待审批')).toBeTruthy();
    expect(within(await requestRow('88.118.16')).getByText('已通过')).toBeTruthy();
    const rejected = await requestRow('88.118.29');
    expect(within(rejected).getByText('已驳回')).toBeTruthy();
    expect(within(rejected).getByText('驳回原因：前缀未在国家顶级节点注册')).toBeTruthy();
    expect(listedStatuses()[0]).toBe('');
    const list = await requestList();
    expect(within(list).queryByRole('columnheader', { name: '申请企业' })).toBeNull();
    expect(within(list).queryByRole('button', { name: /通\s*过/ })).toBeNull();
    expect(within(list).queryByRole('button', { name: /驳\s*回/ })).toBeNull();
  });

  it('is not offered to operators, who assign prefixes themselves', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(OPERATOR) });
    expect(await screen.findByRole('button', { name: /分配前缀/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /申请标识前缀/ })).toBeNull();
  });
});

describe('前缀申请 (operators)', () => {
  it('lists the pending requests first, counted on the tab, and filters by status', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(OPERATOR) });
    const tab = await requestsTab();
    await waitFor(() => expect(tab.textContent).toBe('前缀申请1'));
    fireEvent.click(tab);
    const pending = await requestRow('88.118.30');
    expect(within(pending).getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(within(await requestList()).queryByText('88.118.29')).toBeNull();
    expect(listedStatuses()).toEqual(['pending']);
    fireEvent.click(within(await requestList()).getByRole('radio', { name: '已驳回' }));
    expect(await requestRow('88.118.29')).toBeTruthy();
    expect(listedStatuses()).toEqual(['pending', 'rejected']);
    // A decided request offers no decision.
    expect(within(await requestRow('88.118.29')).queryByRole('button', { name: /通\s*过/ })).toBeNull();
  });

  it('approves after a confirm, and the prefix list reloads with the prefix the server created', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(OPERATOR) });
    fireEvent.click(await requestsTab());
    const row = await requestRow('88.118.30');
    const prefixLoads = () => api().get.mock.calls.filter(([url]) => url === '/web-api/identity/v1/prefix/list').length;
    const before = prefixLoads();
    api().routes['GET /web-api/identity/v1/prefix/list'] = [HENGYUE, { ...RUICHI, prefix: '88.118.30' }];
    fireEvent.click(within(row).getByRole('button', { name: /通\s*过/ }));
    const confirm = await dialog('通过前缀申请');
    expect(within(confirm).getByText('通过后，标识前缀 88.118.30 分配给 常州瑞驰液压科技有限公司。')).toBeTruthy();
    expect(api().post).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /通\s*过/ }));
    await waitFor(() => expect(api().post).toHaveBeenCalledWith(`${REQUESTS}/21/decision`, { decision: 'approve', reason: '' }));
    await waitFor(() => expect(prefixLoads()).toBeGreaterThan(before));
    fireEvent.click(screen.getByRole('tab', { name: '前缀与模板' }));
    expect(await within(await screen.findByRole('region', { name: '标识前缀' })).findByText('88.118.30')).toBeTruthy();
  });

  it('rejects only with a reason, which it sends trimmed', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(OPERATOR) });
    fireEvent.click(await requestsTab());
    fireEvent.click(within(await requestRow('88.118.30')).getByRole('button', { name: /驳\s*回/ }));
    const modal = await dialog('驳回前缀申请');
    const reject = () => fireEvent.click(within(modal).getByRole('button', { name: /驳\s*回/ }));
    fireEvent.change(within(modal).getByLabelText('驳回原因'), { target: { value: '   ' } });
    reject();
    await waitFor(() => expect(fieldErrors(modal)).toEqual(['请填写驳回原因']));
    expect(api().post).not.toHaveBeenCalled();
    fireEvent.change(within(modal).getByLabelText('驳回原因'), { target: { value: ' 前缀未在国家顶级节点注册 ' } });
    reject();
    await waitFor(() =>
      expect(api().post).toHaveBeenCalledWith(`${REQUESTS}/21/decision`, { decision: 'reject', reason: '前缀未在国家顶级节点注册' }),
    );
    expect(notify.success).toHaveBeenCalledWith('操作成功');
    // The list asks again for what is still pending.
    await waitFor(() => expect(listedStatuses()).toEqual(['pending', 'pending']));
  });
});
