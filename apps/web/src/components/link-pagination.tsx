import { DoubleLeftOutlined, DoubleRightOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { MouseEvent, ReactNode } from 'react';
import { ANTD_SCOPE } from '@/components/antd-markup';
import { isPlainClick } from '@/lib/plain-click';
import './link-pagination.css';

/** The pager's region, so a reader (or a test) finds it by name. */
export const PAGINATION_LABEL = '分页';

/** antd's page window: two pages either side of the current one (rc-pagination's `pageBufferSize`). */
const BUFFER = 2;
/** A jump (•••) moves five pages, as antd's does. */
const JUMP = 5;

type Item = { kind: 'page' | 'jump-prev' | 'jump-next'; page: number; className?: string };

/** The pages antd's Pagination shows for `current` of `last` (rc-pagination's rules), with its ••• jumps. */
function pagerItems(current: number, last: number): Item[] {
  const pages = (from: number, to: number): Item[] => Array.from({ length: to - from + 1 }, (_, i) => ({ kind: 'page', page: from + i }));
  if (last <= 3 + BUFFER * 2) return pages(1, last);
  let left = Math.max(1, current - BUFFER);
  let right = Math.min(current + BUFFER, last);
  if (current - 1 <= BUFFER) right = 1 + BUFFER * 2;
  if (last - current <= BUFFER) left = last - BUFFER * 2;
  const jumpPrev = current - 1 >= BUFFER * 2 && current !== 1 + 2;
  const jumpNext = last - current >= BUFFER * 2 && current !== last - 2;
  // A jump takes the place of the page next to it.
  if (jumpPrev && right !== last) left += 1;
  if (jumpNext && left !== 1) right -= 1;
  const items = pages(left, right);
  if (jumpPrev) {
    items[0] = { ...items[0]!, className: 'ant-pagination-item-after-jump-prev' };
    items.unshift({ kind: 'jump-prev', page: Math.max(1, current - JUMP) });
  }
  if (jumpNext) {
    items[items.length - 1] = { ...items[items.length - 1]!, className: 'ant-pagination-item-before-jump-next' };
    items.push({ kind: 'jump-next', page: Math.min(last, current + JUMP) });
  }
  if (left !== 1) items.unshift({ kind: 'page', page: 1 });
  if (right !== last) items.push({ kind: 'page', page: last });
  return items;
}

interface LinkPaginationProps {
  current: number;
  pageSize: number;
  total: number;
  /** The address of a page: every page, ••• jump, 上一页 and 下一页 is a real link to it. */
  href: (page: number) => string;
  /** A plain click on any of them (a click for a new tab or window is the browser's). */
  onChange: (page: number) => void;
  className?: string;
}

/**
 * antd's `<Pagination showTotal>` without antd's code, for a public list whose page is in its address:
 * 共 n 条, 上一页, the pages with ••• jumps, 下一页, each a link (search engines follow them, a new tab
 * opens them), named 第 n 页, the current one `aria-current="page"`. Same markup, so the same styles.
 */
export function LinkPagination({ current, pageSize, total, href, onChange, className }: LinkPaginationProps) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  const link = (page: number, children: ReactNode, props: { className?: string; 'aria-label'?: string; 'aria-current'?: 'page' } = {}) => (
    <a
      href={href(page)}
      {...props}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        onChange(page);
      }}
    >
      {children}
    </a>
  );
  const step = (kind: 'prev' | 'next', page: number, title: string, icon: ReactNode) => {
    const disabled = page < 1 || page > last;
    return (
      <li title={title} className={`ant-pagination-${kind}${disabled ? ' ant-pagination-disabled' : ''}`} aria-disabled={disabled}>
        {disabled ? (
          <button className="ant-pagination-item-link" type="button" disabled aria-label={title}>
            {icon}
          </button>
        ) : (
          link(page, icon, { className: 'ant-pagination-item-link', 'aria-label': title })
        )}
      </li>
    );
  };
  return (
    <nav className={className} aria-label={PAGINATION_LABEL}>
      <ul className={`ant-pagination ${ANTD_SCOPE}`}>
        <li className="ant-pagination-total-text">{`共 ${total} 条`}</li>
        {step('prev', current - 1, '上一页', <LeftOutlined />)}
        {pagerItems(current, last).map((item) =>
          item.kind === 'page' ? (
            <li
              key={item.page}
              title={String(item.page)}
              className={`ant-pagination-item ant-pagination-item-${item.page}${item.page === current ? ' ant-pagination-item-active' : ''}${item.className ? ` ${item.className}` : ''}`}
            >
              {link(item.page, item.page, {
                'aria-label': `第 ${item.page} 页`,
                ...(item.page === current ? { 'aria-current': 'page' } : {}),
              })}
            </li>
          ) : (
            <li
              key={item.kind}
              title={item.kind === 'jump-prev' ? `向前 ${JUMP} 页` : `向后 ${JUMP} 页`}
              className={`ant-pagination-${item.kind} ant-pagination-${item.kind}-custom-icon`}
            >
              {link(
                item.page,
                <div className="ant-pagination-item-container">
                  {item.kind === 'jump-prev' ? (
                    <DoubleLeftOutlined className="ant-pagination-item-link-icon" />
                  ) : (
                    <DoubleRightOutlined className="ant-pagination-item-link-icon" />
                  )}
                  <span className="ant-pagination-item-ellipsis">•••</span>
                </div>,
                { className: 'ant-pagination-item-link', 'aria-label': item.kind === 'jump-prev' ? `向前 ${JUMP} 页` : `向后 ${JUMP} 页` },
              )}
            </li>
          ),
        )}
        {step('next', current + 1, '下一页', <RightOutlined />)}
      </ul>
    </nav>
  );
}
