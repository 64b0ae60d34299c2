import type { OpenServiceToolAdmin, OpenServiceToolBody } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import type { ChangeEvent } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { OpenServiceAdminPage } from '../components/open-service-admin-page';
import type * as RichTextEditorModule from '../components/rich-text-editor';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));
// The editor itself is tested on its own; here a plain text box stands in for it.
vi.mock('../components/rich-text-editor', async (importOriginal) => ({
  ...(await importOriginal<typeof RichTextEditorModule>()),
  RichTextEditor: ({ value, onChange, placeholder: _placeholder, status: _status, ...field }: RichTextEditorModule.RichTextEditorProps) => (
    <textarea
      {...field}
      aria-label="介绍编辑器"
      value={value ?? ''}
      onChange={(e: ChangeEvent<HTMLTextAreaElement>) => onChange?.(e.target.value)}
    />
  ),
}));

const tool = (
  id: OpenServiceToolAdmin['id'],
  title: string,
  sort: number,
  status: OpenServiceToolAdmin['status'] = 'online',
): OpenServiceToolAdmin => ({
  id,
  title,
  summary: `${title}的简介`,
  icon: 'api',
  body: `<h3>核心能力</h3><p>${title}</p>`,
  updatedAt: '2026-11-20 10:30:00',
  sort,
  status,
});
const TOOLS = [tool('02', '可视化编辑器', 2), tool('01', '移动开发平台及 SDK', 1), tool('04', '物联网平台', 4, 'offline')];
const PUT = (id: string) => `PUT /web-api/console/v1/open-service/tool/${id}`;

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    'GET /web-api/console/v1/open-service/tool/list': TOOLS,
    [PUT('01')]: (body) => [{ ...TOOLS[1], ...(body as OpenServiceToolBody) }],
    [PUT('04')]: (body) => [{ ...TOOLS[2], ...(body as OpenServiceToolBody) }],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

const EDITOR = menusEntry(['content:open-service']);
const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });
const drawer = () => screen.findByRole('dialog', { name: /编辑工具/ });

describe('开放服务 (console)', () => {
  it('lists the tools in display order with number, icon, title, summary, status and update time', async () => {
    renderWithProviders(<OpenServiceAdminPage />, { session: EDITOR });
    const first = await row('移动开发平台及 SDK');
    expect(within(first).getByText('01')).toBeTruthy();
    expect(within(first).getByRole('img', { name: '接口' })).toBeTruthy();
    expect(within(first).getByText('移动开发平台及 SDK的简介')).toBeTruthy();
    expect(within(first).getByText('上线')).toBeTruthy();
    expect(within(first).getByText('2026-11-20 10:30:00')).toBeTruthy();
    expect(within(first).getByRole('link', { name: /查看/ }).getAttribute('href')).toBe('http://localhost:3000/open-service?toolId=01');
    const order = within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[2]?.textContent);
    expect(order).toEqual(['移动开发平台及 SDK', '可视化编辑器', '物联网平台']);
    // An offline tool has no public page to look at.
    expect(within(await row('物联网平台')).queryByRole('link', { name: /查看/ })).toBeNull();
  });

  it('checks title, summary, order and body with the shared rules before sending, then saves the edited tool', async () => {
    renderWithProviders(<OpenServiceAdminPage />, { session: EDITOR });
    fireEvent.click(within(await row('移动开发平台及 SDK')).getByRole('button', { name: '编辑' }));
    const form = await drawer();
    const title = within(form).getByLabelText('工具名称');
    expect((title as HTMLInputElement).value).toBe('移动开发平台及 SDK');

    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.change(within(form).getByLabelText('工具简介'), { target: { value: '' } });
    fireEvent.change(within(form).getByLabelText('排序'), { target: { value: '' } });
    fireEvent.change(within(form).getByLabelText('介绍编辑器'), { target: { value: '<p></p>' } });
    fireEvent.click(within(form).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fieldErrors(form)).toEqual(['请输入工具名称', '排序须为 0 到 999 之间的整数', '请输入工具简介', '请输入工具介绍']),
    );

    fireEvent.change(title, { target: { value: '移动开发平台及 SDK（跨端框架、设备接入、离线包与推送一体化解决方案）' } });
    await waitFor(() => expect(fieldErrors(form)[0]).toBe('工具名称最多32个字符'));
    expect(fake.api!.put).not.toHaveBeenCalled();

    fireEvent.change(title, { target: { value: ' 移动开发平台 ' } });
    fireEvent.change(within(form).getByLabelText('工具简介'), { target: { value: '跨端移动开发框架' } });
    fireEvent.change(within(form).getByLabelText('排序'), { target: { value: '3' } });
    fireEvent.change(within(form).getByLabelText('介绍编辑器'), { target: { value: '<p>新的详情</p>' } });
    await chooseOption(within(form).getByRole('combobox', { name: '图标' }), '移动终端');
    fireEvent.click(within(form).getByRole('radio', { name: '下线' }));
    fireEvent.click(within(form).getByRole('button', { name: /保\s*存/ }));

    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/open-service/tool/01', {
        title: '移动开发平台',
        summary: '跨端移动开发框架',
        icon: 'mobile',
        sort: 3,
        status: 'offline',
        body: '<p>新的详情</p>',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /编辑工具/ })).toBeNull());
  });

  it('takes a tool online only after confirming, sending the rest unchanged', async () => {
    renderWithProviders(<OpenServiceAdminPage />, { session: EDITOR });
    fireEvent.click(within(await row('物联网平台')).getByRole('button', { name: '上线' }));
    const confirm = await screen.findByRole('dialog', { name: '上线工具' });
    expect(within(confirm).getByText(/上线后「物联网平台」出现在开放服务中心/)).toBeTruthy();
    expect(fake.api!.put).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: /上\s*线/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/open-service/tool/04', {
        title: '物联网平台',
        summary: '物联网平台的简介',
        icon: 'api',
        sort: 4,
        status: 'online',
        body: '<h3>核心能力</h3><p>物联网平台</p>',
      }),
    );
  });

  it('shows no edit controls to a user without 开放服务 rights', async () => {
    renderWithProviders(<OpenServiceAdminPage />, { session: menusEntry(['content:home']) });
    const first = await row('移动开发平台及 SDK');
    expect(within(first).queryByRole('button', { name: '编辑' })).toBeNull();
    expect(within(first).queryByRole('button', { name: '下线' })).toBeNull();
  });
});
