import type { RuntimeConfig } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { isActive, navTarget, toTarget } from '../nav-link';

const origin = 'http://portal.test';
const config = {
  appCenterUrl: 'http://portal.test/product',
  openServiceUrl: 'https://open.example.cn/center',
} as RuntimeConfig;

describe('header link targets (spec section 2)', () => {
  it('product goes to the application center, service to open service, center to /, others to /{key}', () => {
    expect(navTarget({ key: 'product', title: '应用推荐' }, config, origin)).toEqual({ kind: 'route', to: '/product' });
    expect(navTarget({ key: 'service', title: '开放服务' }, config, origin)).toEqual({
      kind: 'external',
      href: 'https://open.example.cn/center',
    });
    expect(navTarget({ key: 'center', title: '首页' }, config, origin)).toEqual({ kind: 'route', to: '/' });
    expect(navTarget({ key: 'mark', title: '标识查询' }, config, origin)).toEqual({ kind: 'route', to: '/mark' });
  });

  it('keeps addresses on other origins as links and paths as routes', () => {
    expect(toTarget('/news?x=1', origin)).toEqual({ kind: 'route', to: '/news?x=1' });
    expect(toTarget('http://portal.test/a?b=1#c', origin)).toEqual({ kind: 'route', to: '/a?b=1#c' });
    expect(toTarget('http://other.test/a', origin)).toEqual({ kind: 'external', href: 'http://other.test/a' });
  });

  it('marks the item of the current page active', () => {
    expect(isActive({ kind: 'route', to: '/' }, '/')).toBe(true);
    expect(isActive({ kind: 'route', to: '/' }, '/news')).toBe(false);
    expect(isActive({ kind: 'route', to: '/news' }, '/news/detail')).toBe(true);
    expect(isActive({ kind: 'route', to: '/news' }, '/newsletter')).toBe(false);
    expect(isActive({ kind: 'external', href: 'http://x' }, '/')).toBe(false);
  });
});
