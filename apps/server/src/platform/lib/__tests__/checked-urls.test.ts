import { describe, expect, it } from 'vitest';
import { checkedImagePath, checkedLinkUrl } from '../checked-urls.js';

describe('link URLs', () => {
  it.each(['/news', '/news/detail?id=1#top', 'https://www.example.cn/a?b=1', 'http://10.0.0.1:8080/x', ' /settled '])(
    'accepts %j',
    (url) => {
      expect(checkedLinkUrl(url, 'bad')).toBe(url.trim());
    },
  );

  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    '//evil.example.com',
    '/\\evil.example.com',
    'news',
    'ftp://x.cn/a',
    'https://',
    '/a b',
    '/a\u0000b',
    `/${'a'.repeat(500)}`,
  ])('refuses %j', (url) => {
    expect(() => checkedLinkUrl(url, '链接不正确')).toThrow('链接不正确');
  });

  it('answers null for nothing', () => {
    expect(checkedLinkUrl('  ', 'bad')).toBeNull();
    expect(checkedLinkUrl(undefined, 'bad')).toBeNull();
  });
});

describe('image paths', () => {
  it.each(['/uploads/2026/05/a1.png', '/demo/banner-1.svg', 'https://cdn.example.cn/a.png'])('accepts %j', (path) => {
    expect(checkedImagePath(path, 'bad')).toBe(path);
  });

  it.each(['/uploads/../secret', '//cdn.example.cn/a.png', 'javascript:alert(1)', 'data:image/png;base64,AA', '/a?b=1', 'a.png'])(
    'refuses %j',
    (path) => {
      expect(() => checkedImagePath(path, '图片不正确')).toThrow('图片不正确');
    },
  );
});
