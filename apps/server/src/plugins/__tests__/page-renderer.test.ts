import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.js';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

// The built web app and its server renderer (`npm run build`): which query parameters make a page of
// their own is declared by the page itself, next to its route loader.
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
const SSR_ENTRY = path.join(REPO_ROOT, 'apps/web/dist-ssr/entry-server.js');

interface ListAnswer {
  data: { rows: { title: string }[]; total: number }[];
}

/** How React escapes text in server-rendered HTML. */
function escapeHtml(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

describe('server rendering of the built public pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!fs.existsSync(SSR_ENTRY) || !fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
      throw new Error('the web app is not built: run `npm run build` first');
    }
    t = await createTestApp('sqlite', { WEB_DIST, WEB_SSR_ENTRY: SSR_ENTRY });
  });
  afterAll(async () => {
    await t.close();
  });

  const page = (url: string) => t.app.inject({ url, headers: { accept: 'text/html' } });
  const titles = async (query: string) =>
    ((await t.app.inject({ url: `/open-api/cms/v1/article/published/page/list?${query}` })).json() as ListAnswer).data[0]?.rows.map(
      (r) => r.title,
    ) ?? [];

  it('renders /news once for 100 URLs that differ only in query parameters the page does not read', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => page(`/news?x=${i}&utm_source=${i * 7}`)));
    for (const res of answers) expect(res.statusCode).toBe(200);
    // A render stamps each query's data with the time it was fetched (the page's state), so 100
    // identical pages are one render.
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    const html = answers[0]?.body ?? '';
    expect(html).toContain('id="portal-state"');
    expect(html).not.toContain('utm_source');
    for (const title of await titles('offset=0&limit=10&filterCategoryId=news&sortOrder=6')) expect(html).toContain(escapeHtml(title));
  });

  it('renders a page of its own for each query parameter /news reads: the page, the category', async () => {
    const first = (await page('/news?y=1')).body;
    const second = (await page('/news?page=2&y=1')).body;
    expect(second).not.toBe(first);
    for (const title of await titles('offset=10&limit=10&filterCategoryId=news&sortOrder=6')) expect(second).toContain(escapeHtml(title));

    const policy = (await page('/news?category=policy')).body;
    const policyTitles = await titles('offset=0&limit=10&filterCategoryId=policy&sortOrder=6');
    expect(policyTitles.length).toBeGreaterThan(0);
    for (const title of policyTitles) expect(policy).toContain(escapeHtml(title));
  });

  it('keeps antd styles out of the page: /news is under 80 KB and links the cached stylesheet that has them', async () => {
    const html = (await page('/news')).body;
    expect(Buffer.byteLength(html)).toBeLessThan(80_000);
    expect(html).not.toMatch(/<style[^>]*>[^<]*\.ant-/);
    const href = /<link rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const css = await t.app.inject({ url: href ?? '' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The styles of the components /news renders: tabs, pagination, the date range.
    for (const selector of ['.ant-tabs', '.ant-pagination', '.ant-picker-range']) expect(css.body).toContain(selector);
  });
});
