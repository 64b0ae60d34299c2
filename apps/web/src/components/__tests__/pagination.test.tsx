import { fireEvent, render, screen, within } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as scroll from '@/lib/scroll-to';
import { PAGINATION_SCROLL_MS, Pagination } from '../pagination';

describe('Pagination (spec section 9)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the total, 20 a page by default, sizes 10/20/30/50 and a jumper', () => {
    render(
      <ConfigProvider locale={zhCN}>
        <Pagination total={95} onChange={vi.fn()} />
      </ConfigProvider>,
    );
    const pager = within(screen.getByRole('navigation', { name: '分页' }));
    expect(pager.getByText('共 95 条')).toBeTruthy();
    // 95 rows at 20 a page: pages 1 to 5, the first one current.
    expect(pager.getByLabelText('第 5 页')).toBeTruthy();
    expect(pager.queryByLabelText('第 6 页')).toBeNull();
    expect(pager.getByLabelText('第 1 页').getAttribute('aria-current')).toBe('page');
    expect(pager.getByLabelText('第 2 页').getAttribute('aria-current')).toBeNull();
    expect(pager.getByRole('textbox', { name: '页' })).toBeTruthy();
    const sizes = pager.getByRole('combobox', { name: '页码' });
    fireEvent.mouseDown(sizes);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['10 条/页', '20 条/页', '30 条/页', '50 条/页']);
  });

  it('reports a page change and scrolls to the top over 800 ms', () => {
    const scrolled = vi.spyOn(scroll, 'scrollTo').mockImplementation(() => undefined);
    const onChange = vi.fn();
    render(<Pagination total={95} page={1} limit={20} onChange={onChange} />);
    fireEvent.click(screen.getByLabelText('第 3 页'));
    expect(onChange).toHaveBeenCalledWith({ page: 3, limit: 20 });
    expect(scrolled).toHaveBeenCalledWith(0, PAGINATION_SCROLL_MS);
  });

  it('does not scroll when asked not to, and renders nothing when hidden', () => {
    const scrolled = vi.spyOn(scroll, 'scrollTo').mockImplementation(() => undefined);
    const { container, rerender } = render(<Pagination total={95} autoScroll={false} onChange={vi.fn()} />);
    fireEvent.click(screen.getByLabelText('第 2 页'));
    expect(scrolled).not.toHaveBeenCalled();
    rerender(<Pagination total={95} hidden onChange={vi.fn()} />);
    expect(container.innerHTML).toBe('');
  });
});
