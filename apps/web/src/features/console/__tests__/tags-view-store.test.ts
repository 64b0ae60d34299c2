import { beforeEach, describe, expect, it } from 'vitest';
import { type TagView, contextMenuLeft, nextPathAfterClose, useTagsViewStore } from '../stores/tags-view-store';

const view = (path: string, extra: Partial<TagView> = {}): TagView => ({
  path,
  fullPath: path,
  title: path.slice(1) || '工作台',
  name: path.replace(/\W/g, '') || 'dashboard',
  ...extra,
});

const paths = () => useTagsViewStore.getState().visitedViews.map((v) => v.path);

describe('tags view (spec sections 2, 3 and 4)', () => {
  beforeEach(() => {
    sessionStorage.clear();
    useTagsViewStore.getState().clear();
  });

  it('adds a tag per visited path, without duplicates; caches by name unless the route says no cache', () => {
    const s = useTagsViewStore.getState();
    s.addView(view('/dashboard', { affix: true }));
    s.addView(view('/content/articles'));
    s.addView(view('/content/articles', { fullPath: '/content/articles?page=2' }));
    s.addView(view('/audit', { noCache: true }));
    expect(paths()).toEqual(['/dashboard', '/content/articles', '/audit']);
    expect(useTagsViewStore.getState().visitedViews[1]?.fullPath).toBe('/content/articles?page=2');
    expect(useTagsViewStore.getState().cachedViews).toEqual(['dashboard', 'contentarticles']);
  });

  it('affix tags cannot be closed and stay on close-others and close-all', () => {
    const s = useTagsViewStore.getState();
    for (const v of [view('/dashboard', { affix: true }), view('/a'), view('/b'), view('/c')]) s.addView(v);
    s.delView('/dashboard');
    expect(paths()).toContain('/dashboard');
    s.delView('/b');
    expect(paths()).toEqual(['/dashboard', '/a', '/c']);
    s.delOthersViews('/c');
    expect(paths()).toEqual(['/dashboard', '/c']);
    s.delAllViews();
    expect(paths()).toEqual(['/dashboard']);
    expect(useTagsViewStore.getState().cachedViews).toEqual(['dashboard']);
  });

  it('refresh drops only the page cache; tabs survive a reload and are cleared by clear (logout)', () => {
    const s = useTagsViewStore.getState();
    s.addView(view('/a'));
    s.delCachedView('a');
    expect(useTagsViewStore.getState().cachedViews).toEqual([]);
    expect(paths()).toEqual(['/a']);
    expect(JSON.parse(sessionStorage.getItem('portal.console.visited-views') ?? '[]')).toHaveLength(1);
    s.clear();
    expect(paths()).toEqual([]);
    expect(sessionStorage.getItem('portal.console.visited-views')).toBe('[]');
  });

  it('closing the active tag goes to the last visited tag, or / when none is left', () => {
    expect(nextPathAfterClose([view('/a'), view('/b', { fullPath: '/b?x=1' })])).toBe('/b?x=1');
    expect(nextPathAfterClose([])).toBe('/');
  });

  it('places the context menu within the 105 px allowance', () => {
    expect(contextMenuLeft(300, 200, 1000)).toBe(115);
    expect(contextMenuLeft(1190, 200, 1000)).toBe(895);
  });
});
