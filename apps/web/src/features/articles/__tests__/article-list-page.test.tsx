import type { ArticleListItem, CategoryNode } from '@portal/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { mockMediaQueries } from '@/testing/media-query';
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
  render(
    <ConfigProvider locale={zhCN}>
      <QueryClientProvider client={createTestQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConfigProvider>,
  );
  return router;
}
const cards = () => within(screen.getByRole('list', { name: '文章' })).getAllByRole('heading', { level: 2 });
const searchBox = () => screen.getByPlaceholderText('支持资讯标题快速过滤') as HTMLInputElement;

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
    expect((screen.getByPlaceholderText('开始日期') as HTMLInputElement).value).toBe('2026-01-01');
    expect((screen.getByPlaceholderText('结束日期') as HTMLInputElement).value).toBe('2026-01-31');
    expect(screen.getByTitle('最早发布')).toBeTruthy();
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

describe('the date range: two one-month pickers at every width', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A phone's media queries: antd's `md` (min-width: 768px) and up do not match. */
  function phoneScreen() {
    mockMediaQueries((query) => {
      const min = /min-width:\s*(\d+)px/.exec(query);
      const max = /max-width:\s*(\d+)px/.exec(query);
      return (!min || 375 >= Number(min[1])) && (!max || 375 <= Number(max[1]));
    });
  }
  /** Picks a day in a picker's popup; `popup`: which picker's, in the order they were first opened. */
  const pickDay = async (placeholder: string, day: string, popup: number) => {
    fireEvent.mouseDown(screen.getByPlaceholderText(placeholder));
    fireEvent.click(screen.getByPlaceholderText(placeholder));
    const cell = await waitFor(() => {
      const found = document.querySelectorAll('.ant-picker-dropdown')[popup]?.querySelector(`td[title="${day}"]`);
      expect(found).toBeTruthy();
      return found!;
    });
    fireEvent.click(cell.querySelector('.ant-picker-cell-inner')!);
  };

  it('two one-month pickers: the range applies once both days are chosen, clearing one clears both', async () => {
    phoneScreen();
    answer(() => ok([{ rows: [article(1)], total: 1 }]));
    const router = renderList('/news?from=2026-11-02&to=2026-11-20');
    const group = await screen.findByRole('group', { name: '发布日期' });
    expect((within(group).getByPlaceholderText('开始日期') as HTMLInputElement).value).toBe('2026-11-02');
    expect((within(group).getByPlaceholderText('结束日期') as HTMLInputElement).value).toBe('2026-11-20');
    await pickDay('开始日期', '2026-11-05', 0);
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-05&to=2026-11-20'));
    // One month a panel, never two side by side.
    expect(document.querySelectorAll('.ant-picker-dropdown')[0]?.querySelectorAll('.ant-picker-date-panel')).toHaveLength(1);
    // A day after the end cannot be the start.
    fireEvent.mouseDown(screen.getByPlaceholderText('开始日期'));
    await waitFor(() =>
      expect(document.querySelectorAll('.ant-picker-dropdown')[0]?.querySelector('td[title="2026-11-25"]')?.className).toContain(
        'ant-picker-cell-disabled',
      ),
    );
    fireEvent.keyDown(screen.getByPlaceholderText('开始日期'), { key: 'Escape', code: 'Escape', keyCode: 27 });
    // Clearing the end clears the whole range (spec section 4).
    const clears = within(group).getAllByRole('button', { name: '清除' });
    expect(clears).toHaveLength(2);
    fireEvent.mouseDown(clears[1]!);
    fireEvent.click(clears[1]!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect((within(group).getByPlaceholderText('开始日期') as HTMLInputElement).value).toBe('');
    expect((within(group).getByPlaceholderText('结束日期') as HTMLInputElement).value).toBe('');
    // A start alone filters nothing yet.
    await pickDay('开始日期', '2026-11-05', 0);
    await waitFor(() => expect((within(group).getByPlaceholderText('开始日期') as HTMLInputElement).value).toBe('2026-11-05'));
    expect(router.state.location.search).toBe('');
    await pickDay('结束日期', '2026-11-06', 1);
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-05&to=2026-11-06'));
    expect(listCalls().at(-1)).toMatchObject({ filterStartTime: '2026-11-05 00:00:00', filterEndTime: '2026-11-06 23:59:59', offset: 0 });
  });
});
