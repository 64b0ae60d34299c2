import fs from 'node:fs';
import path from 'node:path';
import type { Dashboard } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config.js';
import { chinaTime } from '../../lib/china-time.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

// The built web app and its server renderer (`npm run build`): which query parameters make a page of
// their own is declared by the page itself, next to its route loader.
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
const SSR_ENTRY = path.join(REPO_ROOT, 'apps/web/dist-ssr/entry-server.js');

interface ListAnswer {
  data: { rows: { title: string; uuid: string; summary: string }[]; total: number }[];
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

  it('renders a page anew after a console write to what it shows (an edited 开放服务 tool)', async () => {
    expect((await page('/open-service')).body).not.toContain('机理模型库');
    const operator = await tokenFor(t, 'operator');
    const headers = { authorization: operator, 'x-requested-with': 'XMLHttpRequest' };
    const list = await t.app.inject({ url: '/web-api/console/v1/open-service/tool/list', headers });
    const tool = (
      list.json() as { data: { id: string; title: string; summary: string; body: string; icon: string; sort: number; status: string }[] }
    ).data.find((t) => t.id === '06')!;
    const { id, title, summary, body, icon, sort, status } = tool;
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/web-api/console/v1/open-service/tool/${id}`,
      headers,
      payload: { title: '机理模型库', summary, body, icon, sort, status },
    });
    expect(renamed.statusCode).toBe(200);
    // At once, not after the render cache's few seconds.
    expect((await page('/open-service')).body).toContain('机理模型库');
    await t.app.inject({
      method: 'PUT',
      url: `/web-api/console/v1/open-service/tool/${id}`,
      headers,
      payload: { title, summary, body, icon, sort, status },
    });
  });

  it('renders /mark anew once a 批量迁移 moves the record: the retired value is gone at once', async () => {
    const admin = await tokenFor(t, 'admin');
    const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const res = await t.app.inject({ method, url, payload, headers: { authorization: admin, 'x-requested-with': 'XMLHttpRequest' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: number }[] };
    };
    const name = { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } };
    const color = { name: '颜色', idType: 'color', required: false, metadata: { type: 'string', minLength: 1, maxLength: 8 } };
    const template = (await call('POST', '/web-api/identity/v1/template', { prefix: '88.118.8', name: '渲染迁移', items: [name, color] }))
      .data[0]!.id;
    await call('POST', '/web-api/identity/v1/record', {
      prefix: '88.118.8',
      suffix: 'RENDER-MIGRATE-1',
      templateId: template,
      values: { productName: '渲染挖掘机', color: '琥珀黄' },
    });
    const url = `/mark?keyword=${encodeURIComponent('88.118.8/RENDER-MIGRATE-1')}`;
    expect((await page(url)).body).toContain('琥珀黄');
    await call('PUT', `/web-api/identity/v1/template/${template}`, { name: '渲染迁移', items: [name, { ...color, state: 0 }] });
    await call('POST', '/web-api/identity/v1/record/migrate', { templateId: template });
    // At once, not after the render cache's few seconds.
    const after = (await page(url)).body;
    expect(after).toContain('渲染挖掘机');
    expect(after).not.toContain('琥珀黄');
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

/** The head of a rendered page: title, description, canonical address and Open Graph tags (https://ogp.me). */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  return {
    title: /<title>([^<]*)<\/title>/.exec(head)?.[1],
    description: /<meta name="description" content="([^"]*)"/.exec(head)?.[1],
    canonical: /<link rel="canonical" href="([^"]*)"/.exec(head)?.[1],
    robots: /<meta name="robots" content="([^"]*)"/.exec(head)?.[1],
    og: Object.fromEntries([...head.matchAll(/<meta property="(og:[a-z_]+)" content="([^"]*)"/g)].map((m) => [m[1], m[2]])),
  };
}

const PUBLIC_URL = 'https://portal.example.cn';
const HANDLE = '88.118.8/EX-2024-000123';

describe.each(testDialects())('what search engines and link previews read in rendered pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // A second configured host: pages reached through it still name the public address.
    t = await createTestApp(dialect, {
      WEB_DIST,
      WEB_SSR_ENTRY: SSR_ENTRY,
      PUBLIC_URL,
      ALLOWED_HOSTS: 'localhost:80,mirror.example.net',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const page = (url: string, host = 'localhost:80') => t.app.inject({ url, headers: { accept: 'text/html', host } });
  /** An og:image (on PUBLIC_URL) is a PNG this server serves. */
  const expectPng = async (image: string) => {
    const served = await t.app.inject({ url: image.slice(PUBLIC_URL.length) });
    expect(served.statusCode, image).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  };
  const api = async <T>(url: string) => ((await t.app.inject({ url })).json() as { data: T[] }).data;
  /** The channel's first published article (or its `index`th) as the detail API answers it. */
  const articleOf = async (channel: 'news' | 'knowledge', index = 0) => {
    const [category] = await api<{ categoryId: string }>(`/open-api/cms/v1/category/tree?channel=${channel}`);
    const [list] = await api<ListAnswer['data'][number]>(
      `/open-api/cms/v1/article/published/page/list?offset=${index}&limit=1&filterCategoryId=${category?.categoryId ?? ''}`,
    );
    const row = list?.rows[0];
    if (!row) throw new Error(`no published ${channel} article`);
    const [detail] = await api<{ title: string; summary: string; thumbnail: string | null; content: string; viewCount: number }>(
      `/open-api/cms/v1/article/${row.uuid}/detail`,
    );
    return { uuid: row.uuid, ...detail! };
  };

  it.each([
    ['news', '资讯详情'],
    ['knowledge', '知识详情'],
  ] as const)('an article of /%s/detail has its own title, its summary, its image and its text', async (channel, routeTitle) => {
    const article = await articleOf(channel);
    const url = `/${channel}/detail?id=${article.uuid}`;
    // Reached through another configured host: the addresses are the public one's all the same.
    const res = await page(`${url}&utm_source=feed`, 'mirror.example.net');
    expect(res.statusCode).toBe(200);
    const head = headOf(res.body);
    expect(head.title).toBe(escapeHtml(`${article.title} - ${routeTitle} - Engineering e+`));
    expect(head.description).toBe(escapeHtml(article.summary));
    expect(head.canonical).toBe(`${PUBLIC_URL}${url}`);
    expect(head.og).toEqual({
      'og:site_name': 'Engineering e+',
      'og:locale': 'zh_CN',
      'og:type': 'article',
      'og:title': escapeHtml(article.title),
      'og:description': escapeHtml(article.summary),
      'og:url': `${PUBLIC_URL}${url}`,
      // The demo thumbnails are SVG, which link previews do not show: their PNG twin is named.
      'og:image': `${PUBLIC_URL}/files/${article.thumbnail!.replace(/^\//, '').replace(/\.svg$/, '.png')}`,
    });
    await expectPng(head.og['og:image']!);
    expect(res.body).not.toContain('mirror.example.net');
    // The article itself is in the page: its heading and the first words of its body.
    expect(res.body).toContain(`<h1 class="article-detail__title">${escapeHtml(article.title)}</h1>`);
    const firstWords = /<p>([^<]{8})/.exec(article.content)?.[1];
    expect(firstWords).toBeDefined();
    expect(res.body).toContain(firstWords);
  });

