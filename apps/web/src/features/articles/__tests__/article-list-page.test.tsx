import { ARTICLE_SORT_ORDERS, type ArticleListItem, type CategoryNode } from '@portal/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createTestQueryClient } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { ArticleListPage } from '../components/article-list-page';

const get = vi.fn();
vi.mock('@/lib/api', () => ({ api: () => ({ get }) }));

const CATEGORIES: CategoryNode[] = [
  { id: 1, categoryId: 'industry', categoryName: '行业动态', channel: 'news', children: [] },
  { id: 2, categoryId: 'policy', categoryName: '政策法规', channel: 'news', children: [] },
];
const article = (n: number): ArticleListItem => ({
  id: n,
  uuid: `a-${n}`,
  title: `文章 ${n}`,
  summary: '摘要',
  thumbnail: null,
  publishTime: '2026-11-23 10:00:00',
  categoryId: 'industry',
  categoryName: '行业动态',
});
const ok = (data: unknown[]) => Promise.resolve({ code: 20200, msg: '操作成功', data });
const LIST = '/open-api/cms/v1/article/published/page/list';
const TREE = '/open-api/cms/v1/category/tree';

/** Answers the category tree and, per call, the list: `list` gets the call's parameters. */
function answer(list: (params: Record<string, unknown>) => Promise<unknown>, tree: () => Promise<unknown> = () => ok(CATEGORIES)) {
  get.mockImplementation((url: string, config?: { params?: Record<string, unknown> }) => {
    if (url === TREE) return tree();
    if (url === LIST) return list(config?.params ?? {});
    return Promise.reject(new Error(`unexpected ${url}`));
  });
}
const listCalls = () => get.mock.calls.filter(([url]) => url === LIST).map(([, config]) => (config as { params: unknown }).params);

function renderList(url = '/news') {
  const router = createMemoryRouter([{ path: '/news', element: <ArticleListPage channel="news" /> }], { initialEntries: [url] });
  // No antd provider: the list renders antd's markup without antd.
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
const cards = () => within(screen.getByRole('list', { name: '文章' })).getAllByRole('heading', { level: 2 });
const searchBox = () => screen.getByPlaceholderText('支持资讯标题快速过滤') as HTMLInputElement;
const day = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const sortBox = () => screen.getByRole('combobox', { name: '排序方式' }) as HTMLSelectElement;

beforeEach(() => {
  installRuntimeConfig();
  get.mockReset();
});

describe('news list states: 加载失败 is not 暂无数据', () => {
  it('a failed list call shows 加载失败 with the reason and 重试, which asks again', async () => {
    let fail = true;
    answer(() => (fail ? Promise.reject(new ApiError('网络连接失败，请稍后重试')) : ok([{ rows: [article(1), article(2)], total: 2 }])));
    renderList();
    const error = await screen.findByRole('alert', { name: '加载失败' });
    expect(within(error).getByText('网络连接失败，请稍后重试')).toBeTruthy();
    expect(screen.queryByText('暂无数据')).toBeNull();
    expect(screen.queryByRole('navigation', { name: '分页' })).toBeNull();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(cards().map((c) => c.textContent)).toEqual(['文章 1', '文章 2']));
    expect(screen.queryByRole('alert', { name: '加载失败' })).toBeNull();
    expect(listCalls()).toHaveLength(2);
  });

  it('a failed category call shows 加载失败 too, and 重试 loads the categories and the list', async () => {
    let fail = true;
    answer(
      () => ok([{ rows: [article(1)], total: 1 }]),
      () => (fail ? Promise.reject(new ApiError('服务暂不可用', 1, 503)) : ok(CATEGORIES)),
    );
    renderList();
    const error = await screen.findByRole('alert', { name: '加载失败' });
    expect(within(error).getByText('服务暂不可用')).toBeTruthy();
    expect(screen.queryByText('暂无数据')).toBeNull();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByRole('tab', { name: '行业动态', selected: true })).toBeTruthy();
  });

  it('an empty category shows 暂无数据, no error and no pagination', async () => {
    answer(() => ok([{ rows: [], total: 0 }]));
    renderList();
    expect(await screen.findAllByText('暂无数据')).not.toHaveLength(0);
    expect(screen.queryByRole('alert', { name: '加载失败' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: '分页' })).toBeNull();
  });

  it('a page past the last says so and leads to the last page, with no pager marking another page', async () => {
    answer((params) => ok([{ rows: params.offset === 10 ? [article(11), article(12)] : [], total: 12 }]));
    const router = renderList('/news?page=9');
    expect(await screen.findByText('第 9 页没有内容：共 12 条，2 页')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: '分页' })).toBeNull();
    const last = screen.getByRole('link', { name: '前往第 2 页' });
    expect(last.getAttribute('href')).toBe('?page=2');
    fireEvent.click(last);
    await waitFor(() => expect(cards().map((c) => c.textContent)).toEqual(['文章 11', '文章 12']));
    expect(router.state.location.search).toBe('?page=2');
    expect(within(screen.getByRole('navigation', { name: '分页' })).getByText('共 12 条')).toBeTruthy();
  });
});

