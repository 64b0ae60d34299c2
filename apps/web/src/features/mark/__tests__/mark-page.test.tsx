import type { IdentityQueryEntry } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { MARK_PLACEHOLDER, MarkPage } from '../components/mark-page';

const get = vi.fn();
vi.mock('@/lib/api', () => ({ api: () => ({ get }) }));
const scrollTo = vi.fn();
vi.mock('@/lib/scroll-to', () => ({ scrollTo: (...args: unknown[]) => scrollTo(...args) }));

const ENTRY: IdentityQueryEntry = {
  identity: {
    handle: '88.118.8/EX-2024-000123',
    value: [
      { index: 2000, type: 'productName', data: { format: 'string', value: '中型履带式液压挖掘机' } },
      { index: 2001, type: 'productModel', data: { format: 'string', value: 'HY-E215' } },
    ],
  },
  template: {
    name: '工程机械整机',
    version: 1,
    items: [
      { name: '产品名称', idType: 'productName', idIndex: 2000 },
      { name: '产品型号', idType: 'productModel', idIndex: 2001 },
    ],
  },
};
/** A promise the test settles. */
function deferred() {
  let resolve: (value: unknown) => void = () => undefined;
  const promise = new Promise((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
const found = (entry: IdentityQueryEntry) => Promise.resolve({ code: 20200, msg: '操作成功', data: [entry] });

/** Shows the router's address, so a test can read it. */
function Location() {
  const l = useLocation();
  return <output aria-label="地址">{l.pathname + l.search}</output>;
}
const location = () => screen.getByRole('status', { name: '地址' }).textContent;

function renderPage(url = '/mark') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <MarkPage />
        <Location />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const box = () => screen.getByPlaceholderText(MARK_PLACEHOLDER) as HTMLInputElement;
const result = () => screen.getByRole('region', { name: '查询结果' });
/** A whole key press: the input ignores a second keydown until the key is released. */
const pressEnter = () => {
  fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
};

beforeEach(() => {
  installRuntimeConfig('https://portal.example.cn');
  get.mockReset();
  scrollTo.mockReset();
});
afterEach(() => vi.clearAllMocks());

describe('/mark', () => {
  it('fills the box from ?keyword= and searches at once, silently; the result shows mark then the items', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    expect(box().value).toBe('88.118.8/EX-2024-000123');
    expect(await screen.findByRole('heading', { level: 2, name: '88.118.8/EX-2024-000123' })).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/web-api/portal/v1/identity/query', { params: { handle: '88.118.8/EX-2024-000123' }, silent: true });
    const shown = within(result());
    expect(shown.getAllByRole('term').map((e) => e.textContent)).toEqual(['产品名称', '产品型号']);
    expect(shown.getAllByRole('definition').map((e) => e.textContent)).toEqual(['中型履带式液压挖掘机', 'HY-E215']);
    // Spec section 9: after the lookup the page scrolls to 400 px.
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(400));
  });

  it('searches on Enter, keeps the keyword in the address and trims it', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage();
    expect(get).not.toHaveBeenCalled();
    fireEvent.change(box(), { target: { value: '  88.118.8/EX-2024-000123 ' } });
    pressEnter();
    expect(await screen.findByText('中型履带式液压挖掘机')).toBeTruthy();
    expect(get).toHaveBeenCalledTimes(1);
    expect(location()).toBe('/mark?keyword=88.118.8%2FEX-2024-000123');
  });

  it('a search on the same keyword asks again, clearing the shown result until the answer', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    await screen.findByText('HY-E215');
    const answer = deferred();
    get.mockReturnValue(answer.promise);
    pressEnter();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull();
    answer.resolve({ code: 20200, msg: '操作成功', data: [ENTRY] });
    expect(await screen.findByText('HY-E215')).toBeTruthy();
    await waitFor(() => expect(scrollTo).toHaveBeenCalledTimes(2));
  });

  it('does not search for an empty keyword (spec section 5)', async () => {
    renderPage('/mark?keyword=%20%20');
    fireEvent.change(box(), { target: { value: '   ' } });
    pressEnter();
    await act(() => Promise.resolve());
    expect(get).not.toHaveBeenCalled();
  });

  it('an unknown identifier shows 未找到该标识 with how an identifier is written, without scrolling', async () => {
    get.mockReturnValue(Promise.resolve({ code: 20200, msg: '未找到该标识', data: [] }));
    renderPage('/mark?keyword=88.118.8%2FNOPE');
    const missing = await screen.findByRole('region', { name: '未找到该标识' });
    expect(within(missing).getByRole('heading', { name: '未找到该标识' })).toBeTruthy();
    expect(within(missing).getByText('88.118.8/NOPE')).toBeTruthy();
    expect(missing.textContent).toContain('前缀/后缀');
    expect(missing.textContent).toContain('88.118.8/EX-2024-000123');
    expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull();
    await act(() => Promise.resolve());
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('the clear action empties the result', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    fireEvent.click(await screen.findByRole('button', { name: '清空结果' }));
    expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull();
    expect(box().value).toBe('');
    expect(location()).toBe('/mark');
  });

  it("the search box's clear icon empties the result too", async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    await screen.findByText('HY-E215');
    fireEvent.click(screen.getByRole('button', { name: '清空输入' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull());
    expect(box().value).toBe('');
    expect(location()).toBe('/mark');
  });

  it("a refused identifier after a result: the record goes, the server's reason shows under the box, nothing scrolls", async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    await screen.findByText('HY-E215');
    const reason = '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123';
    get.mockReturnValue(Promise.reject(new ApiError(reason, 1, 400)));
    fireEvent.change(box(), { target: { value: 'no-slash' } });
    pressEnter();
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(get).toHaveBeenLastCalledWith('/web-api/portal/v1/identity/query', { params: { handle: 'no-slash' }, silent: true });
    expect(screen.queryByText('HY-E215')).toBeNull();
    expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull();
    expect(screen.queryByRole('region', { name: '未找到该标识' })).toBeNull();
    expect(box().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box().getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    expect(scrollTo).toHaveBeenCalledTimes(1);
    // The next good search takes the reason away.
    get.mockReturnValue(found(ENTRY));
    fireEvent.change(box(), { target: { value: '88.118.8/EX-2024-000123' } });
    pressEnter();
    expect(await screen.findByText('HY-E215')).toBeTruthy();
    expect(screen.queryByText(reason)).toBeNull();
    expect(box().getAttribute('aria-invalid')).toBe('false');
  });

  it('a search that fails without a reason says the lookup failed', async () => {
    get.mockReturnValue(Promise.reject(new Error('socket hang up')));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    expect(await screen.findByText('查询失败，请稍后重试')).toBeTruthy();
    expect(screen.queryByRole('region', { name: '查询结果' })).toBeNull();
  });

  it('an earlier answer that arrives late never shows over the later search', async () => {
    const slow = deferred();
    get.mockReturnValueOnce(slow.promise);
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    // (The box takes no search while one is under way; clearing it ends that one's hold on the page.)
    fireEvent.click(screen.getByRole('button', { name: '清空输入' }));
    get.mockReturnValue(Promise.resolve({ code: 20200, msg: '未找到该标识', data: [] }));
    fireEvent.change(box(), { target: { value: '88.118.8/NOPE' } });
    pressEnter();
    await screen.findByRole('region', { name: '未找到该标识' });
    slow.resolve({ code: 20200, msg: '操作成功', data: [ENTRY] });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByText('HY-E215')).toBeNull();
    expect(screen.getByRole('region', { name: '未找到该标识' })).toBeTruthy();
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it.each([
    ['<img src=x onerror=alert(1)>', '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123'],
    ['88.118.8/EX\u0000-1', '查询参数 handle 含有不允许的控制字符'],
    [`88.118.8/${'A'.repeat(291)}`, '标识过长：最多 255 个字符'],
  ])('input %#: the reason shows and the input is never markup', async (input, reason) => {
    get.mockReturnValue(Promise.reject(new ApiError(reason, 1, 400)));
    const { container } = renderPage();
    fireEvent.change(box(), { target: { value: input } });
    pressEnter();
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/web-api/portal/v1/identity/query', { params: { handle: input }, silent: true });
    expect(container.querySelector('.mark img')).toBeNull();
  });

  it('an unknown identifier that looks like markup is shown as text', async () => {
    get.mockReturnValue(Promise.resolve({ code: 20200, msg: '未找到该标识', data: [] }));
    const { container } = renderPage('/mark?keyword=' + encodeURIComponent('88.118.8/<b>x</b>'));
    const missing = await screen.findByRole('region', { name: '未找到该标识' });
    expect(within(missing).getByText('88.118.8/<b>x</b>')).toBeTruthy();
    expect(container.querySelector('.mark b')).toBeNull();
  });

  it('a page a QR code opened (src=qr) sends its lookup as a scan; a search typed there afterwards is not one', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123&src=qr');
    await screen.findByText('HY-E215');
    expect(get).toHaveBeenCalledWith('/web-api/portal/v1/identity/query', {
      params: { handle: '88.118.8/EX-2024-000123', src: 'qr' },
      silent: true,
    });
    // The same identifier searched again from the box: the visitor's own lookup, and the address forgets the scan.
    pressEnter();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
    expect(get).toHaveBeenLastCalledWith('/web-api/portal/v1/identity/query', {
      params: { handle: '88.118.8/EX-2024-000123' },
      silent: true,
    });
    await screen.findByText('HY-E215');
    expect(location()).toBe('/mark?keyword=88.118.8%2FEX-2024-000123');
    fireEvent.change(box(), { target: { value: '88.118.16/HP-2024-000101' } });
    pressEnter();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(3));
    expect(get).toHaveBeenLastCalledWith('/web-api/portal/v1/identity/query', {
      params: { handle: '88.118.16/HP-2024-000101' },
      silent: true,
    });
  });

  it('a page that arrived with its result (rendered by the server) asks once more in the browser, showing the result meanwhile', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    // What the server's render put in the cache moments ago.
    client.setQueryData(queryKeys.identifiers.identity('88.118.8/EX-2024-000123'), [ENTRY]);
    const answer = deferred();
    get.mockReturnValue(answer.promise);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/mark?keyword=88.118.8%2FEX-2024-000123&src=qr']}>
          <MarkPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(within(result()).getByText('HY-E215')).toBeTruthy();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    expect(get).toHaveBeenCalledWith('/web-api/portal/v1/identity/query', {
      params: { handle: '88.118.8/EX-2024-000123', src: 'qr' },
      silent: true,
    });
    expect(within(result()).getByText('HY-E215')).toBeTruthy();
    answer.resolve({ code: 20200, msg: '操作成功', data: [ENTRY] });
    await act(() => Promise.resolve());
    expect(within(result()).getByText('HY-E215')).toBeTruthy();
  });

  it('offers a QR code of the absolute lookup address', async () => {
    get.mockReturnValue(found(ENTRY));
    renderPage('/mark?keyword=88.118.8%2FEX-2024-000123');
    await screen.findByText('HY-E215');
    expect(screen.getByText('扫码查看此标识')).toBeTruthy();
    expect(await within(result()).findByRole('img', { name: '88.118.8/EX-2024-000123 的查询二维码' })).toBeTruthy();
    // Scanning it is a scan, like a printed label.
    expect(within(result()).getByRole('figure').getAttribute('title')).toBe(
      'https://portal.example.cn/mark?keyword=88.118.8%2FEX-2024-000123&src=qr',
    );
  });
});
