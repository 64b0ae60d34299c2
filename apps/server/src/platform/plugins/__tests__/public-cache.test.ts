import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

// The built web app and its server renderer (`npm run build`): pages are answered as in production.
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
const SSR_ENTRY = path.join(REPO_ROOT, 'apps/web/dist-ssr/entry-server.js');

const CONTENT = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';
const SITE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
const HTML = 'text/html,application/xhtml+xml';
const JSON_ACCEPT = 'application/json, text/plain, */*';

/**
 * Every read the public site makes that is the same for every visitor: docs/deploy/nginx.conf keeps
 * what says `public, s-maxage=…` for that long and revalidates it with its ETag.
 */
describe.each(testDialects())('caching headers of the public reads on %s', (dialect) => {
  let t: TestApp;
  let article = '';
  let application = '';
  let reads: { url: string; accept: string; cacheControl: string }[] = [];
  beforeAll(async () => {
    if (!fs.existsSync(SSR_ENTRY) || !fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
      throw new Error('the web app is not built: run `npm run build` first');
    }
    // Imported ahead of the app, which then finds it loaded: on a busy machine the first import of the
    // renderer can outlast Fastify's plugin timeout.
    await import(pathToFileURL(SSR_ENTRY).href);
    t = await createTestApp(dialect, { WEB_DIST, WEB_SSR_ENTRY: SSR_ENTRY });
    const list = await t.app.inject({ url: '/open-api/cms/v1/article/published/page/list?offset=0&limit=1&filterCategoryId=news' });
    article = (list.json() as { data: { rows: { uuid: string }[] }[] }).data[0]?.rows[0]?.uuid ?? '';
    const apps = await t.app.inject({ url: '/open-api/app/v1/list' });
    application = (apps.json() as { data: { applicationUuid: string }[] }).data[0]?.applicationUuid ?? '';
    const LIST = '/open-api/cms/v1/article/published/page/list';
    const page = (url: string) => ({ url, accept: HTML, cacheControl: CONTENT });
    const content = (url: string) => ({ url, accept: JSON_ACCEPT, cacheControl: CONTENT });
    const site = (url: string, accept = JSON_ACCEPT) => ({ url, accept, cacheControl: SITE });
    reads = [
      ...['/', '/news', `/news/detail?id=${article}`, '/knowledge', '/mark', '/settled', '/open-service', '/product'].map(page),
      page(`/product/center/detail?uuid=${application}`),
      content(`${LIST}?offset=0&limit=10`),
      content(`${LIST}?offset=0&limit=10&searchKey=${encodeURIComponent('标识')}`),
      content('/open-api/cms/v1/category/tree?channel=news'),
      content(`/open-api/cms/v1/article/${article}/detail`),
      content('/web-api/iip-operate/recommendCenter/list'),
      content('/open-api/app/v1/list'),
      content(`/open-api/app/v1/dtl?appId=${application}`),
      content('/web-api/portal/v1/open-service/tools'),
      content('/web-api/portal/v1/open-service/tools/01'),
      content('/web-api/portal/v1/open-service/api-reference'),
      content('/sitemap.xml'),
      site('/web-api/portal/v1/site'),
      site('/web-api/portal/v1/home'),
      site('/robots.txt', 'text/plain'),
      site('/config.js', '*/*'),
      site('/static/service.htm', '*/*'),
      site('/favicon.svg', 'image/avif,image/webp,image/svg+xml,*/*'),
      site('/agreement.html', HTML),
    ];
  });
  afterAll(() => t.close());

  it('lets a shared cache keep each of them, and answers 304 to a revalidation while nothing changed', async () => {
    expect(article).not.toBe('');
    expect(application).not.toBe('');
    for (const { url, accept, cacheControl } of reads) {
      const first = await t.app.inject({ url, headers: { accept } });
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe(cacheControl);
      expect(first.headers['set-cookie'], url).toBeUndefined();
      const etag = String(first.headers.etag ?? '');
      expect(etag, url).not.toBe('');
      const again = await t.app.inject({ url, headers: { accept, 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
      expect(again.headers['cache-control'], url).toBe(cacheControl);
    }
  });

  it('keeps what a signed-in visitor or an API client was sent out of shared caches', async () => {
    const account = await t.database.db.selectFrom('account').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const cookie = await t.app.portalSessionService.open(account.id, `ST-test-${randomBytes(8).toString('hex')}`);
    const bearer = await tokenFor(t, 'admin');
    // Files (the build's, the static pages) are read from disk without a look at who asks.
    for (const { url, accept } of reads.filter((read) => !/\.(htm|html|svg)$/.test(read.url))) {
      for (const credentials of [{ cookie: `theme=dark; PORTAL_SESSION=${cookie}` }, { authorization: bearer }]) {
        const res = await t.app.inject({ url, headers: { accept, ...credentials } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], `${url} ${Object.keys(credentials)[0]}`).toBe('private, no-cache');
      }
    }
    // Other cookies (a visitor's preferences, analytics) do not make an answer private.
    const other = await t.app.inject({ url: '/news', headers: { accept: HTML, cookie: 'theme=dark; NOT_PORTAL_SESSION=1' } });
    expect(other.headers['cache-control']).toBe(CONTENT);
  });

  it('never lets a shared cache keep an identifier lookup (标识统计 counts each); a missing article’s page is shared like the article', async () => {
    const query = await t.app.inject({
      url: '/web-api/portal/v1/identity/query?handle=88.118.8%2FNO-SUCH',
      headers: { accept: JSON_ACCEPT },
    });
    expect(query.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const handle = await t.app.inject({ url: '/api/handles/88.118.8/NO-SUCH', headers: { accept: JSON_ACCEPT } });
    expect(handle.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const missing = await t.app.inject({ url: '/news/detail?id=00000000-0000-4000-8000-000000000000', headers: { accept: HTML } });
    expect(missing.statusCode).toBe(404);
    // So that a proxy's copy of an article taken down is replaced, not served stale while it refreshes.
    expect(missing.headers['cache-control']).toBe(CONTENT);
  });
});
