import { describe, expect, it } from 'vitest';
import {
  activeItems,
  droppedValueNames,
  importTemplateCsv,
  initialRecordForm,
  itemHint,
  itemValueProblem,
  recordValues,
  valueRuleText,
} from '../lib/record-form';
import { INITIAL_RECORD_FILTERS, exportFilename, exportFilters, recordListQuery } from '../lib/record-query';
import { migrationVerdict, versionCounts } from '../components/record-migration-dialog';
import { importFileProblem, importVerdict } from '../components/record-import-dialog';
import {
  NEW_ITEM_ROW,
  boundsProblem,
  idTypeProblem,
  itemNameProblem,
  lengthProblem,
  optionsProblem,
  previewIndexes,
  rowMetadata,
  toTemplateForm,
  toTemplateItems,
} from '../lib/template-form';
import type { TemplateItem } from '@portal/shared';
import { HENGYUE, ITEMS, MACHINES, PARTS, RECORD, RUICHI, TYPED_ITEMS, VERSIONS } from './fixtures';

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
    const items = toTemplateItems([...form.items, { ...NEW_ITEM_ROW, name: ' 重量 ', idType: ' weight ', minLength: 0, maxLength: 16 }]);
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
  it('says whether every row was written or none, and how many errors it lists', () => {
    const errors = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, message: '“产品名称”为必填项' }));
    expect(importVerdict({ total: 0, imported: 0, failed: 0, errors: [] })).toEqual({
      type: 'info',
      text: '文件中没有数据行（第 1 行为表头）',
    });
    expect(importVerdict({ total: 5, imported: 5, failed: 0, errors: [] })).toEqual({ type: 'success', text: '全部 5 行已导入' });
    expect(importVerdict({ total: 5, imported: 5, failed: 0, errors: [] }, 'update')).toEqual({ type: 'success', text: '已更新 5 个标识' });
    expect(importVerdict({ total: 2, imported: 0, failed: 2, errors: errors(2) })).toEqual({
      type: 'error',
      text: '2 行有误，未写入任何标识，原因见下表。修改后重新导入整个文件。',
    });
    expect(importVerdict({ total: 5000, imported: 0, failed: 2000, errors: errors(1000) }, 'update').text).toBe(
      '2000 行有误，未写入任何标识，下面列出前 1000 行（最多 1000 行）。修改后重新导入整个文件。',
    );
  });

  it('takes a CSV or XLSX file within the size limit before sending', () => {
    expect(importFileProblem({ name: 'a.CSV', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'a.xlsx', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'a.xls', size: 10 })).toBe('不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入');
    expect(importFileProblem({ name: 'a.txt', size: 10 })).toBe('请选择 CSV 或 Excel 文件（.csv、.xlsx）');
    expect(importFileProblem({ name: 'a.csv', size: 257 * 1024 * 1024 })).toBe('文件不能超过 256 MB');
  });
});

