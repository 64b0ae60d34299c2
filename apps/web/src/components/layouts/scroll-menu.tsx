import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { LayoutIcon } from './layout-icon';

/** Spec section 9: the header menu scrolls sideways in 200 px steps. */
export const MENU_SCROLL_STEP = 200;

/**
 * A horizontal menu that shows arrows when its items overflow and scrolls 200 px per click. Where
 * the items are cut, they fade out under the arrow (CSS mask) instead of ending mid-character.
 */
export function ScrollMenu({ children, label, activeKey }: { children: ReactNode; label: string; activeKey?: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });

  const measure = useCallback(() => {
    const el = track.current;
    if (!el) return;
    setEdges({ left: el.scrollLeft > 1, right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 });
  }, []);

  useEffect(() => {
    const el = track.current;
    if (!el) return;
    // The observer reports the first size by itself, after the browser's own layout: measuring here
    // would force a layout in the middle of hydration.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [measure]);

  // Bring the current page's item into view (narrow screens show only a few items).
  useEffect(() => {
    const el = track.current;
    const active = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !active) return;
    const left = active.offsetLeft - (el.clientWidth - active.offsetWidth) / 2;
    el.scrollTo({ left: Math.max(0, left) });
  }, [activeKey]);

  const scroll = (direction: 1 | -1) => track.current?.scrollBy({ left: direction * MENU_SCROLL_STEP, behavior: 'smooth' });

  return (
    <div className={`scroll-menu${edges.left ? ' scroll-menu--cut-left' : ''}${edges.right ? ' scroll-menu--cut-right' : ''}`}>
      {edges.left && (
        <button type="button" className="scroll-menu__arrow scroll-menu__arrow--left" aria-label="向左滚动菜单" onClick={() => scroll(-1)}>
          <LayoutIcon name="left" />
        </button>
      )}
      <nav ref={track} className="scroll-menu__track" aria-label={label}>
        {children}
      </nav>
      {edges.right && (
        <button type="button" className="scroll-menu__arrow scroll-menu__arrow--right" aria-label="向右滚动菜单" onClick={() => scroll(1)}>
          <LayoutIcon name="right" />
        </button>
      )}
    </div>
  );
}
