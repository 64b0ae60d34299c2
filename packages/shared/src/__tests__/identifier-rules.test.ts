import { describe, expect, it } from 'vitest';
import {
  assignItemIndexes,
  checkNewSuffix,
  isReservedIdType,
  requiredValueMessage,
  textLength,
  valueProblem,
} from '../identifier-rules.js';

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
