import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { AdminCategory } from '../api/categories';
import { toArticleForm, toArticleInput } from '../lib/article-form';
import { INITIAL_ARTICLE_ADMIN_FILTERS, articleAdminQuery } from '../lib/article-query';
import { categoryOptions, categoryTree, isPolicyCategory } from '../lib/category-tree';
import { moved } from '../lib/reorder';
import { KPI_NUMBER, isLinkUrl } from '../lib/url-rules';

const category = (categoryId: string, channel: 'news' | 'knowledge', parentId: string | null = null): AdminCategory => ({
  id: categoryId.length,
  categoryId,
  categoryName: `名称-${categoryId}`,
  channel,
  parentId,
  sort: 0,
  articleCount: 0,
});
const CATEGORIES = [
  category('knowledge', 'knowledge'),
  category('news', 'news'),
  category('policy', 'news'),
  category('policy-national', 'news', 'policy'),
  category('policy-local', 'news', 'policy'),
];

describe('article management filters → list call', () => {
  it('the first view is page 1 of 20 with no filters', () => {
    expect(articleAdminQuery(INITIAL_ARTICLE_ADMIN_FILTERS)).toEqual({ offset: 0, limit: 20 });
  });

  it('sends the trimmed title key, category, status and whole publish days; pages by offset', () => {
    expect(
      articleAdminQuery({
        searchKey: '  挖掘机 ',
        categoryId: 'policy',
        status: 'offline',
        range: [dayjs('2026-03-01 10:20:30'), dayjs('2026-03-31 08:00:00')],
        page: 3,
        limit: 50,
      }),
    ).toEqual({
      offset: 100,
      limit: 50,
      searchKey: '挖掘机',
      categoryId: 'policy',
      status: 'offline',
      filterStartTime: '2026-03-01 00:00:00',
      filterEndTime: '2026-03-31 23:59:59',
    });
  });

  it('leaves out a blank key and a cleared range', () => {
    expect(articleAdminQuery({ ...INITIAL_ARTICLE_ADMIN_FILTERS, searchKey: '   ', range: [null, null], page: 2 })).toEqual({
      offset: 20,
      limit: 20,
    });
  });
});

describe('categories', () => {
  it('build the two-level tree, news channel first', () => {
    const tree = categoryTree(CATEGORIES);
    expect(tree.map((c) => c.categoryId)).toEqual(['news', 'policy', 'knowledge']);
    expect(tree[1]?.children?.map((c) => c.categoryId)).toEqual(['policy-national', 'policy-local']);
    expect(tree[0]?.children).toBeUndefined();
  });

  it('tell policies (the policy category and its children) from the rest', () => {
    expect(isPolicyCategory(CATEGORIES, 'policy')).toBe(true);
    expect(isPolicyCategory(CATEGORIES, 'policy-local')).toBe(true);
    expect(isPolicyCategory(CATEGORIES, 'news')).toBe(false);
    expect(isPolicyCategory(CATEGORIES, undefined)).toBe(false);
  });

  it('group the options by channel; channels cannot be chosen', () => {
    const options = categoryOptions(CATEGORIES);
    expect(options.map((o) => [o.title, o.selectable])).toEqual([
      ['行业资讯', false],
      ['行业知识', false],
    ]);
    expect(options[0]?.children?.[1]?.children?.map((c) => c.value)).toEqual(['policy-national', 'policy-local']);
  });
});

describe('article form → write API body', () => {
  const values = {
    title: '  关于推进工业互联网标识解析的通知 ',
    categoryId: 'policy-national',
    summary: ' 摘要 ',
    thumbnail: '',
    number: ' 工信部〔2026〕1号 ',
    expirationDay: 730,
    dataSourceName: '  ',
    content: '<p>正文</p>',
  };

  it('sends the policy number and validity for policies, blanks as null', () => {
    expect(toArticleInput(values, true)).toEqual({
      title: '关于推进工业互联网标识解析的通知',
      categoryId: 'policy-national',
      summary: '摘要',
      thumbnail: null,
      number: '工信部〔2026〕1号',
      expirationDay: 730,
      dataSourceName: null,
      content: '<p>正文</p>',
    });
  });

  it('drops the policy-only fields for other categories', () => {
    expect(toArticleInput({ ...values, categoryId: 'news' }, false)).toMatchObject({ number: null, expirationDay: null });
  });

  it('round-trips a stored article', () => {
    const form = toArticleForm({
      id: 1,
      uuid: 'u',
      title: 't',
      summary: 's',
      thumbnail: null,
      number: null,
      categoryId: 'news',
      categoryName: '行业动态',
      dataSourceName: null,
      expirationDay: null,
      status: 'draft',
      publishTime: '',
      viewCount: 0,
      updatedAt: '2026-01-01T00:00:00.000Z',
      content: '<p>x</p>',
    });
    expect(form).toEqual({
      title: 't',
      categoryId: 'news',
      summary: 's',
      thumbnail: '',
      number: '',
      expirationDay: null,
      dataSourceName: '',
      content: '<p>x</p>',
    });
  });
});

describe('reordering', () => {
  it('moves one place up or down and keeps the ends', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('link and KPI rules (as the server checks them)', () => {
  it.each(['/settled', '/news/detail?id=1', 'https://www.example.cn/a', 'http://10.0.0.1:8080/'])('accepts %s', (url) => {
    expect(isLinkUrl(url)).toBe(true);
  });
  it.each(['javascript:alert(1)', 'JAVASCRIPT:alert(1)', '//evil.cn', '/\\evil.cn', 'data:text/html,x', 'news', '/a b'])(
    'refuses %s',
    (url) => {
      expect(isLinkUrl(url)).toBe(false);
    },
  );
  it('KPI figures are plain decimal numbers', () => {
    expect(['130', '2.1', '1068'].every((v) => KPI_NUMBER.test(v))).toBe(true);
    expect(['-1', '1e9', '一百', '1.', ''].some((v) => KPI_NUMBER.test(v))).toBe(false);
  });
});
