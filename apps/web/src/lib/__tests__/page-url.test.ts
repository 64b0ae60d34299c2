import { describe, expect, it } from 'vitest';
import { pageUrl } from '../page-url';

describe("a page's own URL (what the server renders and caches, where the login returns)", () => {
  it('keeps the parameters the page reads, in declared order, and drops the others', () => {
    expect(pageUrl('/news', '?utm_source=mail&page=2&x=1&category=policy', ['category', 'page'])).toBe('/news?category=policy&page=2');
    expect(pageUrl('/news', '?x=1', ['category', 'page'])).toBe('/news');
    expect(pageUrl('/', '?register=1')).toBe('/');
  });

  it('takes the first value of a repeated parameter and drops empty ones', () => {
    expect(pageUrl('/news', '?page=2&page=3&category=', ['category', 'page'])).toBe('/news?page=2');
  });

  it('keeps the values as given, encoded', () => {
    expect(pageUrl('/mark', '?keyword=88.118.8%2FEX-1%20a', ['keyword'])).toBe('/mark?keyword=88.118.8%2FEX-1+a');
  });
});
