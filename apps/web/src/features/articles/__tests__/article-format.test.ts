import { describe, expect, it } from 'vitest';
import { dateRangeBounds, expiryText, publishDateText } from '@/lib/article-text';
import { INITIAL_ARTICLE_FILTERS, articleListQuery, pageOffset } from '../lib/article-format';

describe('article texts (spec sections 2, 5, 7, 9)', () => {
  it.each([
    [-1, '长期有效'],
    [null, '长期有效'],
    [undefined, '长期有效'],
    [90, '90天'],
    [365, '365天'],
    [366, '1年1天'],
    [730, '2年'],
    [1095, '3年'],
    [1825, '5年'],
    [800, '2年70天'],
  ])('expiry %s → %s', (days, text) => {
    expect(expiryText(days)).toBe(text);
  });

  it('shows the first 10 characters of the publish time or 未发布', () => {
    expect(publishDateText('2026-11-20 10:30:00')).toBe('2026-11-20');
    expect(publishDateText('')).toBe('未发布');
    expect(publishDateText(null)).toBe('未发布');
  });

  it('bounds a date range by the whole days and pages by offset', () => {
    expect(dateRangeBounds('2026-01-01', '2026-01-31')).toEqual({
      filterStartTime: '2026-01-01 00:00:00',
      filterEndTime: '2026-01-31 23:59:59',
    });
    expect(pageOffset(1, 10)).toBe(0);
    expect(pageOffset(3, 10)).toBe(20);
  });

  it('builds the list call of the filters: the first view is page 1 of 10, sort 6, no dates', () => {
    expect(articleListQuery(INITIAL_ARTICLE_FILTERS, 'news')).toEqual({
      offset: 0,
      limit: 10,
      searchKey: '',
      filterCategoryId: 'news',
      sortOrder: 6,
    });
    expect(articleListQuery({ searchKey: '挖掘机', range: ['2026-01-01', '2026-01-31'], sortOrder: 1, page: 3 }, 'policy')).toEqual({
      offset: 20,
      limit: 10,
      searchKey: '挖掘机',
      filterCategoryId: 'policy',
      filterStartTime: '2026-01-01 00:00:00',
      filterEndTime: '2026-01-31 23:59:59',
      sortOrder: 1,
    });
  });
});
