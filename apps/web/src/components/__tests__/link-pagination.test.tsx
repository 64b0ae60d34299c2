import { fireEvent, render, screen, within } from '@testing-library/react';
import { ConfigProvider, Pagination } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { describe, expect, it, vi } from 'vitest';
import { LinkPagination } from '../link-pagination';

/** What a pager shows, item by item: its items' titles (pages, 向前 5 页, 向后 5 页, 上一页, 下一页). */
const shown = (pager: HTMLElement) => [...pager.querySelectorAll('li')].map((li) => li.getAttribute('title') ?? li.textContent);

describe('LinkPagination: antd’s pager as links', () => {
  it.each([
    [1, 20],
    [2, 20],
    [1, 95],
    [3, 95],
    [4, 95],
    [5, 95],
    [6, 95],
    [8, 95],
    [10, 95],
    [50, 1000],
    [97, 1000],
    [100, 1000],
  ])('page %i of %i rows shows what antd shows', (current, total) => {
    const antd = render(
      <ConfigProvider locale={zhCN}>
        <Pagination current={current} pageSize={10} total={total} showSizeChanger={false} showTotal={(n) => `共 ${n} 条`} />
      </ConfigProvider>,
    );
    const expected = shown(antd.container.querySelector('ul')!);
    antd.unmount();
    render(<LinkPagination current={current} pageSize={10} total={total} href={(p) => `?page=${p}`} onChange={vi.fn()} />);
    expect(shown(screen.getByRole('navigation', { name: '分页' }))).toEqual(expected);
  });

  it('links every page, names them, marks the current one, and hands a plain click to the list', () => {
    const onChange = vi.fn();
    render(<LinkPagination current={1} pageSize={10} total={95} href={(p) => `?page=${p}`} onChange={onChange} />);
    const pager = within(screen.getByRole('navigation', { name: '分页' }));
    expect(pager.getByText('共 95 条')).toBeTruthy();
    expect(pager.getByRole('link', { name: '第 1 页' }).getAttribute('aria-current')).toBe('page');
    expect(pager.getByRole('link', { name: '第 2 页' }).getAttribute('aria-current')).toBeNull();
    expect(pager.getByRole('link', { name: '向后 5 页' }).getAttribute('href')).toBe('?page=6');
    // On the first page there is no previous one.
    expect(pager.queryByRole('link', { name: '上一页' })).toBeNull();
    expect((pager.getByRole('button', { name: '上一页' }) as HTMLButtonElement).disabled).toBe(true);
    const next = pager.getByRole('link', { name: '下一页' });
    expect(next.getAttribute('href')).toBe('?page=2');
    // A plain click stays on the page; one for a new tab is the browser's.
    expect(fireEvent.click(pager.getByRole('link', { name: '第 10 页' }))).toBe(false);
    expect(onChange).toHaveBeenCalledWith(10);
    expect(fireEvent.click(next, { ctrlKey: true })).toBe(true);
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
