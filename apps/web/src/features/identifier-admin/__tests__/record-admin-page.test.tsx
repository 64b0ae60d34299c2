import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { RecordAdminPage } from '../components/record-admin-page';
import { HENGYUE, MACHINES, PARTS, PUMPS, RECORD, RUICHI } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const RECORDS = '/web-api/identity/v1/record';
const RECORD_KEEPER = ['identifier', 'identifier:record'];
/** Also deletes and imports (identifier:record:manage). */
const RECORD_MANAGER = [...RECORD_KEEPER, 'identifier:record:manage'];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    'GET /web-api/identity/v1/prefix/list': [HENGYUE],
    'GET /web-api/identity/v1/template/list': [MACHINES, PARTS],
    [`GET ${RECORDS}/page/list`]: [{ rows: [RECORD], total: 1 }],
    [`POST ${RECORDS}`]: (body) => [{ ...RECORD, id: 10, ...(body as object) }],
    [`PUT ${RECORDS}/9`]: [RECORD],
    [`DELETE ${RECORDS}/9`]: [],
    [`POST ${RECORDS}/import`]: [{ total: 3, imported: 0, failed: 1, errors: [{ line: 3, message: '“出厂编号”长度应为 4–12 个字符' }] }],
  });
  vi.mocked(saveBlob).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const listCalls = () => fake.api!.get.mock.calls.filter(([url]) => url === `${RECORDS}/page/list`).map(([, config]) => config?.params);
/** The drawer or dialog titled `title`, once open. */
const drawer = (title: string) => screen.findByRole('dialog', { name: title });
const dialog = drawer;
/** The records table's row of `handle`. */
const recordRow = (handle: string) => screen.findByRole('row', { name: new RegExp(handle.replace(/[.]/g, '\\.')) });
/** Picks `option` in the select named `name` inside `root`. */
const pick = (root: HTMLElement, name: string, option: string) => chooseOption(within(root).getByRole('combobox', { name }), option);