describe('value types', () => {
  const [date, pressure, warranty] = TYPED_ITEMS as [TemplateItem, TemplateItem, TemplateItem];

  it('checks a record value by its item’s type with the server’s words', () => {
    expect(itemValueProblem(date, 'abcdefghij')).toBe('“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01');
    expect(itemValueProblem(date, '2024-02-30')).toBe('“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01');
    expect(itemValueProblem(date, ' 2024-02-29 ')).toBeUndefined();
    expect(itemValueProblem(pressure, '40')).toBe('“额定压力”应在 0–35 之间');
    expect(itemValueProblem(pressure, '3 MPa')).toBe('“额定压力”应为数字，如 12 或 3.5');
    expect(itemValueProblem(warranty, '18个月')).toBe('“质保期”应为可选值之一：12个月、24个月');
    expect(itemValueProblem(warranty, '')).toBeUndefined();
  });

  it('says what each type takes under the field and in the version history', () => {
    expect(TYPED_ITEMS.map(itemHint)).toEqual(['productionDate · 日期 YYYY-MM-DD', 'ratedPressure · 数字，0–35', 'warranty · 2 个可选值']);
    expect(valueRuleText(warranty.metadata, 'full')).toBe('可选：12个月、24个月');
    expect(valueRuleText({ type: 'number', min: 1 })).toBe('数字，不小于 1');
    expect(valueRuleText({ type: 'number' })).toBe('数字');
  });

  it('edits each type’s settings and sends only the chosen type’s, with 计入统计 when ticked', () => {
    const form = toTemplateForm({ name: '液压元件', items: TYPED_ITEMS });
    expect(form.items.map((row) => [row.valueType, row.min, row.max, row.options, row.analytics])).toEqual([
      ['date', undefined, undefined, [], false],
      ['number', 0, 35, [], false],
      ['enum', undefined, undefined, ['12个月', '24个月'], true],
    ]);
    const rows = [
      ...form.items,
      // A row switched to 数字 with its bounds emptied, and one switched from 文本 to 日期 (its lengths are left behind).
      { ...NEW_ITEM_ROW, name: '重量', idType: 'weight', valueType: 'number' as const, min: null, max: null },
      { ...NEW_ITEM_ROW, name: '出厂日期', idType: 'shipped', valueType: 'date' as const, minLength: 10, maxLength: 10 },
      { ...NEW_ITEM_ROW, name: '颜色', idType: 'color', valueType: 'enum' as const, options: [' 黄 ', '红'] },
    ];
    expect(toTemplateItems(rows).map((item) => [item.metadata, item.analytics])).toEqual([
      [{ type: 'date' }, undefined],
      [{ type: 'number', min: 0, max: 35 }, undefined],
      [{ type: 'enum', options: ['12个月', '24个月'] }, true],
      [{ type: 'number' }, undefined],
      [{ type: 'date' }, undefined],
      [{ type: 'enum', options: ['黄', '红'] }, undefined],
    ]);
    expect(rowMetadata({ valueType: 'string', minLength: 1, maxLength: 8 })).toEqual({ type: 'string', minLength: 1, maxLength: 8 });
  });

  it('refuses bad bounds and options only for their own type', () => {
    expect(boundsProblem({ valueType: 'number', min: 10, max: 1 })).toBe('最小值不能大于最大值');
    expect(boundsProblem({ valueType: 'number', min: 1, max: null })).toBeUndefined();
    expect(boundsProblem({ valueType: 'string', min: 10, max: 1 })).toBeUndefined();
    expect(optionsProblem({ valueType: 'enum', options: [] })).toBe('可选值至少需要一个');
    expect(optionsProblem({ valueType: 'enum', options: ['A', ' A'] })).toBe('可选值“A”重复');
    expect(optionsProblem({ valueType: 'date', options: [] })).toBeUndefined();
    expect(lengthProblem({ valueType: 'date', minLength: 9, maxLength: 1 }, 'maxLength')).toBeUndefined();
  });
});

describe('export and migration', () => {
  it('exports with the list’s prefix and search, for the template chosen', () => {
    expect(exportFilters({ ...INITIAL_RECORD_FILTERS, searchKey: ' EX-2024 ', prefix: '88.118.8' }, 5)).toEqual({
      templateId: 5,
      prefix: '88.118.8',
      searchKey: 'EX-2024',
    });
    expect(exportFilters(INITIAL_RECORD_FILTERS, 5)).toEqual({ templateId: 5 });
  });

  it('tells nothing to move, a blocked migration, lost values and a clean move apart', () => {
    const preview = {
      templateId: 5,
      templateName: '工程机械整机',
      toVersion: 3,
      total: 150,
      versions: [
        { version: 1, records: 120 },
        { version: 2, records: 30 },
      ],
      lostItems: [{ idType: 'color', name: '颜色', records: 12 }],
      losing: 12,
      samples: [],
      blocked: 0,
      problems: [],
    };
    expect(versionCounts(preview)).toBe('v1：120 个，v2：30 个');
    expect(migrationVerdict(preview)).toEqual({
      type: 'warning',
      text: '150 个标识将迁移到 v3，其中 12 个将丢失已停用或删除的数据项的值：颜色（12 个标识）',
    });
    expect(migrationVerdict({ ...preview, blocked: 2 }).type).toBe('error');
    expect(migrationVerdict({ ...preview, blocked: 2 }).text).toMatch(/^有 2 个标识的数据不符合 v3 的规则，不能迁移/);
    expect(migrationVerdict({ ...preview, losing: 0, lostItems: [] })).toEqual({
      type: 'success',
      text: '150 个标识将迁移到 v3，数据项的值全部保留',
    });
    expect(migrationVerdict({ ...preview, total: 0, versions: [] }).type).toBe('info');
  });
});
