import type { IdentityQueryEntry } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { toMarkResult } from '../lib/mark-result';

const entry: IdentityQueryEntry = {
  identity: {
    handle: '88.118.8/EX-2024-000123',
    value: [
      { index: 2001, type: 'productModel', data: { format: 'string', value: 'HY-E215' } },
      { index: 2000, type: 'productName', data: { format: 'string', value: '中型履带式液压挖掘机' } },
      { index: 2099, type: 'notInTemplate', data: { format: 'string', value: '不显示' } },
    ],
  },
  template: {
    name: '工程机械整机',
    version: 1,
    items: [
      { name: '产品名称', idType: 'productName', idIndex: 2000 },
      { name: '产品型号', idType: 'productModel', idIndex: 2001 },
      { name: '质保期', idType: 'warrantyPeriod', idIndex: 2008 },
    ],
  },
};

describe('toMarkResult (spec section 3, "Identity record from lookup")', () => {
  it('maps the handle to mark and each template item, in template order, to the value of its idType', () => {
    expect(toMarkResult([entry])).toEqual({
      mark: '88.118.8/EX-2024-000123',
      fields: [
        { label: '产品名称', value: '中型履带式液压挖掘机' },
        { label: '产品型号', value: 'HY-E215' },
        { label: '质保期', value: '' },
      ],
    });
  });

  it('is an empty object without a first entry', () => {
    expect(toMarkResult([])).toEqual({});
  });
});
