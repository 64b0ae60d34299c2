import { Pagination as AntPagination, type PaginationProps as AntPaginationProps } from 'antd';
import { PAGINATION_LABEL } from '@/components/link-pagination';
import { scrollTo } from '@/lib/scroll-to';

/** Spec section 9: the generic pagination's defaults. */
export const PAGINATION_DEFAULTS = { page: 1, limit: 20, sizes: [10, 20, 30, 50] } as const;
/** Style.md: after a change the page scrolls to the top over 800 ms. */
export const PAGINATION_SCROLL_MS = 800;

/**
 * antd's page buttons carry only a bare number and no mark of the current page: each gets the name
 * 第 n 页, and the current one `aria-current="page"`. (A public list whose page is in its address
 * uses `LinkPagination`, whose pages are links.)
 */
export function pageItemRender(current: number): AntPaginationProps['itemRender'] {
  return (page, type, element) =>
    type === 'page' ? (
      <a rel="nofollow" aria-label={`第 ${page} 页`} aria-current={page === current ? 'page' : undefined}>
        {page}
      </a>
    ) : (
      element
    );
}

export interface PaginationProps {
  /** Required: the spec shows paging only with a total number. */
  total: number;
  page?: number;
  limit?: number;
  sizes?: readonly number[];
  onChange(change: { page: number; limit: number }): void;
  /** Scroll to the top after a change (default on). */
  autoScroll?: boolean;
  hidden?: boolean;
}

/**
 * The console's paging control (spec sections 2 and 9): total, sizes, prev, pager, next, jumper.
 * Changing the page size goes back to page 1.
 */
export function Pagination({
  total,
  page = PAGINATION_DEFAULTS.page,
  limit = PAGINATION_DEFAULTS.limit,
  sizes = PAGINATION_DEFAULTS.sizes,
  onChange,
  autoScroll = true,
  hidden = false,
}: PaginationProps) {
  if (hidden) return null;
  return (
    <nav className="portal-pagination" aria-label={PAGINATION_LABEL}>
      <AntPagination
        current={page}
        pageSize={limit}
        total={total}
        pageSizeOptions={sizes.map(String)}
        showSizeChanger
        showQuickJumper
        showTotal={(n) => `共 ${n} 条`}
        itemRender={pageItemRender(page)}
        onChange={(nextPage, nextLimit) => {
          onChange({ page: nextLimit !== limit ? 1 : nextPage, limit: nextLimit });
          if (autoScroll) scrollTo(0, PAGINATION_SCROLL_MS);
        }}
      />
    </nav>
  );
}
