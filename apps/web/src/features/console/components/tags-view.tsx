import { CloseOutlined } from '@ant-design/icons';
import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONSOLE_ROOT, REDIRECT_PREFIX } from '../settings';
import { type TagView, contextMenuLeft, nextPathAfterClose, useTagsViewStore } from '../stores/tags-view-store';

interface MenuState {
  view: TagView;
  left: number;
  top: number;
}

type MenuAction = '刷新' | '关闭' | '关闭其他' | '关闭所有';

const MENU_HINT_ID = 'console-tags-menu-hint';

/** Shift+F10 and the ContextMenu key open an element's context menu from the keyboard. */
const opensContextMenu = (e: KeyboardEvent) => e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10');

/**
 * The context menu of a tag (spec section 2), a WAI-ARIA menu: it takes the focus on opening, the
 * arrow keys, Home and End move through it, Enter or Space runs an item, Escape and Tab close it and
 * give the focus back to the tag.
 */
function TagMenu({
  menu,
  onChoose,
  onClose,
}: {
  menu: MenuState;
  onChoose: (action: MenuAction) => void;
  onClose: (refocus: boolean) => void;
}) {
  // Pinned tabs cannot be closed (spec section 2).
  const items: MenuAction[] = menu.view.affix ? ['刷新', '关闭其他', '关闭所有'] : ['刷新', '关闭', '关闭其他', '关闭所有'];
  const [active, setActive] = useState(0);
  const refs = useRef<(HTMLLIElement | null)[]>([]);

  useEffect(() => {
    refs.current[active]?.focus();
  }, [active]);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = items.length - 1;
    switch (e.key) {
      case 'ArrowDown':
        setActive(active === last ? 0 : active + 1);
        break;
      case 'ArrowUp':
        setActive(active === 0 ? last : active - 1);
        break;
      case 'Home':
        setActive(0);
        break;
      case 'End':
        setActive(last);
        break;
      case 'Enter':
      case ' ':
        onChoose(items[active]!);
        break;
      case 'Escape':
      case 'Tab':
        onClose(true);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <ul
      className="console-tags__menu"
      role="menu"
      aria-label={`标签“${menu.view.title}”`}
      style={{ left: menu.left, top: menu.top }}
      onKeyDown={onKeyDown}
    >
      {items.map((item, i) => (
        <li
          key={item}
          ref={(el) => {
            refs.current[i] = el;
          }}
          role="menuitem"
          tabIndex={i === active ? 0 : -1}
          onClick={() => onChoose(item)}
          onMouseEnter={() => setActive(i)}
        >
          {item}
        </li>
      ))}
    </ul>
  );
}

/**
 * Spec sections 2 and 4: the tabs of visited pages. A click opens the page; the cross closes it
 * (affix tabs have none); a right click, Shift+F10 or the ContextMenu key opens 刷新 / 关闭 / 关闭其他 /
 * 关闭所有, kept inside the bar by the 105 px allowance. Every tab and cross is in the tab order.
 */
export function TagsView({ views, activePath }: { views: TagView[]; activePath: string | undefined }) {
  const navigate = useNavigate();
  const store = useTagsViewStore();
  const bar = useRef<HTMLElement>(null);
  const links = useRef(new Map<string, HTMLAnchorElement>());
  // The tab that gets the focus once the bar has re-rendered (after a close, or a closed menu).
  const focusNext = useRef<string | null>(null);
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

  useEffect(() => {
    if (focusNext.current === null) return;
    links.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const remainingAfter = (path: string) => useTagsViewStore.getState().visitedViews.filter((v) => v.path !== path || v.affix);

  const close = (view: TagView) => {
    if (view.affix) return;
    // The focus goes to the neighbouring tab, as in a browser's tab strip.
    const i = views.findIndex((v) => v.path === view.path);
    focusNext.current = (views[i + 1] ?? views[i - 1])?.path ?? null;
    store.delView(view.path);
    if (view.path === activePath) void navigate(nextPathAfterClose(remainingAfter(view.path), CONSOLE_ROOT));
  };

  const refresh = (view: TagView) => {
    focusNext.current = view.path;
    store.delCachedView(view.name);
    void navigate(`${REDIRECT_PREFIX}${view.fullPath}`, { replace: true });
  };

  const closeOthers = (view: TagView) => {
    focusNext.current = view.path;
    if (view.path !== activePath) void navigate(view.fullPath);
    store.delOthersViews(view.path);
  };

  const closeAll = () => {
    store.delAllViews();
    const left = useTagsViewStore.getState().visitedViews;
    focusNext.current = left[0]?.path ?? null;
    if (left.some((v) => v.path === activePath)) return;
    void navigate(nextPathAfterClose(left, CONSOLE_ROOT));
  };

  const openMenu = (view: TagView, x: number, y: number) => {
    const box = bar.current?.getBoundingClientRect();
    if (!box) return;
    setMenu({ view, left: box.left + contextMenuLeft(x, box.left, box.width), top: y });
  };

  const onTagKeyDown = (e: KeyboardEvent<HTMLElement>, view: TagView) => {
    if (!opensContextMenu(e)) return;
    // Ours instead of the browser's; placed under the tab, as a right click at its corner would.
    e.preventDefault();
    const tag = e.currentTarget.getBoundingClientRect();
    openMenu(view, tag.left, tag.bottom);
  };

  const closeMenu = (refocus: boolean) => {
    if (refocus && menu) focusNext.current = menu.view.path;
    setMenu(null);
  };

  const choose = (action: MenuAction) => {
    if (!menu) return;
    setMenu(null);
    if (action === '刷新') refresh(menu.view);
    else if (action === '关闭') close(menu.view);
    else if (action === '关闭其他') closeOthers(menu.view);
    else closeAll();
  };

  return (
    <nav className="console-tags" ref={bar} aria-label="已打开的页面">
      <span id={MENU_HINT_ID} hidden>
        Shift+F10 打开标签菜单
      </span>
      <ul
        className="console-tags__scroll"
        onWheel={(e) => {
          // A vertical wheel scrolls the bar sideways.
          if (e.deltaY !== 0) e.currentTarget.scrollLeft += e.deltaY;
        }}
      >
        {views.map((view) => {
          const active = view.path === activePath;
          return (
            <li
              key={view.path}
              className={`console-tag${active ? ' is-active' : ''}`}
              onContextMenu={(e: MouseEvent) => {
                e.preventDefault();
                openMenu(view, e.clientX, e.clientY);
              }}
              onKeyDown={(e) => onTagKeyDown(e, view)}
              onAuxClick={(e) => {
                if (e.button === 1) {
                  e.preventDefault();
                  close(view);
                }
              }}
            >
              <Link
                ref={(el) => {
                  if (el) links.current.set(view.path, el);
                  else links.current.delete(view.path);
                }}
                to={view.fullPath}
                className="console-tag__link"
                aria-current={active ? 'page' : undefined}
                aria-describedby={MENU_HINT_ID}
              >
                {view.title}
              </Link>
              {!view.affix && (
                <button type="button" aria-label={`关闭 ${view.title}`} className="console-tag__close" onClick={() => close(view)}>
                  <CloseOutlined aria-hidden="true" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {menu && <TagMenu key={menu.view.path} menu={menu} onChoose={choose} onClose={closeMenu} />}
    </nav>
  );
}