describe('标识记录 list', () => {
  it('shows the records page 1 at 20 a page, searches from page 1, and links each handle to the public lookup in a new window', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    const row = await recordRow('88.118.8/EX-1');
    expect(listCalls()[0]).toEqual({ offset: 0, limit: 20 });
    expect(within(row).getByText('中型履带式液压挖掘机 · HYE2150001')).toBeTruthy();
    // Written with v1 while the template is at v2.
    expect(within(row).getByText('v1')).toBeTruthy();
    const lookup = within(row).getByRole('link', { name: '在标识查询中查看 88.118.8/EX-1' });
    expect(lookup.getAttribute('href')).toBe('/mark?keyword=88.118.8%2FEX-1');
    expect(lookup.getAttribute('target')).toBe('_blank');
    expect(lookup.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('共 1 条')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('按标识或后缀开头搜索'), { target: { value: ' EX-1 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, searchKey: 'EX-1' }));
  });

  it('deletes only after the confirm dialog', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    const row = await recordRow('88.118.8/EX-1');
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    expect(fake.api!.delete).not.toHaveBeenCalled();
    const confirm = await dialog('删除标识');
    expect(within(confirm).getByText(/确定删除标识 88\.118\.8\/EX-1 吗/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${RECORDS}/9`));
  });

  it('hides the write actions from an account with only read access to identifiers', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(['identifier', 'identifier:template']) });
    const row = await recordRow('88.118.8/EX-1');
    expect(screen.queryByRole('button', { name: /新建标识/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /批量导入/ })).toBeNull();
    expect(within(row).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(within(row).getByRole('link', { name: /在标识查询中查看/ })).toBeTruthy();
  });

  it('offers 删除 and 批量导入 only to holders of identifier:record:manage; others still add and edit', async () => {
    const { unmount } = renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    let row = await recordRow('88.118.8/EX-1');
    expect(screen.getByRole('button', { name: /新建标识/ })).toBeTruthy();
    expect(within(row).getByRole('button', { name: /编\s*辑/ })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /批量导入/ })).toBeNull();
    unmount();

    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    row = await recordRow('88.118.8/EX-1');
    expect(within(row).getByRole('button', { name: /删\s*除/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /批量导入/ })).toBeTruthy();
  });
});

describe('标识记录 form generated from the template', () => {
  it('has one field per item in use, checks required items and lengths before sending, then sends the trimmed values', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await screen.findByText('88.118.8/EX-1');
    fireEvent.click(screen.getByRole('button', { name: /新建标识/ }));
    const panel = await drawer('新建标识');
    // The first prefix and its first template are preselected; the retired item is not offered.
    await within(panel).findByLabelText('产品名称');
    expect(within(panel).getByLabelText('出厂编号')).toBeTruthy();
    expect(within(panel).getByLabelText('颜色')).toBeTruthy();
    expect(within(panel).queryByLabelText('旧型号')).toBeNull();
    expect(within(panel).getByText('88.118.8/')).toBeTruthy();
    expect(within(panel).getByText('serialNumber · 4–12 个字符')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(panel)).toEqual(['标识后缀不能为空', '“产品名称”为必填项', '“出厂编号”为必填项']));

    fireEvent.change(within(panel).getByLabelText('标识后缀'), { target: { value: '-bad' } });
    fireEvent.change(within(panel).getByLabelText('产品名称'), { target: { value: '挖'.repeat(21) } });
    fireEvent.change(within(panel).getByLabelText('出厂编号'), { target: { value: 'HY1' } });
    fireEvent.change(within(panel).getByLabelText('颜色'), { target: { value: '黄色黄色黄色黄色黄' } });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fieldErrors(panel)).toEqual([
        '标识后缀只能包含字母、数字和 - _ . : / ( )，以字母或数字开头，最长 128 个字符',
        '“产品名称”最长 20 个字符',
        '“出厂编号”长度应为 4–12 个字符',
        '“颜色”最长 8 个字符',
      ]),
    );
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(within(panel).getByLabelText('标识后缀'), { target: { value: ' EX-2 ' } });
    fireEvent.change(within(panel).getByLabelText('产品名称'), { target: { value: ' 轮式装载机 ' } });
    fireEvent.change(within(panel).getByLabelText('出厂编号'), { target: { value: 'HYL500002' } });
    fireEvent.change(within(panel).getByLabelText('颜色'), { target: { value: '' } });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    expect(fake.api!.post.mock.calls[0]).toEqual([
      RECORDS,
      { prefix: '88.118.8', suffix: 'EX-2', templateId: 5, values: { productName: '轮式装载机', serialNumber: 'HYL500002' } },
    ]);
  });

  it('shows the server’s refusal in the form and keeps it open', async () => {
    fake.api!.routes[`POST ${RECORDS}`] = () => {
      throw new ApiError('标识 88.118.8/EX-1 已存在', 1, 409);
    };
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await screen.findByText('88.118.8/EX-1');
    fireEvent.click(screen.getByRole('button', { name: /新建标识/ }));
    const panel = await drawer('新建标识');
    // The item fields come with the template: type only once they are there (the form settles then).
    const productName = await within(panel).findByLabelText('产品名称');
    fireEvent.change(within(panel).getByLabelText('标识后缀'), { target: { value: 'EX-1' } });
    fireEvent.change(productName, { target: { value: '挖掘机' } });
    fireEvent.change(within(panel).getByLabelText('出厂编号'), { target: { value: 'HY0001' } });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    // Validation and the refused save are asynchronous: allow for a busy test machine.
    expect(await within(panel).findByText('标识 88.118.8/EX-1 已存在')).toBeTruthy();
    expect(within(panel).getByLabelText('产品名称')).toBeTruthy();
  });

  it('edits a record with the template’s latest items, saying it moves to that version and what it drops', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    const row = await recordRow('88.118.8/EX-1');
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const panel = await drawer('编辑标识 88.118.8/EX-1');
    expect(((await within(panel).findByLabelText('产品名称')) as HTMLInputElement).value).toBe('中型履带式液压挖掘机');
    expect(within(panel).getByText('该标识按 v1 写入，保存后按当前版本 v2 校验并升级。')).toBeTruthy();
    expect(within(panel).getByText('所选模板中没有或已停用这些数据项，保存后不再保留：旧型号')).toBeTruthy();
    fireEvent.change(within(panel).getByLabelText('颜色'), { target: { value: '黄色' } });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${RECORDS}/9`, {
        templateId: 5,
        values: { productName: '中型履带式液压挖掘机', serialNumber: 'HYE2150001', color: '黄色' },
      }),
    );
  });
});

describe('标识记录 form by value type', () => {
  it('offers a date picker, a number box and a select of the options, checked with the server’s words', async () => {
    fake.api!.routes['GET /web-api/identity/v1/template/list'] = [PUMPS];
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await screen.findByText('88.118.8/EX-1');
    fireEvent.click(screen.getByRole('button', { name: /新建标识/ }));
    const panel = await drawer('新建标识');
    const date = await within(panel).findByLabelText('生产日期');
    expect(date.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    expect(within(panel).getByText('productionDate · 日期 YYYY-MM-DD')).toBeTruthy();
    expect(within(panel).getByText('ratedPressure · 数字，0–35')).toBeTruthy();
    expect(within(panel).getByRole('combobox', { name: '质保期' })).toBeTruthy();

    fireEvent.change(within(panel).getByLabelText('标识后缀'), { target: { value: 'HP-1' } });
    fireEvent.change(within(panel).getByLabelText('额定压力'), { target: { value: '40' } });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(panel)).toEqual(['“生产日期”为必填项', '“额定压力”应在 0–35 之间']));
    expect(fake.api!.post).not.toHaveBeenCalled();

    // A day the month does not have stays in the box and is refused with the server's words.
    fireEvent.change(date, { target: { value: '2024-02-30' } });
    fireEvent.blur(date);
    await waitFor(() => expect(fieldErrors(panel)[0]).toBe('“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01'));
    expect((date as HTMLInputElement).value).toBe('2024-02-30');

    fireEvent.mouseDown(date);
    fireEvent.click(date);
    const today = await waitFor(() => {
      const cell = document.querySelector('.ant-picker-dropdown td.ant-picker-cell-today');
      expect(cell).toBeTruthy();
      return cell!;
    });
    const day = today.getAttribute('title')!;
    fireEvent.click(today.querySelector('.ant-picker-cell-inner')!);
    fireEvent.change(within(panel).getByLabelText('额定压力'), { target: { value: '31.5' } });
    await pick(panel, '质保期', '24个月');
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    expect(fake.api!.post.mock.calls[0]![1]).toMatchObject({
      suffix: 'HP-1',
      templateId: 7,
      values: { productionDate: day, ratedPressure: '31.5', warranty: '24个月' },
    });
  });

  it('names a stored value its item no longer takes (written before the item became a date)', async () => {
    fake.api!.routes['GET /web-api/identity/v1/template/list'] = [PUMPS];
    const old = { ...RECORD, templateId: 7, templateName: '液压泵', values: { productionDate: 'abcdefghij', warranty: '五年' } };
    fake.api!.routes[`GET ${RECORDS}/page/list`] = [{ rows: [old], total: 1 }];
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    const row = await recordRow('88.118.8/EX-1');
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const panel = await drawer('编辑标识 88.118.8/EX-1');
    expect((await within(panel).findByLabelText('生产日期')).getAttribute('placeholder')).toBe('abcdefghij');
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() =>
      expect(fieldErrors(panel)).toEqual([
        '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01',
        '“质保期”应为可选值之一：12个月、24个月',
      ]),
    );
    expect(fake.api!.put).not.toHaveBeenCalled();
  });
});

