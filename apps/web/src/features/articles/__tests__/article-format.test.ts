import { describe, expect, it } from 'vitest';
import { dateRangeBounds, expiryText, publishDateText } from '@/lib/article-text';
import {
  INITIAL_ARTICLE_FILTERS,
  articleListQuery,
  articleListSearch,
  pageOffset,
  readArticleListView,
  shownCategory,
} from '../lib/article-format';

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

describe('a list view in the URL (/news, /knowledge)', () => {
  const read = (query: string) => readArticleListView(new URLSearchParams(query));

  it('reads the defaults from an empty query: first category, page 1, sort 6, no search or dates', () => {
    expect(read('')).toEqual({ ...INITIAL_ARTICLE_FILTERS, category: undefined });
  });

  it('reads and writes every filter, leaving the defaults out', () => {
    const view = {
      category: 'policy',
      page: 3,
      searchKey: '挖掘机',
      sortOrder: 1,
      range: ['2026-01-01', '2026-01-31'] as [string, string],
    };
    const query = articleListSearch(view).toString();
    expect(query).toBe('category=policy&page=3&keyword=%E6%8C%96%E6%8E%98%E6%9C%BA&sort=1&from=2026-01-01&to=2026-01-31');
    expect(read(query)).toEqual(view);
    expect(articleListSearch({ ...INITIAL_ARTICLE_FILTERS, category: undefined }).toString()).toBe('');
  });

  it('falls back to the default of a parameter that makes no sense', () => {
    const defaults = { ...INITIAL_ARTICLE_FILTERS, category: undefined };
    expect(read('page=0&sort=99&keyword=%20%20&from=2026-01-01')).toEqual(defaults);
    expect(read('page=abc&to=2026-13').page).toBe(1);
    expect(read('page=2.5').page).toBe(1);
  });

  it.each([
    ['page=-3', 'page'],
    ['page=1e3', 'page'],
    ['page=0x10', 'page'],
    ['page=%202', 'page'],
    ['page=999999999999999999999', 'page'],
    ['page=100001', 'page'],
    ['page=', 'page'],
    ['sort=0', 'sortOrder'],
    ['sort=6.0', 'sortOrder'],
    ['sort=%3Cb%3E', 'sortOrder'],
    ['sort=', 'sortOrder'],
    ['from=2026-02-30&to=2026-03-01', 'range'],
    ['from=2026-02-01&to=2026-13-01', 'range'],
    ['from=2026-3-1&to=2026-03-02', 'range'],
    ['from=2026-03-01T00:00&to=2026-03-02', 'range'],
    ['from=2026-03-05&to=2026-03-01', 'range'],
    ['to=2026-03-01', 'range'],
    ['category=%3Cscript%3E', 'category'],
    ['category=' + 'a'.repeat(33), 'category'],
    ['category=', 'category'],
  ] as const)('%s: the malformed %s falls back to its default, the rest is kept', (query, field) => {
    const view = read(`${query}&keyword=挖掘机`);
    expect(view[field]).toEqual({ ...INITIAL_ARTICLE_FILTERS, category: undefined }[field]);
    expect(view.searchKey).toBe('挖掘机');
  });

  it('keeps sensible edge values: the last allowed page, a one-day range, a leap day', () => {
    expect(read('page=100000').page).toBe(100000);
    expect(read('from=2026-03-01&to=2026-03-01').range).toEqual(['2026-03-01', '2026-03-01']);
    expect(read('from=2028-02-29&to=2028-03-01').range).toEqual(['2028-02-29', '2028-03-01']);
    expect(read('sort=1&sort=2').sortOrder).toBe(1);
  });

  it('searches on at most the 50 characters the server searches on', () => {
    expect(read(`keyword=${'挖'.repeat(80)}`).searchKey).toBe('挖'.repeat(50));
  });

  it('shows the asked category if the channel has it, otherwise the first', () => {
    const categories = [
      { id: 1, categoryId: 'news', categoryName: '行业动态', channel: 'news', children: [] },
      { id: 2, categoryId: 'policy', categoryName: '政策法规', channel: 'news', children: [] },
    ];
    expect(shownCategory(categories, 'policy')).toBe('policy');
    expect(shownCategory(categories, 'nope')).toBe('news');
    expect(shownCategory(categories, undefined)).toBe('news');
    expect(shownCategory(undefined, 'policy')).toBeUndefined();
  });
});
