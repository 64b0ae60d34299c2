import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeTransport, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { TemplateAdminPage } from '../components/template-admin-page';
import type { RecordMigrationPreview } from '@portal/shared';
import { HENGYUE, MACHINES, PARTS, RUICHI, VERSIONS } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as unknown }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const OPERATOR = ['identifier', 'identifier:template', 'identifier:record', 'identifier:all-enterprises'];
const ENTERPRISE_ADMIN = ['identifier', 'identifier:template', 'identifier:record'];
/** Also changes records in bulk (identifier:record:manage): 批量迁移. */
const RECORD_MANAGER = [...ENTERPRISE_ADMIN, 'identifier:record:manage'];
const MIGRATE = '/web-api/identity/v1/record/migrate';

const LOSING_PREVIEW: RecordMigrationPreview = {
  templateId: 5,
  templateName: '工程机械整机',
  toVersion: 2,
  total: 150,
  versions: [{ version: 1, records: 150 }],
  lostItems: [{ idType: 'oldModel', name: '旧型号', records: 12 }],
  losing: 12,
  samples: [{ handle: '88.118.8/EX-1', version: 1, lost: [{ name: '旧型号', value: 'E215' }] }],
  blocked: 0,
  problems: [],
};
const api = () => fake.api as FakeApi;

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(notify.success).mockClear();
  vi.mocked(notify.error).mockClear();
  fake.api = createFakeApi({
    'GET /web-api/identity/v1/prefix/list': [HENGYUE],
    'GET /web-api/identity/v1/template/list': [MACHINES, PARTS, { ...PARTS, id: 7, prefix: '88.118.16', name: '液压元件' }],
    'GET /web-api/identity/v1/template/5/version/list': VERSIONS,
    'GET /web-api/identity/v1/enterprise/list': [
      { id: 1, name: '徐州恒岳重工机械有限公司', certificationStatus: 'certified' },
      { id: 2, name: '常州瑞驰液压科技有限公司', certificationStatus: 'certified' },
      { id: 4, name: '新注册企业', certificationStatus: 'pending' },
    ],
    'GET /web-api/identity/v1/prefix-request/page/list': [{ rows: [], total: 0 }],
    'POST /web-api/identity/v1/prefix': [HENGYUE],
    'POST /web-api/identity/v1/template': (body) => [{ ...MACHINES, id: 8, ...(body as object) }],
    'PUT /web-api/identity/v1/template/5': [{ ...MACHINES, version: 3 }],
    'POST /web-api/identity/v1/record/migrate/preview': [LOSING_PREVIEW],
    'POST /web-api/identity/v1/record/migrate': [{ migrated: 150, toVersion: 2 }],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

/** The drawer or dialog whose title is `title`, once open. */
const overlay = (title: string | RegExp) => screen.findByRole('dialog', { name: title });
const section = (name: string) => screen.findByRole('region', { name });
/** The 元数据模板 table's row of the template `name`. */
const templateRow = async (name: string) => within(await section('元数据模板')).findByRole('row', { name: new RegExp(name) });
/** The item rows of the template form: 第 1 项, 第 2 项… */
const rowsOf = (root: HTMLElement) => within(root).queryAllByRole('group', { name: /^第 \d+ 项$/ });
/** Each item's index, marked 新 for one the server has not assigned yet. */
const indexTexts = (root: HTMLElement) =>
  rowsOf(root).map((r) => `${within(r).getByText(/^\d{4}$/).textContent}${within(r).queryByText('新') ? ' 新' : ''}`);

describe('前缀与模板: operator vs enterprise view', () => {
  it('an enterprise administrator sees their prefixes read-only, without the enterprise column', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    const prefixes = await section('标识前缀');
    await within(prefixes).findByText('88.118.8');
    expect(within(prefixes).queryByRole('columnheader', { name: '所属企业' })).toBeNull();
    expect(screen.queryByRole('button', { name: /分配前缀/ })).toBeNull();
    expect(within(prefixes).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    // Templates of the (only) prefix, not another prefix's.
    const templates = await section('元数据模板');
    expect(within(templates).getByText('工程机械整机')).toBeTruthy();
    expect(within(templates).getByText('配件')).toBeTruthy();
    expect(within(templates).queryByText('液压元件')).toBeNull();
    expect(within(templates).getByRole('button', { name: /新建模板/ })).toBeTruthy();
    expect(api().get).not.toHaveBeenCalledWith('/web-api/identity/v1/enterprise/list', undefined);
  });

  it('an operator sees every enterprise, switches prefix, and assigns a prefix checked before sending', async () => {
    api().routes['GET /web-api/identity/v1/prefix/list'] = [RUICHI, HENGYUE];
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(OPERATOR) });
    const prefixes = await section('标识前缀');
    await within(prefixes).findByText('88.118.16');
    expect(within(prefixes).getByRole('columnheader', { name: '所属企业' })).toBeTruthy();
    expect(within(prefixes).getByText('常州瑞驰液压科技有限公司')).toBeTruthy();
    expect(within(await section('元数据模板')).getByText('液压元件')).toBeTruthy();
    fireEvent.click(within(prefixes).getByText('88.118.8'));
    expect(await within(await section('元数据模板')).findByText('工程机械整机')).toBeTruthy();
    expect(within(await section('元数据模板')).queryByText('液压元件')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /分配前缀/ }));
    const modal = await overlay('分配标识前缀');
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(modal)).toEqual(['请输入标识前缀', '请输入前缀名称', '请选择所属企业']));
    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: 'abc' } });
    await waitFor(() => expect(fieldErrors(modal)[0]).toBe('标识前缀格式不正确：应为以点分隔的数字，如 88.118.8'));
    expect(api().post).not.toHaveBeenCalled();

    fireEvent.change(within(modal).getByLabelText('标识前缀'), { target: { value: ' 88.118.20 ' } });
    fireEvent.change(within(modal).getByLabelText('前缀名称'), { target: { value: '新企业产品标识' } });
    await chooseOption(within(modal).getByRole('combobox', { name: '所属企业' }), '常州瑞驰液压科技有限公司');
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(api().post).toHaveBeenCalledWith('/web-api/identity/v1/prefix', {
        prefix: '88.118.20',
        name: '新企业产品标识',
        enterpriseId: 2,
      }),
    );
  });
});