describe('news list view in the URL', () => {
  it('asks for the view the URL names and fills the filters from it', async () => {
    answer(() => ok([{ rows: [article(1)], total: 31 }]));
    renderList(`/news?category=policy&page=3&keyword=${encodeURIComponent('挖掘机')}&sort=1&from=2026-01-01&to=2026-01-31`);
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(listCalls()).toEqual([
      {
        offset: 20,
        limit: 10,
        searchKey: '挖掘机',
        filterCategoryId: 'policy',
        filterStartTime: '2026-01-01 00:00:00',
        filterEndTime: '2026-01-31 23:59:59',
        sortOrder: 1,
      },
    ]);
    expect(screen.getByRole('tab', { name: '政策法规', selected: true })).toBeTruthy();
    expect(searchBox().value).toBe('挖掘机');
    expect(day('开始日期').value).toBe('2026-01-01');
    expect(day('结束日期').value).toBe('2026-01-31');
    expect(sortBox().selectedOptions[0]?.textContent).toBe('最早发布');
    expect(screen.getByLabelText('第 3 页').getAttribute('aria-current')).toBe('page');
  });

  it('a malformed URL asks for the default view', async () => {
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    renderList('/news?category=%3Cscript%3E&page=-1&sort=abc&from=2026-02-30&to=2026-03-01');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(listCalls()).toEqual([{ offset: 0, limit: 10, filterCategoryId: 'industry', sortOrder: 6 }]);
    expect(screen.getByRole('tab', { name: '行业动态', selected: true })).toBeTruthy();
  });

  it('each change is a history entry: back and forward show the earlier views, the box follows', async () => {
    answer((params) => ok([{ rows: [article(Number(params.offset) + 1)], total: 25 }]));
    const router = renderList();
    await waitFor(() => expect(cards()[0]?.textContent).toBe('文章 1'));
    fireEvent.click(screen.getByLabelText('第 2 页'));
    await waitFor(() => expect(cards()[0]?.textContent).toBe('文章 11'));
    expect(router.state.location.search).toBe('?page=2');
    fireEvent.change(searchBox(), { target: { value: '挖掘机' } });
    fireEvent.keyDown(searchBox(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    // A search starts again at page 1 (spec section 4).
    await waitFor(() => expect(router.state.location.search).toBe(`?keyword=${encodeURIComponent('挖掘机')}`));
    await waitFor(() => expect(cards()[0]?.textContent).toBe('文章 1'));
    await router.navigate(-1);
    await waitFor(() => expect(cards()[0]?.textContent).toBe('文章 11'));
    expect(searchBox().value).toBe('');
    expect(screen.getByLabelText('第 2 页').getAttribute('aria-current')).toBe('page');
    await router.navigate(1);
    await waitFor(() => expect(searchBox().value).toBe('挖掘机'));
  });
});

describe('the filters', () => {
  it('the sort order is a choice of the orders; choosing one asks for it from page 1', async () => {
    answer(() => ok([{ rows: [article(1)], total: 31 }]));
    const router = renderList('/news?page=3');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect([...sortBox().options].map((o) => o.textContent)).toEqual(ARTICLE_SORT_ORDERS.map((o) => o.label));
    expect(sortBox().selectedOptions[0]?.textContent).toBe('最新发布');
    fireEvent.change(sortBox(), { target: { value: '1' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=1'));
    expect(listCalls().at(-1)).toMatchObject({ sortOrder: 1, offset: 0 });
  });

  it('the tabs: arrow keys move to the next category and choose it, Home and End to the first and last', async () => {
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    const router = renderList();
    const industry = await screen.findByRole('tab', { name: '行业动态', selected: true });
    // One tab in the Tab order: the chosen one.
    expect(industry.tabIndex).toBe(0);
    expect(screen.getByRole('tab', { name: '政策法规' }).tabIndex).toBe(-1);
    fireEvent.keyDown(industry, { key: 'ArrowRight' });
    await waitFor(() => expect(router.state.location.search).toBe('?category=policy'));
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '政策法规', selected: true }));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await waitFor(() => expect(screen.getByRole('tab', { name: '行业动态', selected: true })).toBeTruthy());
    expect(listCalls().at(-1)).toMatchObject({ filterCategoryId: 'industry', offset: 0 });
  });
});

describe('the date range: two day fields', () => {
  it('the range applies once both days are chosen; emptying one field or 清除 clears both', async () => {
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    const router = renderList('/news?from=2026-11-02&to=2026-11-20');
    const group = await screen.findByRole('group', { name: '发布日期' });
    expect(day('开始日期').value).toBe('2026-11-02');
    expect(day('结束日期').value).toBe('2026-11-20');
    fireEvent.change(day('开始日期'), { target: { value: '2026-11-05' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-05&to=2026-11-20'));
    // Emptying the end clears the whole range (spec section 4).
    fireEvent.change(day('结束日期'), { target: { value: '' } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(day('开始日期').value).toBe('');
    expect(day('结束日期').value).toBe('');
    // A start alone filters nothing yet.
    fireEvent.change(day('开始日期'), { target: { value: '2026-11-05' } });
    expect(day('开始日期').value).toBe('2026-11-05');
    expect(router.state.location.search).toBe('');
    fireEvent.change(day('结束日期'), { target: { value: '2026-11-06' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-05&to=2026-11-06'));
    expect(listCalls().at(-1)).toMatchObject({ filterStartTime: '2026-11-05 00:00:00', filterEndTime: '2026-11-06 23:59:59', offset: 0 });
    fireEvent.click(within(group).getByRole('button', { name: '清除' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(day('开始日期').value).toBe('');
    expect(day('结束日期').value).toBe('');
    expect(within(group).queryByRole('button', { name: '清除' })).toBeNull();
  });

  it('neither day passes the other: each field is bounded by the other, and a range the wrong way round is not applied', async () => {
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    const router = renderList('/news?from=2026-11-02&to=2026-11-20');
    await screen.findByRole('group', { name: '发布日期' });
    expect(day('开始日期').max).toBe('2026-11-20');
    expect(day('结束日期').min).toBe('2026-11-02');
    const calls = listCalls().length;
    fireEvent.change(day('开始日期'), { target: { value: '2026-11-25' } });
    expect(day('开始日期').getAttribute('aria-invalid')).toBe('true');
    expect(router.state.location.search).toBe('?from=2026-11-02&to=2026-11-20');
    expect(listCalls()).toHaveLength(calls);
  });

  it('a year being typed (0002, 0020, 0202) is not applied; the whole year is', async () => {
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    const router = renderList('/news?from=2026-11-02&to=2026-11-20');
    await screen.findByRole('group', { name: '发布日期' });
    for (const partial of ['0002-11-02', '0020-11-02', '0202-11-02']) {
      fireEvent.change(day('开始日期'), { target: { value: partial } });
      expect(router.state.location.search).toBe('?from=2026-11-02&to=2026-11-20');
    }
    fireEvent.change(day('开始日期'), { target: { value: '2025-11-02' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2025-11-02&to=2026-11-20'));
  });
});
