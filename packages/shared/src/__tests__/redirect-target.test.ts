import { describe, expect, it } from 'vitest';
import { parseRedirectUrl, siteRedirectPath } from '../redirect-target.js';

const SITE = 'http://localhost:8070';

describe('siteRedirectPath', () => {
  it.each([
    ['/console', '/console'],
    ['/news?page=2&q=工业#top', '/news?page=2&q=%E5%B7%A5%E4%B8%9A#top'],
    ['/a/../console', '/console'],
    ['http://localhost:8070/mark?handle=88.118.8/A', '/mark?handle=88.118.8/A'],
    ['/%2F%2Fevil.example/', '/%2F%2Fevil.example/'],
    ['console', '/console'],
  ])('keeps %s on this site as %s', (raw, expected) => {
    expect(siteRedirectPath(raw, SITE)).toBe(expected);
  });

  it.each([
    '//evil.example/',
    '/..//evil.example/',
    '/.%2e//evil.example/',
    '/%2e%2e//evil.example/',
    '/\\evil.example/',
    '\\\\evil.example',
    '/\\/evil.example',
    'https://evil.example/',
    'http://localhost:8070@evil.example/',
    'http://user:pass@localhost:8070/',
    'https://localhost:8070/',
    'http://localhost:8071/',
    'http://ｅvil.example/',
    'http://xn--vil-8ja.example/',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\r\nSet-Cookie: a=1',
    '/\tconsole',
    '\n//evil.example',
    '/news\u0000',
    '',
    undefined,
    `/${'a'.repeat(2001)}`,
  ])('refuses %j', (raw) => {
    expect(siteRedirectPath(raw, SITE)).toBeUndefined();
  });
});

describe('parseRedirectUrl', () => {
  it('parses an absolute service address and refuses credentials, other schemes and ambiguous characters', () => {
    expect(parseRedirectUrl('https://app.example.cn/cas/callback?x=1')?.href).toBe('https://app.example.cn/cas/callback?x=1');
    expect(parseRedirectUrl('https://user@app.example.cn/')).toBeUndefined();
    expect(parseRedirectUrl('ftp://app.example.cn/')).toBeUndefined();
    expect(parseRedirectUrl('https://app.example.cn/\r\nx')).toBeUndefined();
    expect(parseRedirectUrl('https://app.example.cn\\@evil.example/')).toBeUndefined();
    expect(parseRedirectUrl('/relative')).toBeUndefined();
  });
});
