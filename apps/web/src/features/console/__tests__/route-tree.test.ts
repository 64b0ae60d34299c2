import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import type { ConsoleRoute } from '../console-route';
import { findPage, firstPagePath, flattenRoutes, matchRouteChain, rootTarget } from '../lib/route-tree';

const Page = lazy(() => Promise.resolve({ default: () => null }));

const routes: ConsoleRoute[] = [
  {
    path: '/console/content',
    name: 'Content',
    authCode: 'content',
    title: '内容管理',
    children: [
      { path: '/console/content/hidden', name: 'Hidden', authCode: 'content', title: '隐藏', hidden: true, component: Page },
      { path: '/console/content/article', name: 'Article', authCode: 'content:article', title: '文章管理', component: Page },
    ],
  },
  { path: '/console/audit', name: 'Audit', authCode: 'audit', title: '操作日志', component: Page },
];

describe('console route tree', () => {
  it('lists parents before children', () => {
    expect(flattenRoutes(routes).map((r) => r.name)).toEqual(['Content', 'Hidden', 'Article', 'Audit']);
  });

  it('matches the chain of routes down to a page (the breadcrumb), ignoring a trailing slash', () => {
    expect(matchRouteChain(routes, '/console/content/article/').map((r) => r.title)).toEqual(['内容管理', '文章管理']);
    expect(matchRouteChain(routes, '/console/nothing')).toEqual([]);
  });

  it('finds pages only: a menu group without a component is not a page', () => {
    expect(findPage(routes, '/console/audit')?.name).toBe('Audit');
    expect(findPage(routes, '/console/content')).toBeUndefined();
  });

  it('sends the root to the first visible page in menu order', () => {
    expect(firstPagePath(routes)).toBe('/console/content/article');
    expect(rootTarget(routes, true)).toBe('/console/content/article');
  });

  it('spec section 2: without any permitted page the root goes to /403 with a token, else to /blank', () => {
    expect(rootTarget([], true)).toBe('/403');
    expect(rootTarget([], false)).toBe('/blank');
  });
});
