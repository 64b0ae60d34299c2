import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { TagsView } from '../components/tags-view';
import { type TagView, useTagsViewStore } from '../stores/tags-view-store';

const view = (path: string, title: string, affix = false): TagView => ({ path, fullPath: path, title, name: path, affix });

/** The bar as the console shows it: the store's tabs, the current path active. */
function Bar() {
  const views = useTagsViewStore((s) => s.visitedViews);
  return <TagsView views={views} activePath={useLocation().pathname} />;
}

function renderBar(at: string) {
  const router = createMemoryRouter([{ path: '*', element: <Bar /> }], { initialEntries: [at] });
  render(<RouterProvider router={router} />);
  return router;
}

const bar = () => screen.getByRole('navigation', { name: '已打开的页面' });
const tab = (title: string) => within(bar()).getByRole('link', { name: title });
const titles = () =>
  within(bar())
    .getAllByRole('link')
    .map((l) => l.textContent);

beforeEach(() => {
  useTagsViewStore.getState().clear();
  for (const v of [
    view('/console/dashboard', '工作台', true),
    view('/console/audit', '操作日志'),
    view('/console/content/article', '文章管理'),
  ])
    useTagsViewStore.getState().addView(v);
});

describe('tags bar from the keyboard', () => {
  it('every tab is a link marked current when open; each closable tab has its own 关闭 button in the tab order', () => {
    renderBar('/console/audit');
    expect(titles()).toEqual(['工作台', '操作日志', '文章管理']);
    expect(tab('操作日志').getAttribute('aria-current')).toBe('page');
    expect(tab('工作台').getAttribute('aria-current')).toBeNull();
    // The pinned tab has none.
    expect(within(bar()).queryByRole('button', { name: '关闭 工作台' })).toBeNull();
    const close = within(bar()).getByRole('button', { name: '关闭 文章管理' });
    expect(close.tagName).toBe('BUTTON');
    expect(close.tabIndex).toBe(0);
    fireEvent.click(close);
    expect(titles()).toEqual(['工作台', '操作日志']);
    // The focus goes to the neighbouring tab instead of being lost with the button.
    expect(document.activeElement).toBe(tab('操作日志'));
  });

  it('Shift+F10 opens the menu on its first item; the arrows, Home and End move; Escape gives the focus back', () => {
    renderBar('/console/audit');
    fireEvent.keyDown(tab('文章管理'), { key: 'F10', shiftKey: true });
    const menu = screen.getByRole('menu', { name: '标签“文章管理”' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['刷新', '关闭', '关闭其他', '关闭所有']);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(items[3]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[3]);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(tab('文章管理'));
  });

  it('the ContextMenu key opens it too (without 关闭 on a pinned tab); Enter runs an item', async () => {
    const router = renderBar('/console/content/article');
    fireEvent.keyDown(tab('工作台'), { key: 'ContextMenu' });
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['刷新', '关闭其他', '关闭所有']);
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    });
    // 关闭其他 on 工作台: only it stays, and it opens.
    expect(titles()).toEqual(['工作台']);
    expect(router.state.location.pathname).toBe('/console/dashboard');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(tab('工作台'));
  });

  it('Space on 关闭 closes the tab the menu belongs to; Tab leaves the menu back to its tab', async () => {
    const router = renderBar('/console/content/article');
    fireEvent.keyDown(tab('操作日志'), { key: 'F10', shiftKey: true });
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(tab('操作日志'));

    fireEvent.keyDown(tab('文章管理'), { key: 'F10', shiftKey: true });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    await act(async () => {
      fireEvent.keyDown(document.activeElement!, { key: ' ' });
    });
    expect(titles()).toEqual(['工作台', '操作日志']);
    // The active tab closed: the last visited one opens (spec section 4).
    expect(router.state.location.pathname).toBe('/console/audit');
    expect(document.activeElement).toBe(tab('操作日志'));
  });
});