describe('标识记录 CSV', () => {
  it('imports the picked file for the picked template and shows the summary with the bad rows’ line numbers', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    await screen.findByText('88.118.8/EX-1');
    fireEvent.click(screen.getByRole('button', { name: /批量导入/ }));
    const modal = await dialog('批量导入标识');
    const start = () => within(modal).getByRole('button', { name: /开始导入/ }) as HTMLButtonElement;
    expect(start().disabled).toBe(true);
    await pick(modal, '导入模板', '88.118.8 · 工程机械整机（v2）');

    // The header-only import file of the chosen template.
    fireEvent.click(within(modal).getByRole('button', { name: /下载导入模板/ }));
    const [template, templateName] = vi.mocked(saveBlob).mock.calls[0]!;
    expect(await template.text()).toBe('\uFEFF标识后缀,产品名称,出厂编号,颜色\r\n');
    expect(templateName).toBe('标识导入模板-88.118.8-工程机械整机.csv');

    // The upload control renders a fresh input after each pick.
    const input = () => within(modal).getByLabelText('导入文件');
    fireEvent.change(input(), { target: { files: [new File(['x'], 'machines.xls')] } });
    expect(await within(modal).findByText('不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入')).toBeTruthy();
    // 新增 unless 更新 is chosen: no 迁移 option then.
    expect((within(modal).getByRole('radio', { name: '新增标识' }) as HTMLInputElement).checked).toBe(true);
    expect(within(modal).queryByRole('checkbox', { name: /同时迁移到最新版本/ })).toBeNull();
    const csv = new File(['标识后缀,产品名称,出厂编号\r\nEX-7,挖掘机,HY0007\r\nEX-8,挖掘机,HY\r\nEX-9,挖掘机,HY0009\r\n'], 'machines.csv', {
      type: 'text/csv',
    });
    fireEvent.change(input(), { target: { files: [csv] } });
    await waitFor(() => expect(start().disabled).toBe(false));
    fireEvent.click(start());

    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    const [url, body, config] = fake.api!.post.mock.calls[0]!;
    expect(url).toBe(`${RECORDS}/import`);
    expect(config?.params).toEqual({ templateId: 5, mode: 'create' });
    expect((body as FormData).get('file')).toBeInstanceOf(File);
    expect(((body as FormData).get('file') as File).name).toBe('machines.csv');

    // One bad row and nothing is written: the summary says so and lists the row.
    const summary = await within(modal).findByRole('region', { name: '导入结果' });
    const stats = within(within(summary).getByRole('list', { name: '导入统计' })).getAllByRole('listitem');
    expect(stats.map((s) => s.textContent)).toEqual(['数据行3', '成功导入0', '失败1']);
    const errorRow = within(summary).getByRole('row', { name: /“出厂编号”长度应为 4–12 个字符/ });
    expect(within(errorRow).getByRole('cell', { name: '3' })).toBeTruthy();
    expect(within(summary).getByText('1 行有误，未写入任何标识，原因见下表。修改后重新导入整个文件。')).toBeTruthy();
    expect(within(summary).getByText('工程机械整机 · 新增 · machines.csv')).toBeTruthy();
  });

  it('updates existing records from an XLSX file, moving them to the latest version when asked', async () => {
    fake.api!.routes[`POST ${RECORDS}/import`] = [{ total: 2, imported: 2, failed: 0, errors: [] }];
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_MANAGER) });
    await screen.findByText('88.118.8/EX-1');
    fireEvent.click(screen.getByRole('button', { name: /批量导入/ }));
    const modal = await dialog('批量导入标识');
    await pick(modal, '导入模板', '88.118.8 · 工程机械整机（v2）');
    fireEvent.click(within(modal).getByRole('radio', { name: '更新已有标识' }));
    expect(within(modal).getByText(/文件中的列覆盖对应数据项（空白单元格清空该项），文件中没有的列保持原值/)).toBeTruthy();
    fireEvent.click(await within(modal).findByRole('checkbox', { name: '同时迁移到最新版本（v2）' }));
    const xlsx = new File(['PK'], 'machines.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    fireEvent.change(within(modal).getByLabelText('导入文件'), { target: { files: [xlsx] } });
    const start = within(modal).getByRole('button', { name: /开始导入/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    expect(fake.api!.post.mock.calls[0]![2]?.params).toEqual({ templateId: 5, mode: 'update', toLatest: true });
    const summary = await within(modal).findByRole('region', { name: '导入结果' });
    const stats = within(within(summary).getByRole('list', { name: '导入统计' })).getAllByRole('listitem');
    expect(stats.map((s) => s.textContent)).toEqual(['数据行2', '已更新2', '失败0']);
    expect(within(summary).getByText('已更新 2 个标识')).toBeTruthy();
    expect(within(summary).getByText('工程机械整机 · 更新并迁移到最新版本 · machines.xlsx')).toBeTruthy();
  });

  it('exports the filtered template with the token-carrying client; without a template filter it cannot choose', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await screen.findByText('88.118.8/EX-1');
    const exportButton = () => screen.getByRole('button', { name: /导出 CSV/ }) as HTMLButtonElement;
    // Two templates and none filtered: which one to export is unknown.
    expect(exportButton().disabled).toBe(true);

    await pick(document.body, '模板', '工程机械整机');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, templateId: 5 }));
    await waitFor(() => expect(exportButton().disabled).toBe(false));
    fireEvent.click(exportButton());
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(`${RECORDS}/export`, expect.objectContaining({ params: { templateId: 5 } }));

    // The search box narrows the export as it narrows the list.
    fireEvent.change(screen.getByPlaceholderText('按标识或后缀开头搜索'), { target: { value: ' EX-2024 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ offset: 0, limit: 20, templateId: 5, searchKey: 'EX-2024' }));
    fireEvent.click(exportButton());
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(2));
    expect(fake.api!.blob).toHaveBeenLastCalledWith(
      `${RECORDS}/export`,
      expect.objectContaining({ params: { templateId: 5, searchKey: 'EX-2024' } }),
    );
    expect(vi.mocked(saveBlob).mock.calls[0]![1]).toMatch(/^标识-工程机械整机-\d{14}\.csv$/);
  });
});

describe('标识记录 operator vs enterprise view', () => {
  it('operators see every enterprise’s prefixes named with the enterprise; enterprise staff see theirs without', async () => {
    fake.api!.routes['GET /web-api/identity/v1/prefix/list'] = [HENGYUE, RUICHI];
    const { unmount } = renderWithProviders(<RecordAdminPage />, { session: menusEntry([...RECORD_KEEPER, 'identifier:all-enterprises']) });
    await screen.findByText('88.118.8/EX-1');
    await pick(document.body, '标识前缀', '88.118.16 瑞驰液压元件产品标识（常州瑞驰液压科技有限公司）');
    unmount();

    fake.api!.routes['GET /web-api/identity/v1/prefix/list'] = [HENGYUE];
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await screen.findByText('88.118.8/EX-1');
    await pick(document.body, '标识前缀', '88.118.8 恒岳重工工程机械产品标识');
  });
});