describe('前缀与模板: templates', () => {
  it('shows each template’s version and its history', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    const row = await templateRow('工程机械整机');
    expect(within(row).getByText('v2')).toBeTruthy();
    expect(within(row).getByText('3 项在用，1 项停用')).toBeTruthy();
    fireEvent.click(within(row).getByText('历史'));
    const history = await overlay('「工程机械整机」的版本历史');
    expect(await within(history).findByText('v1')).toBeTruthy();
    expect(within(history).getByText('当前')).toBeTruthy();
    expect(within(history).getByText(/2026-01-03 09:30:00 · operator · 3 个数据项/)).toBeTruthy();
  });

  it('creates a template: indexes from 2000 in order, every item checked with the server’s words before sending', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    await within(await section('元数据模板')).findByText('工程机械整机');
    fireEvent.click(screen.getByRole('button', { name: /新建模板/ }));
    const panel = await overlay('新建模板');
    fireEvent.click(within(panel).getByRole('button', { name: /添加数据项/ }));
    fireEvent.click(within(panel).getByRole('button', { name: /添加数据项/ }));
    await waitFor(() => expect(rowsOf(panel)).toHaveLength(3));
    expect(indexTexts(panel)).toEqual(['2000 新', '2001 新', '2002 新']);

    fireEvent.change(within(panel).getByLabelText('第 1 项 名称'), { target: { value: '产品名称' } });
    fireEvent.change(within(panel).getByLabelText('第 1 项 类型标识'), { target: { value: 'productName' } });
    fireEvent.change(within(panel).getByLabelText('第 2 项 名称'), { target: { value: '产品名称' } });
    fireEvent.change(within(panel).getByLabelText('第 2 项 类型标识'), { target: { value: 'HS_ADMIN' } });
    fireEvent.change(within(panel).getByLabelText('第 3 项 类型标识'), { target: { value: '型号' } });
    fireEvent.change(within(panel).getByLabelText('第 3 项 最小长度'), { target: { value: '9' } });
    fireEvent.change(within(panel).getByLabelText('第 3 项 最大长度'), { target: { value: '3' } });
    fireEvent.click(within(panel).getByRole('button', { name: /创建模板/ }));
    await waitFor(() =>
      expect(fieldErrors(panel)).toEqual([
        '请输入模板名称',
        '数据项名称“产品名称”重复',
        '类型标识“HS_ADMIN”为 Handle 系统保留，请换一个',
        '请输入数据项名称',
        '类型标识只能包含字母、数字和下划线，以字母开头，最长 64 个字符',
        '最小长度不能大于最大长度',
      ]),
    );
    expect(api().post).not.toHaveBeenCalled();

    fireEvent.change(within(panel).getByLabelText('模板名称'), { target: { value: ' 整机 ' } });
    fireEvent.change(within(panel).getByLabelText('第 2 项 名称'), { target: { value: '产品型号' } });
    fireEvent.change(within(panel).getByLabelText('第 2 项 类型标识'), { target: { value: 'productModel' } });
    fireEvent.click(within(panel).getByRole('button', { name: '第 3 项 删除' }));
    await waitFor(() => expect(rowsOf(panel)).toHaveLength(2));
    fireEvent.click(within(panel).getByRole('button', { name: /创建模板/ }));
    await waitFor(() => expect(api().post).toHaveBeenCalledTimes(1));
    expect(api().post.mock.calls[0]).toEqual([
      '/web-api/identity/v1/template',
      {
        prefix: '88.118.8',
        name: '整机',
        items: [
          { name: '产品名称', idType: 'productName', required: true, state: 1, metadata: { type: 'string', minLength: 0, maxLength: 64 } },
          {
            name: '产品型号',
            idType: 'productModel',
            required: false,
            state: 1,
            metadata: { type: 'string', minLength: 0, maxLength: 64 },
          },
        ],
      },
    ]);
    expect(notify.success).toHaveBeenCalled();
  });

  it('sets each item’s value type and its rule, and 计入统计, checked before sending', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    await within(await section('元数据模板')).findByText('工程机械整机');
    fireEvent.click(screen.getByRole('button', { name: /新建模板/ }));
    const panel = await overlay('新建模板');
    fireEvent.click(within(panel).getByRole('button', { name: /添加数据项/ }));
    fireEvent.click(within(panel).getByRole('button', { name: /添加数据项/ }));
    await waitFor(() => expect(rowsOf(panel)).toHaveLength(3));
    fireEvent.change(within(panel).getByLabelText('模板名称'), { target: { value: '液压泵' } });
    const fill = (n: number, name: string, idType: string) => {
      fireEvent.change(within(panel).getByLabelText(`第 ${n} 项 名称`), { target: { value: name } });
      fireEvent.change(within(panel).getByLabelText(`第 ${n} 项 类型标识`), { target: { value: idType } });
    };
    fill(1, '生产日期', 'productionDate');
    fill(2, '额定压力', 'ratedPressure');
    fill(3, '质保期', 'warranty');
    await chooseOption(within(panel).getByRole('combobox', { name: '第 1 项 值类型' }), '日期');
    await chooseOption(within(panel).getByRole('combobox', { name: '第 2 项 值类型' }), '数字');
    await chooseOption(within(panel).getByRole('combobox', { name: '第 3 项 值类型' }), '枚举');
    expect(await within(panel).findByText('YYYY-MM-DD，须为有效日期')).toBeTruthy();
    expect(within(panel).queryByLabelText('第 1 项 最大长度')).toBeNull();
    fireEvent.change(await within(panel).findByLabelText('第 2 项 最小值'), { target: { value: '40' } });
    fireEvent.change(within(panel).getByLabelText('第 2 项 最大值'), { target: { value: '35' } });
    fireEvent.click(within(panel).getByRole('button', { name: /创建模板/ }));
    await waitFor(() => expect(fieldErrors(panel)).toEqual(['最小值不能大于最大值', '可选值至少需要一个']));
    expect(api().post).not.toHaveBeenCalled();

    fireEvent.change(within(panel).getByLabelText('第 2 项 最小值'), { target: { value: '0' } });
    const options = within(panel).getByRole('combobox', { name: '第 3 项 可选值' });
    for (const option of ['12个月', '24个月']) {
      fireEvent.change(options, { target: { value: option } });
      fireEvent.keyDown(options, { key: 'Enter', keyCode: 13 });
    }
    fireEvent.click(within(panel).getByRole('checkbox', { name: '第 3 项 计入统计' }));
    fireEvent.click(within(panel).getByRole('button', { name: /创建模板/ }));
    await waitFor(() => expect(api().post).toHaveBeenCalledTimes(1));
    const items = (api().post.mock.calls[0]![1] as { items: { metadata: object; analytics?: boolean }[] }).items;
    expect(items.map((i) => [i.metadata, i.analytics])).toEqual([
      [{ type: 'date' }, undefined],
      [{ type: 'number', min: 0, max: 35 }, undefined],
      [{ type: 'enum', options: ['12个月', '24个月'] }, true],
    ]);
  });

  it('edits a template into a new version: existing items keep their index and type, a new one goes after every index ever used', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    const row = await templateRow('工程机械整机');
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const panel = await overlay(/^编辑模板「工程机械整机」/);
    expect(within(panel).getByText('当前版本 v2')).toBeTruthy();
    expect((within(panel).getByLabelText('第 1 项 类型标识') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(panel).getByRole('button', { name: /添加数据项/ }));
    // Version 1 had index 2009: the new item gets 2010 once the history has loaded.
    await waitFor(() => expect(indexTexts(panel)).toEqual(['2000', '2001', '2002', '2003', '2010 新']));
    fireEvent.change(within(panel).getByLabelText('第 5 项 名称'), { target: { value: '发动机型号' } });
    fireEvent.change(within(panel).getByLabelText('第 5 项 类型标识'), { target: { value: 'engineModel' } });
    fireEvent.click(within(panel).getByRole('switch', { name: '第 3 项 在用' }));
    fireEvent.click(within(panel).getByRole('button', { name: '第 5 项 上移' }));
    fireEvent.click(within(panel).getByRole('button', { name: /保存为新版本/ }));
    await waitFor(() => expect(api().put).toHaveBeenCalledTimes(1));
    const [url, body] = api().put.mock.calls[0]!;
    expect(url).toBe('/web-api/identity/v1/template/5');
    const items = (body as { items: { idType: string; idIndex?: number; state: number }[] }).items;
    expect(items.map((i) => [i.idType, i.idIndex, i.state])).toEqual([
      ['productName', 2000, 1],
      ['serialNumber', 2001, 1],
      ['color', 2002, 0],
      ['engineModel', undefined, 1],
      ['oldModel', 2003, 0],
    ]);
  });

  it('shows the server’s refusal to delete a template that records use', async () => {
    // The app's own client over an in-memory server, so the toast is the one the user sees.
    const server = createFakeTransport((method, path) => {
      if (method === 'DELETE') return { status: 409, body: { code: 1, msg: '该模板下还有标识，不能删除' } };
      return { body: { code: 20200, msg: '操作成功', data: path.endsWith('/prefix/list') ? [HENGYUE] : [MACHINES] } };
    });
    fake.api = createApiClient({ baseURL: '', tokenUrl: () => '/web/portal/oauth/token', transport: server.transport });
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    const row = await templateRow('工程机械整机');
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    const confirm = await overlay('删除模板');
    expect(within(confirm).getByText(/确定删除模板「工程机械整机」/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('该模板下还有标识，不能删除', 3));
    expect(server.requests).toContainEqual({ method: 'DELETE', path: '/web-api/identity/v1/template/5' });
    expect(notify.success).not.toHaveBeenCalled();
  });
});

