import { describe, expect, it } from 'vitest';
import {
  activeItems,
  droppedValueNames,
  importTemplateCsv,
  initialRecordForm,
  itemHint,
  itemValueProblem,
  recordValues,
} from '../lib/record-form';
import { INITIAL_RECORD_FILTERS, exportFilename, recordListQuery } from '../lib/record-query';
import { importFileProblem, importVerdict } from '../components/record-import-dialog';
import { idTypeProblem, itemNameProblem, lengthProblem, previewIndexes, toTemplateForm, toTemplateItems } from '../lib/template-form';
import { HENGYUE, ITEMS, MACHINES, PARTS, RECORD, RUICHI, VERSIONS } from './fixtures';

const [name, serial, color] = ITEMS as [(typeof ITEMS)[0], (typeof ITEMS)[0], (typeof ITEMS)[0]];

describe('record form rules (the server’s words)', () => {
  it('requires required items, checks lengths in characters, ignores surrounding spaces', () => {
    expect(itemValueProblem(name, '')).toBe('“产品名称”为必填项');
    expect(itemValueProblem(name, '   ')).toBe('“产品名称”为必填项');
    expect(itemValueProblem(color, undefined)).toBeUndefined();
    expect(itemValueProblem(name, '挖'.repeat(21))).toBe('“产品名称”最长 20 个字符');
    expect(itemValueProblem(name, ` ${'挖'.repeat(20)} `)).toBeUndefined();
    expect(itemValueProblem(serial, 'HY1')).toBe('“出厂编号”长度应为 4–12 个字符');
    expect(itemHint(serial)).toBe('serialNumber · 4–12 个字符');
    expect(itemHint(name)).toBe('productName · 最长 20 个字符');
  });

  it('sends the items in use, trimmed, leaving empty ones out', () => {
    expect(activeItems(MACHINES).map((i) => i.idType)).toEqual(['productName', 'serialNumber', 'color']);
    expect(recordValues(MACHINES, { productName: ' 挖掘机 ', serialNumber: 'HY0001', color: ' ', oldModel: 'E215', stray: 'x' })).toEqual({
      productName: '挖掘机',
      serialNumber: 'HY0001',
    });
  });

  it('opens a record with its values, a new one with the list’s choice or the first prefix and template', () => {
    expect(initialRecordForm({ record: RECORD }, [HENGYUE], [MACHINES])).toEqual({
      prefix: '88.118.8',
      templateId: 5,
      values: { productName: '中型履带式液压挖掘机', serialNumber: 'HYE2150001' },
    });
    expect(droppedValueNames(RECORD, MACHINES)).toEqual(['旧型号']);
    expect(initialRecordForm({}, [HENGYUE, RUICHI], [MACHINES, PARTS])).toEqual({
      prefix: '88.118.8',
      templateId: 5,
      suffix: '',
      values: {},
    });
    expect(initialRecordForm({ templateId: 6 }, [RUICHI, HENGYUE], [MACHINES, PARTS])).toMatchObject({ prefix: '88.118.8', templateId: 6 });
  });

  it('offers an import file: BOM, the suffix column and the names of the items in use', () => {
    expect(importTemplateCsv(MACHINES)).toBe('\uFEFF标识后缀,产品名称,出厂编号,颜色\r\n');
    expect(importTemplateCsv({ items: [{ ...name, name: '型号,规格' }] })).toBe('\uFEFF标识后缀,"型号,规格"\r\n');
  });
});

describe('record list query', () => {
  it('asks for 20 from offset 0, then the filters that are set', () => {
    expect(recordListQuery(INITIAL_RECORD_FILTERS)).toEqual({ offset: 0, limit: 20 });
    expect(recordListQuery({ searchKey: ' EX-2024 ', prefix: '88.118.8', templateId: 5, page: 3, limit: 50 })).toEqual({
      offset: 100,
      limit: 50,
      prefix: '88.118.8',
      templateId: 5,
      searchKey: 'EX-2024',
    });
    expect(exportFilename('整机/配件', new Date(2026, 10, 20, 9, 5, 3))).toBe('标识-整机_配件-20261120090503.csv');
  });
});

