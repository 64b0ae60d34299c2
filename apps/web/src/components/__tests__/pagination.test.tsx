import { fireEvent, render, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as scroll from '@/lib/scroll-to';
import { PAGINATION_SCROLL_MS, Pagination } from '../pagination';

describe('Pagination (spec section 9)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the total, 20 a page by default, sizes 10/20/30/50 and a jumper', () => {
    const { container } = render(
      <ConfigProvider locale={zhCN}>
        <Pagination total={95} onChange={vi.fn()} />
      </ConfigProvider>,
    );
    expect(screen.getByText('共 95 条')).toBeTruthy();
    // 95 rows at 20 a page: pages 1 to 5.
    expect(screen.getByTitle('5')).toBeTruthy();
    expect(screen.queryByTitle('6')).toBeNull();
    expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('1');
    expect(container.querySelector('.ant-pagination-options-quick-jumper input')).not.toBeNull();
    fireEvent.mouseDown(container.querySelector('.ant-select') as Element);
    for (const size of ['10 条/页', '20 条/页', '30 条/页', '50 条/页']) expect(screen.getAllByText(size).length).toBeGreaterThan(0);
  });

  it('reports a page change and scrolls to the top over 800 ms', () => {
    const scrolled = vi.spyOn(scroll, 'scrollTo').mockImplementation(() => undefined);
    const onChange = vi.fn();
    render(<Pagination total={95} page={1} limit={20} onChange={onChange} />);
    fireEvent.click(screen.getByTitle('3'));
    expect(onChange).toHaveBeenCalledWith({ page: 3, limit: 20 });
    expect(scrolled).toHaveBeenCalledWith(0, PAGINATION_SCROLL_MS);
  });

  it('does not scroll when asked not to, and renders nothing when hidden', () => {
    const scrolled = vi.spyOn(scroll, 'scrollTo').mockImplementation(() => undefined);
    const { container, rerender } = render(<Pagination total={95} autoScroll={false} onChange={vi.fn()} />);
    fireEvent.click(screen.getByTitle('2'));
    expect(scrolled).not.toHaveBeenCalled();
    rerender(<Pagination total={95} hidden onChange={vi.fn()} />);
    expect(container.innerHTML).toBe('');
  });
});