  it("does not count the renderer's read of an article as a view", async () => {
    // An article no other test renders, so this render is not one kept from before.
    const { uuid, viewCount, title } = await articleOf('knowledge', 1);
    const res = await page(`/knowledge/detail?id=${uuid}`);
    expect(res.body).toContain(escapeHtml(title));
    const [after] = await api<{ viewCount: number }>(`/open-api/cms/v1/article/${uuid}/detail`);
    // One view: this read; the page render before it counted none.
    expect(after?.viewCount).toBe(viewCount + 1);
  });

  it("does not count the renderer's lookup of an identifier in 工作台's lookups", async () => {
    const operator = await tokenFor(t, 'operator');
    const today = chinaTime(new Date()).slice(0, 10);
    const lookupsToday = async () => {
      const res = await t.app.inject({ url: '/web-api/console/v1/dashboard', headers: { authorization: operator } });
      const [dashboard] = (res.json() as { data: Dashboard[] }).data;
      return dashboard?.lookupsPerDay.find((d) => d.date === today)?.count ?? 0;
    };
    const before = await lookupsToday();
    // A record no other test renders, so this render is not one kept from before.
    const { handle } = await t.database.db
      .selectFrom('idf_record')
      .select('handle')
      .where('handle', '!=', HANDLE)
      .executeTakeFirstOrThrow();
    const res = await page(`/mark?keyword=${encodeURIComponent(handle)}`);
    expect(headOf(res.body).title).toBe(escapeHtml(`${handle} - 标识查询 - Engineering e+`));
    expect(headOf(res.body).description).toContain(`标识 ${escapeHtml(handle)}`);
    // The browser's own lookup counts. Counts are written in batches: once it shows, and after a write
    // of whatever is still pending (the first flush may join one under way), everything counted
    // before it is written too.
    expect((await t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}` })).statusCode).toBe(200);
    await expect.poll(lookupsToday, { timeout: 5000 }).toBeGreaterThan(before);
    await t.app.lookupCountService.flush();
    await t.app.lookupCountService.flush();
    expect(await lookupsToday()).toBe(before + 1);
  });

  it('an unknown, malformed or missing article id is the not-found state with HTTP 404', async () => {
    for (const url of ['/news/detail?id=00000000-0000-0000-0000-000000000000', `/knowledge/detail?id=${'x'.repeat(80)}`, '/news/detail']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('文章不存在或已下线');
      expect(headOf(res.body).robots).toBe('noindex');
      expect(headOf(res.body).og).toEqual({});
    }
  });

  it("an application's /product/center/detail has its own title, description and image, and its text", async () => {
    const [listed] = await api<{ applicationUuid: string }>('/open-api/app/v1/list');
    const [app] = await api<{ name: string; applicationDescription: string; imagePath: string; provider: string; content: string }>(
      `/open-api/app/v1/dtl?appId=${listed!.applicationUuid}`,
    );
    const url = `/product/center/detail?uuid=${listed!.applicationUuid}`;
    const res = await page(`${url}&utm_source=feed`);
    expect(res.statusCode).toBe(200);
    const head = headOf(res.body);
    expect(head.title).toBe(escapeHtml(`${app!.name} - 应用详情 - Engineering e+`));
    expect(head.description).toBe(escapeHtml(app!.applicationDescription));
    expect(head.canonical).toBe(`${PUBLIC_URL}${url}`);
    expect(head.og).toMatchObject({
      'og:type': 'website',
      'og:title': escapeHtml(app!.name),
      'og:url': `${PUBLIC_URL}${url}`,
      'og:image': `${PUBLIC_URL}/files/${app!.imagePath.replace(/^\//, '').replace(/\.svg$/, '.png')}`,
    });
    await expectPng(head.og['og:image']!);
    // The application itself is in the page, not only its head: its name, provider and the words of its text.
    // (React separates adjacent text nodes with empty comments.)
    const body = res.body.slice(res.body.indexOf('<div id="root">')).replaceAll('<!-- -->', '');
    expect(body).toContain(`<h1>${escapeHtml(app!.name)}</h1>`);
    expect(body).toContain(escapeHtml(`提供方：${app!.provider}`));
    const words = />([^<>]{8,})</.exec(app!.content)?.[1];
    expect(words).toBeDefined();
    expect(body).toContain(words);
  });

  it('an unknown, malformed or missing application uuid is the not-found state with HTTP 404', async () => {
    const detail = '/product/center/detail';
    for (const url of [`${detail}?uuid=00000000-0000-0000-0000-000000000000`, `${detail}?uuid=${'x'.repeat(80)}`, detail]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('应用不存在或已下架');
      expect(headOf(res.body).robots).toBe('noindex');
      expect(headOf(res.body).og).toEqual({});
    }
  });

  it("the home page's link preview names the site, not 首页", async () => {
    const [site] = await api<{ name: string }>('/web-api/portal/v1/site');
    const head = headOf((await page('/')).body);
    expect(head.title).toBe('首页 - Engineering e+');
    expect(head.og['og:title']).toBe(escapeHtml(site!.name));
    expect(head.canonical).toBe(`${PUBLIC_URL}/`);
  });

  it('a page has one address: another case or a trailing slash is sent there (301), the query kept', async () => {
    for (const [url, target] of [
      ['/NEWS', '/news'],
      ['/news/', '/news'],
      ['/News/?page=2&utm_source=feed', '/news?page=2&utm_source=feed'],
      ['/KNOWLEDGE/detail?id=x', '/knowledge/detail?id=x'],
    ]) {
      const res = await page(url!);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location, url).toBe(target);
    }
    expect(headOf((await page('/news?page=2')).body).canonical).toBe(`${PUBLIC_URL}/news?page=2`);
    // Never a redirect off the site, whatever the path holds.
    for (const url of ['//example.com/', '/%2F%2Fexample.com/', '//NEWS/']) {
      const res = await page(url);
      expect(res.headers.location ?? '', url).not.toMatch(/example\.com|^\/\//);
    }
  });

  it("an article opened under the other channel names its own channel's address as canonical", async () => {
    const news = await articleOf('news');
    const knowledge = await articleOf('knowledge');
    const misplaced = headOf((await page(`/knowledge/detail?id=${news.uuid}`)).body);
    expect(misplaced.canonical).toBe(`${PUBLIC_URL}/news/detail?id=${news.uuid}`);
    expect(misplaced.og['og:url']).toBe(`${PUBLIC_URL}/news/detail?id=${news.uuid}`);
    const other = headOf((await page(`/news/detail?id=${knowledge.uuid}`)).body);
    expect(other.canonical).toBe(`${PUBLIC_URL}/knowledge/detail?id=${knowledge.uuid}`);
  });

  it("a page address with a malformed %-escape is the site's 请求地址有误 page with HTTP 400; API paths keep the envelope", async () => {
    for (const url of ['/%E0%A4%A', '/news/%E0%A4%A?x=1']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['cache-control']).toBe('private, no-store');
      const head = headOf(res.body);
      expect(head.title).toBe('请求地址有误 - Engineering e+');
      expect(head.robots).toBe('noindex');
      // In the site's frame (header, footer), without the app's scripts: no router could take it over.
      expect(res.body).toContain('<h1 class="error-page__title">请求地址有误</h1>');
      expect(res.body).toContain('<header class="public-header">');
      expect(res.body).not.toContain('<script');
    }
    const json = await t.app.inject({ url: '/%E0%A4%A', headers: { accept: 'application/json', host: 'localhost:80' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ code: 1, msg: '请求地址格式不正确' });
    const apiPath = await page('/web-api/portal/v1/%E0%A4%A');
    expect(apiPath.statusCode).toBe(400);
    expect(apiPath.json()).toEqual({ code: 1, msg: '请求地址格式不正确' });
  });

  it('an unknown path answers 404 with the 页面不存在 page', async () => {
    for (const url of ['/no/such/page?x=1', '/news/detail/extra', '/404']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(headOf(res.body).title).toBe('页面不存在 - Engineering e+');
      expect(res.body).toContain('页面不存在');
      expect(headOf(res.body).robots).toBe('noindex');
    }
  });

  it('/mark?keyword= names the identifier and what it resolves to', async () => {
    const [entry] = await api<{
      identity: { value: { type: string; data: { value: string } }[] };
      template: { items: { name: string; idType: string }[] };
    }>(`/web-api/portal/v1/identity/query?handle=${encodeURIComponent(HANDLE)}`);
    const item = entry!.template.items[0]!;
    const value = entry!.identity.value.find((v) => v.type === item.idType)!.data.value;
    const res = await page(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    expect(res.statusCode).toBe(200);
    const head = headOf(res.body);
    expect(head.title).toBe(`${HANDLE} - 标识查询 - Engineering e+`);
    expect(head.description).toContain(`标识 ${HANDLE}；${item.name}：${value}`);
    expect(head.og).toMatchObject({ 'og:title': HANDLE, 'og:url': `${PUBLIC_URL}/mark?keyword=${encodeURIComponent(HANDLE)}` });
    // The search ran at once: the page arrives with the record.
    expect(res.body.slice(res.body.indexOf('<div id="root">'))).toContain(escapeHtml(value));

    const unknown = headOf((await page('/mark?keyword=88.118.8%2FNO-SUCH')).body);
    expect(unknown.title).toBe('88.118.8/NO-SUCH - 标识查询 - Engineering e+');
    expect(unknown.description).toContain('未找到标识 88.118.8/NO-SUCH 的登记信息');
  });

  it('/settled, /remote, the agreements and /product have their own titles and descriptions', async () => {
    const apps = await api<{ name: string }>('/open-api/app/v1/list');
    const expected: [string, string, string][] = [
      ['/settled', '入驻指南', '两步完成入驻'],
      ['/remote', '远程运维', '设备在哪里，服务就在哪里'],
      ['/privacy', '隐私协议', '个人信息'],
      ['/service', '服务协议', '本协议是您所在企业与'],
      ['/product', '应用推荐', apps[0]!.name],
    ];
    const descriptions = new Set<string>();
    for (const [url, title, text] of expected) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      const head = headOf(res.body);
      expect(head.title).toBe(`${title} - Engineering e+`);
      expect(head.description).toContain(text);
      expect(head.og).toMatchObject({ 'og:type': 'website', 'og:title': title, 'og:url': `${PUBLIC_URL}${url}` });
      descriptions.add(head.description ?? '');
    }
    expect(descriptions.size).toBe(expected.length);
  });
});
