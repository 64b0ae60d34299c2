import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const PUBLIC_URL = 'https://portal.example.cn';
const ENV = { PUBLIC_URL, ALLOWED_HOSTS: 'localhost:80,mirror.example.net' };
/** An article id that needs both URL and XML escaping (ids written by imports or other systems are not all UUIDs). */
const AWKWARD_UUID = `esc'&<>"x`;

/** The `<loc>`s of a sitemap or sitemap index, as written (still XML-escaped). */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

/** Every `&` of the document starts one of XML's predefined entities or a character reference. */
const wellEscaped = (xml: string) => !/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(xml);

async function insertPublishedArticles(t: TestApp, uuids: readonly string[]): Promise<void> {
  const db = t.database.db;
  const category = await db.selectFrom('cms_category').select('id').where('code', '=', 'news').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  for (let i = 0; i < uuids.length; i += 1000) {
    await db
      .insertInto('cms_article')
      .values(
        uuids.slice(i, i + 1000).map((uuid) => ({
          uuid,
          title: `生成的文章 ${uuid}`,
          summary: '',
          thumbnail: null,
          content: '<p>正文</p>',
          number: null,
          category_id: category.id,
          publish_time: '2026-01-01 08:00:00',
          data_source_name: null,
          expiration_day: null,
          status: 'published' as const,
          view_count: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

describe.each(testDialects())('robots.txt and sitemap.xml on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, ENV);
    await insertPublishedArticles(t, [AWKWARD_UUID]);
  });
  afterAll(() => t.close());

  const get = (url: string, host = 'localhost:80') => t.app.inject({ url, headers: { host } });
  const api = async <T>(url: string) => ((await t.app.inject({ url })).json() as { data: T[] }).data;

  /** Every published article's uuid (the public list, 100 at a time). */
  async function publishedUuids(filterCategoryId = ''): Promise<string[]> {
    const uuids: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const [page] = await api<{ rows: { uuid: string }[]; total: number }>(
        `/open-api/cms/v1/article/published/page/list?offset=${offset}&limit=100&filterCategoryId=${filterCategoryId}`,
      );
      uuids.push(...(page?.rows.map((r) => r.uuid) ?? []));
      if (!page || offset + 100 >= page.total) return uuids;
    }
  }

  it('robots.txt keeps crawlers out of the console, the CAS, the APIs and /dev, and names the sitemap at the public address', async () => {
    // Asked through another configured host: the sitemap's address is still the public one.
    const res = await get('/robots.txt', 'mirror.example.net');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^public, /);
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/console', '/cas/', '/web/', '/web-api/', '/open-api/', '/api/', '/dev/', '/docs']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    // Public pages stay open.
    expect(lines.filter((l) => /^Disallow: \/(news|knowledge|mark|settled|product|files)/.test(l))).toEqual([]);
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(res.body).not.toContain('mirror.example.net');
  });

  it('sitemap.xml lists the public pages, every published article under its list and every published application', async () => {
    const res = await get('/sitemap.xml', 'mirror.example.net');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect(res.body).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    expect(wellEscaped(res.body)).toBe(true);
    const listed = locs(res.body);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.every((loc) => loc.startsWith(`${PUBLIC_URL}/`))).toBe(true);
    for (const path of ['/', '/news', '/knowledge', '/mark', '/settled', '/remote', '/product', '/privacy', '/service']) {
      expect(listed).toContain(`${PUBLIC_URL}${path}`);
    }

    const knowledge = new Set<string>();
    for (const category of await api<{ categoryId: string }>('/open-api/cms/v1/category/tree?channel=knowledge')) {
      for (const uuid of await publishedUuids(category.categoryId)) knowledge.add(uuid);
    }
    expect(knowledge.size).toBeGreaterThan(0);
    const articles = await publishedUuids();
    const articleLocs = listed.filter((loc) => loc.includes('/detail?id='));
    expect(articleLocs).toHaveLength(articles.length);
    for (const uuid of articles.filter((u) => u !== AWKWARD_UUID)) {
      const list = knowledge.has(uuid) ? 'knowledge' : 'news';
      expect(listed).toContain(`${PUBLIC_URL}/${list}/detail?id=${uuid}`);
    }
    // Each article with the time of its last change.
    const entry = new RegExp(
      `<url><loc>${PUBLIC_URL}/news/detail\\?id=${articles.find((u) => !knowledge.has(u))}</loc><lastmod>([^<]+)</lastmod></url>`,
    );
    expect(entry.exec(res.body)?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const applications = await api<{ applicationUuid: string }>('/open-api/app/v1/list');
    expect(applications.length).toBeGreaterThan(0);
    expect(listed.filter((loc) => loc.includes('/product/center/detail?uuid='))).toEqual(
      applications.map((a) => `${PUBLIC_URL}/product/center/detail?uuid=${a.applicationUuid}`),
    );
  });

  it('escapes an address for the URL and then for XML', async () => {
    const body = (await get('/sitemap.xml')).body;
    expect(wellEscaped(body)).toBe(true);
    expect(locs(body)).toContain(`${PUBLIC_URL}/news/detail?id=esc&#39;%26%3C%3E%22x`);
    expect(body).not.toContain(AWKWARD_UUID);
  });

  it('shows a publication at once and leaves drafts out', async () => {
    const operator = await tokenFor(t, 'operator');
    const call = (method: 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
        ...(payload ? { payload } : {}),
      });
    const before = (await get('/sitemap.xml')).body;
    const created = await call('POST', '/web-api/cms/v1/article', {
      title: '站点地图收录的新文章',
      summary: '发布后即出现在站点地图中。',
      content: '<p>正文</p>',
      categoryId: 'news',
    });
    const { uuid } = created.json().data[0] as { uuid: string };
    expect((await get('/sitemap.xml')).body).not.toContain(uuid);
    expect((await call('POST', `/web-api/cms/v1/article/${uuid}/publish`)).statusCode).toBe(200);
    const after = (await get('/sitemap.xml')).body;
    expect(locs(after)).toContain(`${PUBLIC_URL}/news/detail?id=${uuid}`);
    expect(locs(after)).toHaveLength(locs(before).length + 1);
  });

  it('an unknown sitemap file is not found', async () => {
    expect((await get('/sitemap-2.xml')).statusCode).toBe(404);
    expect((await get('/sitemap-0.xml')).statusCode).toBe(400);
  });
});

