import { CloseOutlined } from '@ant-design/icons';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONSOLE_ROOT, REDIRECT_PREFIX } from '../settings';
import { type TagView, contextMenuLeft, nextPathAfterClose, useTagsViewStore } from '../stores/tags-view-store';

interface MenuState {
  view: TagView;
  left: number;
  top: number;
}

/**
 * Spec sections 2 and 4: the tabs of visited pages. A click opens the page; the cross closes it
 * (affix tabs have none); a right click opens 刷新 / 关闭 / 关闭其他 / 关闭所有, kept inside the
 * bar by the 105 px allowance.
 */
export function TagsView({ views, activePath }: { views: TagView[]; activePath: string | undefined }) {
  const navigate = useNavigate();
  const store = useTagsViewStore();
  const bar = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<MenuState | null>(null);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [menu]);

  // The active tab stays in sight in a long bar.
  useEffect(() => {
    bar.current?.querySelector('.is-active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activePath, views.length]);

  const remainingAfter = (path: string) => useTagsViewStore.getState().visitedViews.filter((v) => v.path !== path || v.affix);

  const close = (view: TagView) => {
    if (view.affix) return;
    store.delView(view.path);
    if (view.path === activePath) void navigate(nextPathAfterClose(remainingAfter(view.path), CONSOLE_ROOT));
  };

  const refresh = (view: TagView) => {
    store.delCachedView(view.name);
    void navigate(`${REDIRECT_PREFIX}${view.fullPath}`, { replace: true });
  };

  const closeOthers = (view: TagView) => {
    if (view.path !== activePath) void navigate(view.fullPath);
    store.delOthersViews(view.path);
  };

  const closeAll = () => {
    store.delAllViews();
    const left = useTagsViewStore.getState().visitedViews;
    if (left.some((v) => v.path === activePath)) return;
    void navigate(nextPathAfterClose(left, CONSOLE_ROOT));
  };

  const openMenu = (event: MouseEvent, view: TagView) => {
    event.preventDefault();
    const box = bar.current?.getBoundingClientRect();
    if (!box) return;
    setMenu({ view, left: box.left + contextMenuLeft(event.clientX, box.left, box.width), top: event.clientY });
  };

  return (
    <div className="console-tags" ref={bar} role="tablist" aria-label="已打开的页面">
      <div
        className="console-tags__scroll"
        onWheel={(e) => {
          // A vertical wheel scrolls the bar sideways.
          if (e.deltaY !== 0) e.currentTarget.scrollLeft += e.deltaY;
        }}
      >
        {views.map((view) => {
          const active = view.path === activePath;
          return (
            <Link
              key={view.path}
              to={view.fullPath}
              role="tab"
              aria-selected={active}
              className={`console-tag${active ? ' is-active' : ''}`}
              onContextMenu={(e) => openMenu(e, view)}
              onAuxClick={(e) => {
                if (e.button === 1) {
                  e.preventDefault();
                  close(view);
                }
              }}
            >
              {view.title}
              {!view.affix && (
                <span
                  role="button"
                  tabIndex={-1}
                  aria-label={`关闭 ${view.title}`}
                  className="console-tag__close"
                  onClick={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    close(view);
                  }}
                >
                  <CloseOutlined />
                </span>
              )}
            </Link>
          );
        })}
      </div>
      {menu && (
        <ul className="console-tags__menu" role="menu" style={{ left: menu.left, top: menu.top }}>
          <li role="menuitem" onClick={() => refresh(menu.view)}>
            刷新
          </li>
          {!menu.view.affix && (
            <li role="menuitem" onClick={() => close(menu.view)}>
              关闭
            </li>
          )}
          <li role="menuitem" onClick={() => closeOthers(menu.view)}>
            关闭其他
          </li>
          <li role="menuitem" onClick={closeAll}>
            关闭所有
          </li>
        </ul>
      )}
    </div>
  );
}
