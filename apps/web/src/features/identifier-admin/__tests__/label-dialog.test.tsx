import { LABEL_MAX_RECORDS, LabelMessage } from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '@/lib/download';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { RecordAdminPage } from '../components/record-admin-page';
import { HENGYUE, MACHINES, PARTS, RECORD } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const RECORDS = '/web-api/identity/v1/record';
const RECORD_KEEPER = ['identifier', 'identifier:record'];
/** A second record of another template. */
const PART = {
  ...RECORD,
  id: 12,
  handle: '88.118.8/PT-1',
  suffix: 'PT-1',
  templateId: 6,
  templateName: '配件',
  values: { partName: '斗齿' },
};

const page = (rows: unknown[], total = rows.length) => ({ [`GET ${RECORDS}/page/list`]: [{ rows, total }] });

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    'GET /web-api/identity/v1/prefix/list': [HENGYUE],
    'GET /web-api/identity/v1/template/list': [MACHINES, PARTS],
    ...page([RECORD, PART]),
  });
  vi.mocked(saveBlob).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

const printButton = () => screen.queryByRole('button', { name: /打印标签/ });
const openDialog = async () => {
  fireEvent.click(printButton()!);
  return screen.findByRole('dialog', { name: '打印标签' });
};
const rowOf = (handle: string) => screen.findByRole('row', { name: new RegExp(handle.replace(/[.]/g, '\\.')) });
const tick = async (handle: string) => fireEvent.click(within(await rowOf(handle)).getByRole('checkbox'));
const generate = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /生成 PDF/ }) as HTMLButtonElement;
const fieldsSelect = (dialog: HTMLElement) => within(dialog).getByRole('combobox', { name: '数据项' });

describe('打印标签 in 标识记录', () => {
  it('is offered, with row selection, to holders of identifier:record only', async () => {
    const { unmount } = renderWithProviders(<RecordAdminPage />, { session: menusEntry(['identifier', 'identifier:template']) });
    await rowOf('88.118.8/EX-1');
    expect(printButton()).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    unmount();

    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await rowOf('88.118.8/EX-1');
    expect(printButton()).toBeTruthy();
    expect(within(await rowOf('88.118.8/EX-1')).getByRole('checkbox')).toBeTruthy();
  });

  it('prints the selected records with two items of their template, downloaded through the API client as a PDF', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await tick('88.118.8/EX-1');
    const dialog = await openDialog();
    expect((within(dialog).getByRole('radio', { name: '已选标识（1 个）' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByRole('radio', { name: '当前筛选结果（共 2 个）' })).toBeTruthy();
    expect(within(dialog).getByText('A4 纸每页 27 个（3 列 × 9 行），标签之间留 2 mm 裁切间距')).toBeTruthy();

    // Items in use of the record's template (工程机械整机), not the retired one; at most two.
    await chooseOption(fieldsSelect(dialog), '产品名称');
    await chooseOption(fieldsSelect(dialog), '出厂编号');
    fireEvent.mouseDown(fieldsSelect(dialog));
    expect(within(document.body).queryByRole('option', { name: '旧型号' })).toBeNull();
    await chooseOption(within(dialog).getByRole('combobox', { name: '标签尺寸' }), '60 × 40 mm');
    expect(within(dialog).getByText('A4 纸每页 18 个（3 列 × 6 行），标签之间留 2 mm 裁切间距')).toBeTruthy();

    fireEvent.click(generate(dialog));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenCalledWith(
      `${RECORDS}/labels`,
      expect.objectContaining({
        method: 'post',
        data: { ids: [9], size: '60x40', layout: 'sheet', fields: ['productName', 'serialNumber'], cutGuides: true },
      }),
    );
    expect(vi.mocked(saveBlob).mock.calls[0]![1]).toMatch(/^标识标签-\d{4}-\d{2}-\d{2}\.pdf$/);
  });

  it('prints the current filter for label printers; without one template it explains why no item can be chosen', async () => {
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await rowOf('88.118.8/EX-1');
    let dialog = await openDialog();
    // Nothing ticked: only the filter's records can be printed.
    expect((within(dialog).getByRole('radio', { name: '已选标识（0 个）' }) as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByRole('radio', { name: '当前筛选结果（共 2 个）' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText('请先在筛选中选择模板并查询，才能选择数据项：否则标签只印二维码和标识。')).toBeTruthy();
    expect(fieldsSelect(dialog).closest('.ant-select-disabled')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('radio', { name: '单张标签' }));
    expect(within(dialog).getByText('每页一个标签，页面即 50 × 30 mm，适合标签打印机')).toBeTruthy();
    expect(within(dialog).queryByRole('checkbox', { name: '打印裁切线' })).toBeNull();
    fireEvent.click(generate(dialog));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fake.api!.blob).toHaveBeenLastCalledWith(
      `${RECORDS}/labels`,
      expect.objectContaining({ data: { size: '50x30', layout: 'single', fields: [] } }),
    );
    expect(notify.success).toHaveBeenCalledWith('已生成 2 个标签');

    // Ticked records of two templates: no common items either.
    await tick('88.118.8/EX-1');
    await tick('88.118.8/PT-1');
    dialog = await openDialog();
    expect((within(dialog).getByRole('radio', { name: '已选标识（2 个）' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText('所选标识属于不同模板，不能选择数据项：标签只印二维码和标识。')).toBeTruthy();
  });

  it(`refuses a filter of more than ${LABEL_MAX_RECORDS} records before asking the server`, async () => {
    fake.api!.routes[`GET ${RECORDS}/page/list`] = [{ rows: [RECORD], total: LABEL_MAX_RECORDS + 1 }];
    renderWithProviders(<RecordAdminPage />, { session: menusEntry(RECORD_KEEPER) });
    await rowOf('88.118.8/EX-1');
    const dialog = await openDialog();
    expect(within(dialog).getByText(LabelMessage.tooMany)).toBeTruthy();
    expect(generate(dialog).disabled).toBe(true);
    // A selection within the limit can still be printed.
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await tick('88.118.8/EX-1');
    expect(generate(await openDialog()).disabled).toBe(false);
  });
});
