import { create } from 'zustand';
import { onLogout } from '@/lib/auth';

/** A visited page of the console (spec section 3, "Tab state"). */
export interface TagView {
  path: string;
  /** Path with query, to go back to exactly what was open. */
  fullPath: string;
  title: string;
  /** Route name: the key of the page's kept-alive state. */
  name: string;
  affix?: boolean;
  noCache?: boolean;
}

/** Visited tabs survive a reload of the browser tab (sessionStorage) and are cleared on logout. */
const STORAGE_KEY = 'portal.console.visited-views';

function load(): TagView[] {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as TagView[]) : [];
  } catch {
    return [];
  }
}

function save(views: TagView[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(views));
  } catch {
    // storage full or blocked: tabs then last for this page only
  }
}

const cacheable = (views: TagView[]) => [...new Set(views.filter((v) => !v.noCache && v.name).map((v) => v.name))];

export interface TagsViewState {
  visitedViews: TagView[];
  /** Names of the pages kept alive (spec: cached views by name, skipped for no-cache routes). */
  cachedViews: string[];
  addView(view: TagView): void;
  /** Drops a page's kept-alive state (refresh) without closing its tab. */
  delCachedView(name: string): void;
  delView(path: string): void;
  /** Keeps affix tabs and `path`. */
  delOthersViews(path: string): void;
  /** Keeps affix tabs only. */
  delAllViews(): void;
  clear(): void;
}

function withViews(visitedViews: TagView[], cachedViews?: string[]) {
  save(visitedViews);
  return { visitedViews, cachedViews: cachedViews ?? cacheable(visitedViews) };
}

export const useTagsViewStore = create<TagsViewState>((set) => {
  const initial = load();
  return {
    visitedViews: initial,
    cachedViews: cacheable(initial),
    addView: (view) =>
      set((s) => {
        // No duplicate paths: a second visit updates the tab (its query may have changed).
        const exists = s.visitedViews.some((v) => v.path === view.path);
        const views = exists ? s.visitedViews.map((v) => (v.path === view.path ? { ...v, ...view } : v)) : [...s.visitedViews, view];
        const cached = view.noCache || s.cachedViews.includes(view.name) ? s.cachedViews : [...s.cachedViews, view.name];
        return withViews(views, cached);
      }),
    delCachedView: (name) => set((s) => ({ cachedViews: s.cachedViews.filter((n) => n !== name) })),
    delView: (path) => set((s) => withViews(s.visitedViews.filter((v) => v.path !== path || v.affix))),
    delOthersViews: (path) => set((s) => withViews(s.visitedViews.filter((v) => v.affix || v.path === path))),
    delAllViews: () => set((s) => withViews(s.visitedViews.filter((v) => v.affix))),
    clear: () => set(withViews([])),
  };
});

onLogout(() => useTagsViewStore.getState().clear());

/**
 * Spec section 4: after closing the active tag, go to the last visited tag, or `/` when none is left
 * (the console passes its own root, which leads to the first permitted page).
 */
export function nextPathAfterClose(remaining: TagView[], root = '/'): string {
  return remaining.at(-1)?.fullPath ?? root;
}

/** Spec section 9 / style.md: the context menu's left edge keeps 105 px for the menu inside the bar. */
export const CONTEXT_MENU_ALLOWANCE = 105;
export function contextMenuLeft(clientX: number, containerLeft: number, containerWidth: number): number {
  return Math.min(clientX - containerLeft + 15, containerWidth - CONTEXT_MENU_ALLOWANCE);
}