describe('前缀与模板: 批量迁移', () => {
  it('is offered to holders of identifier:record:manage, on templates with records and more than one version', async () => {
    const { unmount } = renderWithProviders(<TemplateAdminPage />, { session: menusEntry(ENTERPRISE_ADMIN) });
    expect(within(await templateRow('工程机械整机')).queryByRole('button', { name: /批量迁移/ })).toBeNull();
    unmount();
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    expect(within(await templateRow('工程机械整机')).getByRole('button', { name: /批量迁移/ })).toBeTruthy();
    // 配件 is at v1: nothing older to move.
    expect(within(await templateRow('配件')).queryByRole('button', { name: /批量迁移/ })).toBeNull();
  });

  it('previews the records that move and the values lost, then migrates on confirmation', async () => {
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    fireEvent.click(within(await templateRow('工程机械整机')).getByRole('button', { name: /批量迁移/ }));
    const modal = await overlay('批量迁移「工程机械整机」的标识到 v2');
    const preview = await within(modal).findByRole('region', { name: '迁移预览' });
    expect(api().post).toHaveBeenCalledWith(`${MIGRATE}/preview`, { templateId: 5 }, expect.anything());
    const stats = within(within(preview).getByRole('list', { name: '迁移统计' })).getAllByRole('listitem');
    expect(stats.map((s) => s.textContent)).toEqual(['迁移标识150', '丢失数据12', '不符合新规则0']);
    expect(within(preview).getByText('当前版本：v1：150 个')).toBeTruthy();
    expect(within(preview).getByText('150 个标识将迁移到 v2，其中 12 个将丢失已停用或删除的数据项的值：旧型号（12 个标识）')).toBeTruthy();
    const lost = within(preview).getByRole('row', { name: /88\.118\.8\/EX-1/ });
    expect(within(lost).getByText('旧型号：E215')).toBeTruthy();

    // Narrowing the records asks again.
    fireEvent.change(within(modal).getByPlaceholderText('可选，如 EX-2024'), { target: { value: ' EX-2024 ' } });
    const confirm = within(modal).getByRole('button', { name: /确认迁移/ }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(within(modal).getByRole('button', { name: /预\s*览/ }));
    await waitFor(() =>
      expect(api().post).toHaveBeenLastCalledWith(`${MIGRATE}/preview`, { templateId: 5, searchKey: 'EX-2024' }, expect.anything()),
    );
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(api().post).toHaveBeenLastCalledWith(MIGRATE, { templateId: 5, searchKey: 'EX-2024' }, expect.anything()));
    await waitFor(() => expect(notify.success).toHaveBeenCalled());
  });

  it('lists the records the new version refuses and does not let the migration run', async () => {
    api().routes[`POST ${MIGRATE}/preview`] = [
      {
        ...LOSING_PREVIEW,
        blocked: 1,
        problems: [{ handle: '88.118.8/EX-9', version: 1, message: '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01' }],
      },
    ];
    renderWithProviders(<TemplateAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    fireEvent.click(within(await templateRow('工程机械整机')).getByRole('button', { name: /批量迁移/ }));
    const modal = await overlay('批量迁移「工程机械整机」的标识到 v2');
    const problems = await within(modal).findByRole('table', { name: '不符合新规则的标识' });
    expect(within(problems).getByRole('row', { name: /88\.118\.8\/EX-9 v1 “生产日期”应为有效日期/ })).toBeTruthy();
    expect(within(modal).getByText(/^有 1 个标识的数据不符合 v2 的规则，不能迁移/)).toBeTruthy();
    expect((within(modal).getByRole('button', { name: /确认迁移/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