describe.each(testDialects())('a sitemap beyond 50 000 addresses on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, ENV);
    await insertPublishedArticles(
      t,
      Array.from({ length: 50_000 }, (_, i) => `generated-${String(i).padStart(5, '0')}`),
    );
  }, 120_000);
  afterAll(() => t.close());

  it('is a sitemap index of files of at most 50 000 addresses each, together listing every address once', async () => {
    const index = await t.app.inject({ url: '/sitemap.xml' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index.body)).toEqual([`${PUBLIC_URL}/sitemap-1.xml`, `${PUBLIC_URL}/sitemap-2.xml`]);

    const first = await t.app.inject({ url: '/sitemap-1.xml' });
    const second = await t.app.inject({ url: '/sitemap-2.xml' });
    for (const file of [first, second]) {
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(file.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    }
    const all = [...locs(first.body), ...locs(second.body)];
    expect(locs(first.body)).toHaveLength(50_000);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(`${PUBLIC_URL}/`);
    expect(all).toContain(`${PUBLIC_URL}/news/detail?id=generated-49999`);
    const [page] = (
      (await t.app.inject({ url: '/open-api/cms/v1/article/published/page/list?offset=0&limit=1' })).json() as {
        data: { total: number }[];
      }
    ).data;
    expect(all.filter((loc) => loc.includes('/detail?id='))).toHaveLength(page!.total);
    expect((await t.app.inject({ url: '/sitemap-3.xml' })).statusCode).toBe(404);
  }, 60_000);
});
