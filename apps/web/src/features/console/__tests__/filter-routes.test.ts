import type { PortalRouter } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type ServiceRoute, filterServiceRoutes } from '../lib/filter-routes';

const routes: ServiceRoute[] = [
  { path: '/dashboard', authCode: 'dashboard', title: '工作台' },
  {
    path: '/content',
    authCode: 'content',
    title: '内容管理',
    children: [
      { path: '/content/categories', authCode: 'content:category', title: '栏目' },
      { path: '/content/articles', authCode: 'content:article', title: '文章' },
    ],
  },
  {
    path: '/system',
    authCode: 'system',
    title: '系统',
    children: [{ path: '/system/audit', authCode: 'system:audit', title: '操作日志' }],
  },
];

const router = (authCode: string, title: string, children: PortalRouter[] = []): PortalRouter => ({
  authCode,
  name: authCode,
  path: '',
  meta: { title, icon: '' },
  children,
});

describe('service routes filtered by authority codes (spec sections 4 and 6)', () => {
  it('keeps permitted routes and children, drops a parent left without children', () => {
    const kept = filterServiceRoutes(routes, ['dashboard', 'content', 'content:article', 'system']);
    expect(kept.map((r) => r.path)).toEqual(['/dashboard', '/content']);
    expect(kept[1]?.children?.map((r) => r.path)).toEqual(['/content/articles']);
  });

  it('drops children whose parent is not permitted', () => {
    expect(filterServiceRoutes(routes, ['content:article']).map((r) => r.path)).toEqual([]);
  });

  it('takes titles from the server where it names a route', () => {
    const kept = filterServiceRoutes(
      routes,
      ['dashboard', 'content', 'content:category'],
      [router('dashboard', '我的工作台'), router('content', '', [router('content:category', '资讯栏目')])],
    );
    expect(kept.map((r) => r.title)).toEqual(['我的工作台', '内容管理']);
    expect(kept[1]?.children?.[0]?.title).toBe('资讯栏目');
  });
});