describe('template form', () => {
  it('keeps the index of existing items and leaves it out for new ones', () => {
    const form = toTemplateForm(MACHINES);
    expect(form.items[3]).toMatchObject({ name: '旧型号', active: false, idIndex: 2003 });
    const items = toTemplateItems([
      ...form.items,
      { name: ' 重量 ', idType: ' weight ', required: false, active: true, minLength: 0, maxLength: 16 },
    ]);
    expect(items[0]).toEqual({
      name: '产品名称',
      idType: 'productName',
      idIndex: 2000,
      required: true,
      state: 1,
      metadata: { type: 'string', minLength: 1, maxLength: 20 },
    });
    expect(items[3]?.state).toBe(0);
    expect(items[4]).toEqual({
      name: '重量',
      idType: 'weight',
      required: false,
      state: 1,
      metadata: { type: 'string', minLength: 0, maxLength: 16 },
    });
  });

  it('shows the index the server will assign: from 2000, an idType’s old index, else after every index used', () => {
    expect(previewIndexes([{ idType: 'a' }, { idType: 'b' }], [])).toEqual([2000, 2001]);
    const earlier = VERSIONS.flatMap((v) => v.items);
    expect(previewIndexes([...toTemplateForm(MACHINES).items, { idType: 'weight' }, { idType: 'engine' }], earlier)).toEqual([
      2000, 2001, 2002, 2003, 2009, 2010,
    ]);
  });

  it('refuses empty, repeated and reserved names and types, and bad lengths', () => {
    const rows = [
      { name: '产品名称', idType: 'productName', minLength: 1, maxLength: 20 },
      { name: ' 产品名称 ', idType: 'ProductName', minLength: 5, maxLength: 2 },
      { name: '', idType: 'HS_ADMIN', minLength: -1, maxLength: 2001 },
      { name: '名'.repeat(33), idType: '1abc' },
    ];
    expect(itemNameProblem(rows, 0)).toBeUndefined();
    expect(itemNameProblem(rows, 1)).toBe('数据项名称“产品名称”重复');
    expect(itemNameProblem(rows, 2)).toBe('请输入数据项名称');
    expect(itemNameProblem(rows, 3)).toBe('名称最长 32 个字符，且不能包含控制字符');
    expect(idTypeProblem(rows, 1)).toBe('类型标识“ProductName”重复');
    expect(idTypeProblem(rows, 2)).toBe('类型标识“HS_ADMIN”为 Handle 系统保留，请换一个');
    expect(idTypeProblem(rows, 3)).toBe('类型标识只能包含字母、数字和下划线，以字母开头，最长 64 个字符');
    expect(lengthProblem(rows[1], 'maxLength')).toBe('最小长度不能大于最大长度');
    expect(lengthProblem(rows[2], 'minLength')).toBe('长度限制须在 0–2000 之间');
    expect(lengthProblem(rows[2], 'maxLength')).toBe('长度限制须在 0–2000 之间');
    expect(lengthProblem(rows[3], 'maxLength')).toBe('长度限制须在 0–2000 之间');
  });
});

describe('import summary', () => {
  it('says whether everything, nothing or part was imported, and how many errors it lists', () => {
    const errors = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, message: '“产品名称”为必填项' }));
    expect(importVerdict({ total: 0, imported: 0, failed: 0, errors: [] })).toEqual({
      type: 'info',
      text: '文件中没有数据行（第 1 行为表头）',
    });
    expect(importVerdict({ total: 5, imported: 5, failed: 0, errors: [] })).toEqual({ type: 'success', text: '全部 5 行已导入' });
    expect(importVerdict({ total: 2, imported: 0, failed: 2, errors: errors(2) })).toEqual({
      type: 'error',
      text: '2 行都未导入，原因见下表。修改后重新导入。',
    });
    expect(importVerdict({ total: 5000, imported: 3000, failed: 2000, errors: errors(1000) }).text).toBe(
      '3000 行已导入，2000 行未导入，下面列出前 1000 行（最多 1000 行）。修改后只需重新导入这些行。',
    );
  });

  it('refuses a file that is not CSV or too large before sending', () => {
    expect(importFileProblem({ name: 'a.CSV', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'a.xlsx', size: 10 })).toBe('请选择 CSV 文件（.csv）');
    expect(importFileProblem({ name: 'a.csv', size: 257 * 1024 * 1024 })).toBe('文件不能超过 256 MB');
  });
});
