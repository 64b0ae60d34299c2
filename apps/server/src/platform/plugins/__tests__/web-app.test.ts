import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.js';

// Large enough to be worth compressing, as the build's assets are.
const ASSET = `console.log(${JSON.stringify('工业互联网'.repeat(400))});`;
const PRECOMPRESSED = zlib.brotliCompressSync(ASSET);

describe('web app serving (history mode)', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), ASSET);
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), PRECOMPRESSED);
    fs.writeFileSync(path.join(dist, 'agreement.html'), '<h1>用户协议</h1>');
    t = await createTestApp('sqlite', { WEB_DIST: dist, WEB_SSR: '0' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string) => t.app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });

  it.each(['/', '/news', '/news/detail?id=abc', '/redirect/news', '/no/such/page'])('answers index.html for the page %s', async (url) => {
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // The same for every visitor: a shared cache keeps it as long as published content (http-cache).
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache and static pages as files', async () => {
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    // The build's own .br is sent as it is, not compressed a second time.
    const br = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(PRECOMPRESSED)).toBe(true);
    const agreement = await page('/agreement.html');
    expect(agreement.body).toContain('用户协议');
  });

  it('answers the page for a query the page itself will refuse (a control character in /mark?keyword=)', async () => {
    const res = await page('/mark?keyword=88.118.8%00x');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    // The API call the page makes still refuses it, with the reason the page shows.
    const api = await t.app.inject({ url: '/web-api/portal/v1/identity/query?keyword=88.118.8%00x' });
    expect(api.statusCode).toBe(400);
  });

  it('keeps API paths out of the fallback', async () => {
    const res = await page('/web-api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 1, msg: '请求的接口不存在' });
    const missingAsset = await t.app.inject({ url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
  });

  it('refuses path traversal', async () => {
    const res = await t.app.inject({ url: '/../../etc/passwd' });
    expect(res.body).not.toContain('root:');
    const encoded = await t.app.inject({ url: '/%2e%2e/%2e%2e/etc/passwd' });
    expect(encoded.body).not.toContain('root:');
  });
});

/** A stand-in for the web app's server entry: it exercises the renderer's contract with the server. */
const FAKE_ENTRY = `
let renders = 0;
// The pages it renders and the query parameters each reads.
const PAGES = { '/news': ['page'], '/knowledge': ['page'], '/plain': [], '/boom': [], '/article': ['id'], '/gone': [] };
export const entry = {
  pageUrl(url) {
    const { pathname, searchParams } = new URL('http://entry.test' + url);
    const reads = PAGES[pathname];
    if (!reads) return null;
    const kept = new URLSearchParams();
    for (const name of reads) if (searchParams.get(name)) kept.set(name, searchParams.get(name));
    return kept.size ? pathname + '?' + kept : pathname;
  },
  async render({ url, config, fetchLocal }) {
    if (url.startsWith('/boom')) throw new Error('render failed');
    if (url.startsWith('/plain')) return null;
    renders += 1;
    const tree = await fetchLocal({ method: 'GET', url: '/open-api/cms/v1/category/tree?channel=news' });
    const categories = JSON.parse(tree.body).data;
    const html = '<main data-renders="' + renders + '" data-url="' + url + '">' + categories.map((c) => c.categoryName).join('|') + '</main><p>' + '工业互联网'.repeat(300) + '</p>';
    const state = JSON.stringify({ note: '</script><script>alert(1)</script>', home: config.homeUrl });
    if (url.startsWith('/gone')) return { html, head: { title: '页面不存在 - Engineering e+', shareTitle: '页面不存在', type: 'website' }, status: 404, state };
    if (url.startsWith('/article')) {
      const head = { title: 'A & <B> "$&" - 资讯详情 - Engineering e+', shareTitle: 'A & <B> "$&"', description: '摘要 <script>&"', image: 'demo/a b.png', type: 'article' };
      return { html, head, status: 200, state };
    }
    return { html, head: { title: '行业资讯 - Engineering e+', shareTitle: '行业资讯', type: 'website' }, status: 200, state };
  },
};
`;

const TEMPLATE =
  '<!doctype html><html><head><meta name="description" content="站点的描述" /><title>Engineering e+</title></head><body><div id="root"></div></body></html>';

/** The Open Graph tags of a page (https://ogp.me), by property. */
function openGraph(body: string): Record<string, string> {
  const head = body.slice(0, body.indexOf('</head>'));
  return Object.fromEntries([...head.matchAll(/<meta property="(og:[a-z_]+)" content="([^"]*)" \/>/g)].map((m) => [m[1], m[2]]));
}

describe('server rendering of public pages', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ssr-'));
  const entryFile = path.join(dist, 'entry-server.mjs');
  beforeAll(async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), TEMPLATE);
    fs.writeFileSync(entryFile, FAKE_ENTRY);
    t = await createTestApp('sqlite', { WEB_DIST: dist, WEB_SSR_ENTRY: entryFile });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { accept: 'text/html', ...headers } });
  const rendered = (body: string) => /<main data-renders="(\d+)" data-url="([^"]*)">/.exec(body)?.slice(1);

  it('puts the rendered markup, title and data into the page, with data fetched from the API in-process', async () => {
    const res = await page('/news');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<div id="root"><main data-renders="\d+" data-url="\/news">行业动态\|/);
    expect(res.body).toContain('<title>行业资讯 - Engineering e+</title>');
    const state = /<script type="application\/json" id="portal-state">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(state).toBeDefined();
    // The data cannot close its script element early; it parses back to the same value.
    expect(state).not.toContain('</script>');
    expect(JSON.parse(state ?? '')).toEqual({ note: '</script><script>alert(1)</script>', home: expect.stringMatching(/^http:\/\//) });
  });

  it("puts the page's head into the document: title, description and Open Graph tags, escaped", async () => {
    const res = await page('/article?id=7&utm_source=x');
    expect(res.statusCode).toBe(200);
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<title>A &amp; &lt;B&gt; &quot;$&amp;&quot; - 资讯详情 - Engineering e+</title>');
    expect(head).toContain('<meta name="description" content="摘要 &lt;script&gt;&amp;&quot;" />');
    expect(head).not.toContain('站点的描述');
    // The address is the page's own (the parameters it reads), on the server's configured address.
    expect(head).toContain('<link rel="canonical" href="http://localhost/article?id=7" />');
    expect(openGraph(res.body)).toEqual({
      'og:site_name': 'Engineering e+',
      'og:locale': 'zh_CN',
      'og:type': 'article',
      'og:title': 'A &amp; &lt;B&gt; &quot;$&amp;&quot;',
      'og:description': '摘要 &lt;script&gt;&amp;&quot;',
      'og:url': 'http://localhost/article?id=7',
      'og:image': 'http://localhost/files/demo/a%20b.png',
    });
    // A page without its own description keeps the site's, for link previews too.
    const news = await page('/news');
    expect(news.body).toContain('<meta name="description" content="站点的描述" />');
    expect(openGraph(news.body)).toMatchObject({ 'og:type': 'website', 'og:title': '行业资讯', 'og:description': '站点的描述' });
  });

  it('answers 404 with the page when it shows that nothing is there, kept out of search indexes', async () => {
    const res = await page('/gone');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<title>页面不存在 - Engineering e+</title>');
    expect(res.body).toContain('<meta name="robots" content="noindex" />');
    expect(openGraph(res.body)).toEqual({});
    expect(res.body).not.toContain('rel="canonical"');
    const head = await t.app.inject({ method: 'HEAD', url: '/gone', headers: { accept: 'text/html' } });
    expect(head.statusCode).toBe(404);
  });

  it('serves pages to link-preview fetchers that accept any type, but not for missing files', async () => {
    for (const accept of ['*/*', '']) {
      const res = await t.app.inject({ url: '/article?id=7', headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(200);
      expect(openGraph(res.body)['og:url']).toBe('http://localhost/article?id=7');
    }
    const missing = await t.app.inject({ url: '/assets/missing-abc.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 1, msg: '请求的接口不存在' });
  });

  it('shares a rendered page for a few seconds between URLs that differ only in parameters the page does not read', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => page(`/knowledge?utm_source=${i}&x=${i * 7}`)));
    const pages = new Set(answers.map((res) => rendered(res.body)?.join(' ')));
    expect(pages).toEqual(new Set([expect.stringMatching(/^\d+ \/knowledge$/)]));
    // A parameter the page reads is a page of its own, rendered from its page URL.
    const second = rendered((await page('/knowledge?x=1&page=2')).body);
    expect(second?.[1]).toBe('/knowledge?page=2');
    expect(second?.[0]).not.toBe(rendered(answers[0]?.body ?? '')?.[0]);
    expect(rendered((await page('/knowledge?page=2&y=3')).body)).toEqual(second);
  });

  it('answers the plain page for pages the server does not render, and when the renderer declines or fails', async () => {
    for (const url of ['/mark?keyword=x', '/plain', '/boom']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('portal-state');
    }
  });

  it('compresses pages for browsers that accept it', async () => {
    const res = await page('/news', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('br');
    const plain = await page('/plain', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined(); // under 1 KB: not worth it
  });

  it('compresses API answers over 1 KB too (npm start has no proxy in front), keeping ETag and 304', async () => {
    const url = '/open-api/cms/v1/article/published/page/list?offset=0&limit=10';
    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const list = plain.json<{ data: { total: number }[] }>();
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decode(res.rawPayload).toString('utf8'))).toEqual(list);
      // One ETag for the answer however it travels, and a 304 for it; the cache policy stays.
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(res.headers['cache-control']).toBe(plain.headers['cache-control']);
      const again = await t.app.inject({ url, headers: { 'accept-encoding': accept, 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    // A small answer is sent as it is.
    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    // The central login's pages hold a secret beside reflected text (BREACH): never compressed.
    const login = await t.app.inject({ url: '/cas/login?service=x', headers: { 'accept-encoding': 'br, gzip' } });
    expect(login.body.length).toBeGreaterThan(1024);
    expect(login.headers['content-encoding']).toBeUndefined();
  });

  it('renders nothing for API paths; HEAD answers what GET would', async () => {
    const api = await page('/web-api/unknown');
    expect(api.statusCode).toBe(404);
    const head = await t.app.inject({ method: 'HEAD', url: '/news', headers: { accept: 'text/html' } });
    expect(head.statusCode).toBe(200);
    const post = await t.app.inject({ method: 'POST', url: '/news', headers: { accept: 'text/html' } });
    expect(post.statusCode).toBe(404);
  });
});

describe('the head of rendered pages behind a public address', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ssr-public-'));
  const entryFile = path.join(dist, 'entry-server.mjs');
  beforeAll(async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), TEMPLATE);
    fs.writeFileSync(entryFile, FAKE_ENTRY);
    t = await createTestApp('sqlite', {
      WEB_DIST: dist,
      WEB_SSR_ENTRY: entryFile,
      PUBLIC_URL: 'https://portal.example.cn',
      ALLOWED_HOSTS: 'mirror.example.net',
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('builds og:url, the canonical link and og:image from PUBLIC_URL, whatever Host the request named', async () => {
    const res = await t.app.inject({ url: '/article?id=7', headers: { accept: 'text/html', host: 'mirror.example.net' } });
    expect(res.statusCode).toBe(200);
    expect(openGraph(res.body)).toMatchObject({
      'og:url': 'https://portal.example.cn/article?id=7',
      'og:image': 'https://portal.example.cn/files/demo/a%20b.png',
    });
    expect(res.body).toContain('<link rel="canonical" href="https://portal.example.cn/article?id=7" />');
    expect(res.body).not.toContain('mirror.example.net');
    // A Host outside the configuration is refused before anything is rendered.
    const forged = await t.app.inject({ url: '/article?id=7', headers: { accept: 'text/html', host: 'evil.example.org' } });
    expect(forged.statusCode).toBe(421);
    expect(forged.body).not.toContain('og:url');
  });
});
