import { describe, expect, it } from 'vitest';
import {
  assignItemIndexes,
  checkNewSuffix,
  enumOptionsProblem,
  isCalendarDate,
  isReservedIdType,
  metadataProblem,
  numberRangeText,
  requiredValueMessage,
  textLength,
  valueProblem,
} from '../identifier-rules.js';
import type { TemplateItemMetadata } from '../identifiers.js';

const item = (minLength: number, maxLength: number) => ({ name: '产品型号', metadata: { type: 'string' as const, minLength, maxLength } });

describe('identifier rules shared by console and server', () => {
  it('counts characters as a person does (an astral character is one)', () => {
    expect(textLength('挖掘机')).toBe(3);
    expect(textLength('𠀀a')).toBe(2);
  });

  it('names the item and its limits in the length message', () => {
    expect(valueProblem(item(1, 4), 'HY-E2')).toBe('“产品型号”最长 4 个字符');
    expect(valueProblem(item(10, 10), '2024-1-1')).toBe('“产品型号”长度应为 10–10 个字符');
    expect(valueProblem(item(0, 4), 'HY')).toBeUndefined();
    expect(valueProblem(item(1, 8), 'a\tb')).toBe('“产品型号”不能包含控制字符');
    expect(requiredValueMessage({ name: '产品名称' })).toBe('“产品名称”为必填项');
  });

  it('takes a date only as a real calendar date written YYYY-MM-DD', () => {
    const date = { name: '生产日期', metadata: { type: 'date' } as const };
    for (const good of ['2024-02-29', '2000-02-29', '2025-04-01', '2025-12-31', '0001-01-01'])
      expect(valueProblem(date, good), good).toBeUndefined();
    for (const bad of [
      'abcdefghij',
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2025-04-31',
      '2025-13-01',
      '2025-00-10',
      '2025-4-1',
      '0000-01-01',
      '2025-04-01T00:00',
    ])
      expect(valueProblem(date, bad), bad).toBe('“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01');
    expect(isCalendarDate('2024-02-29')).toBe(true);
  });

  it('takes a number as a decimal within the optional bounds', () => {
    const number = (min?: number, max?: number) => ({ name: '额定压力', metadata: { type: 'number', min, max } as TemplateItemMetadata });
    for (const good of ['0', '12', '-3', '3.5', '007', '31.50']) expect(valueProblem(number(), good), good).toBeUndefined();
    for (const bad of ['abc', '1e3', '+1', '.5', '5.', '1,000', '0x10', 'NaN', 'Infinity', '1'.repeat(33)])
      expect(valueProblem(number(), bad), bad).toBe('“额定压力”应为数字，如 12 或 3.5');
    expect(valueProblem(number(0, 35), '35')).toBeUndefined();
    expect(valueProblem(number(0, 35), '35.01')).toBe('“额定压力”应在 0–35 之间');
    expect(valueProblem(number(0, 35), '-0.5')).toBe('“额定压力”应在 0–35 之间');
    expect(valueProblem(number(1), '0')).toBe('“额定压力”不能小于 1');
    expect(valueProblem(number(undefined, 10), '11')).toBe('“额定压力”不能大于 10');
    expect([numberRangeText({ min: 0, max: 35 }), numberRangeText({ min: 1 }), numberRangeText({ max: 10 }), numberRangeText({})]).toEqual([
      '0–35',
      '不小于 1',
      '不大于 10',
      '',
    ]);
  });

  it('takes an enumeration value only as one of its options, exactly', () => {
    const options = ['12个月', '24个月', '36个月'];
    const item = { name: '质保期', metadata: { type: 'enum', options } as const };
    expect(valueProblem(item, '24个月')).toBeUndefined();
    expect(valueProblem(item, '18个月')).toBe('“质保期”应为可选值之一：12个月、24个月、36个月');
    const many = { name: '颜色', metadata: { type: 'enum', options: Array.from({ length: 10 }, (_, i) => `色${i}`) } as const };
    expect(valueProblem(many, '金')).toBe('“颜色”应为可选值之一：色0、色1、色2、色3、色4、色5、色6、色7 等 10 项');
    // Control characters are refused whatever the type.
    expect(valueProblem(item, '12个月\u0000')).toBe('“质保期”不能包含控制字符');
  });

  it('checks the metadata of each type', () => {
    expect(metadataProblem({ type: 'string', minLength: 0, maxLength: 64 })).toBeUndefined();
    expect(metadataProblem({ type: 'string', minLength: 5, maxLength: 3 })).toBe('最小长度不能大于最大长度');
    expect(metadataProblem({ type: 'string', minLength: 0, maxLength: 2001 })).toBe('长度限制须在 0–2000 之间');
    expect(metadataProblem({ type: 'date' })).toBeUndefined();
    expect(metadataProblem({ type: 'number' })).toBeUndefined();
    expect(metadataProblem({ type: 'number', min: 10, max: 1 })).toBe('最小值不能大于最大值');
    expect(metadataProblem({ type: 'number', min: Number.NaN })).toBe('最小值和最大值须为数字');
    expect(metadataProblem({ type: 'enum', options: ['A', 'B'] })).toBeUndefined();
    expect(enumOptionsProblem([])).toBe('可选值至少需要一个');
    expect(enumOptionsProblem(['A', 'A'])).toBe('可选值“A”重复');
    expect(enumOptionsProblem(['A', ' '])).toBe('可选值不能为空');
    expect(enumOptionsProblem(['长'.repeat(33)])).toBe('可选值最长 32 个字符，且不能包含控制字符');
    expect(enumOptionsProblem(Array.from({ length: 101 }, (_, i) => String(i)))).toBe('可选值最多 100 个');
  });

  it('refuses Handle-reserved types and unsafe suffixes', () => {
    expect(isReservedIdType('hs_admin')).toBe(true);
    expect(isReservedIdType('Template')).toBe(true);
    expect(isReservedIdType('productName')).toBe(false);
    expect(checkNewSuffix('EX-2024-000123')).toBeUndefined();
    expect(checkNewSuffix('')).toBe('标识后缀不能为空');
    expect(checkNewSuffix('-x')).toMatch(/^标识后缀只能包含字母、数字/);
    expect(checkNewSuffix('a/../b')).toBe('标识后缀格式不正确：不能含有“.”或“..”路径段');
  });

  it('assigns indexes from 2000 in order, keeps given ones and an idType’s earlier index', () => {
    expect(assignItemIndexes([{ idType: 'a' }, { idType: 'b' }, { idType: 'c' }])).toEqual([2000, 2001, 2002]);
    expect(assignItemIndexes([{ idType: 'a', idIndex: 2005 }, { idType: 'b' }])).toEqual([2005, 2006]);
    // "b" was 2001 once and was dropped; it comes back with 2001, a new type goes after every index used so far.
    const earlier = [
      { idType: 'a', idIndex: 2000 },
      { idType: 'b', idIndex: 2001 },
      { idType: 'x', idIndex: 2007 },
    ];
    expect(assignItemIndexes([{ idType: 'a', idIndex: 2000 }, { idType: 'new' }, { idType: 'B' }], earlier)).toEqual([2000, 2008, 2001]);
  });
});
