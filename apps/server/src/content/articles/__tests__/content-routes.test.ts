import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPageIds } from '../article-repository.js';
import { containsKey } from '../article-search-repository.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { queryPlan } from '../../../testing/query-plan.js';

interface Row {
  id: number;
  uuid: string;
  title: string;
  summary: string;
  thumbnail: string | null;
  publishTime: string;
  categoryId: string;
  categoryName: string;
}

describe.each(testDialects())('published content on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const list = async (query: string) => {
    const res = await t.app.inject({ url: `/open-api/cms/v1/article/published/page/list${query}` });
    return { status: res.statusCode, body: res.json() };
  };
  const page = async (query: string): Promise<{ rows: Row[]; total: number }> => {
    const { status, body } = await list(query);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.code).toBe(20200);
    return body.data[0];
  };

  it('answers the category trees, narrowed by channel; the first is the default', async () => {
    const res = await t.app.inject({ url: '/open-api/cms/v1/category/tree?channel=news' });
    const tree = res.json().data;
    expect(tree.map((c: { categoryId: string }) => c.categoryId)).toEqual(['news', 'enterprise', 'policy']);
    expect(tree[0]).toMatchObject({ categoryId: 'news', categoryName: '行业动态', children: [] });
    expect(tree[2].children.map((c: { categoryName: string }) => c.categoryName)).toEqual(['国家政策', '地方政策']);
    const knowledge = (await t.app.inject({ url: '/open-api/cms/v1/category/tree?channel=knowledge' })).json().data;
    expect(knowledge.map((c: { categoryId: string }) => c.categoryId)).toEqual(['knowledge', 'standard', 'case']);
    const all = (await t.app.inject({ url: '/open-api/cms/v1/category/tree' })).json().data;
    expect(all).toHaveLength(6);
    expect((await t.app.inject({ url: '/open-api/cms/v1/category/tree?channel=x' })).statusCode).toBe(400);
  });

  it('lists published articles newest first, 10 a page by default, with the total', async () => {
    const first = await page('');
    expect(first.total).toBe(60);
    expect(first.rows).toHaveLength(10);
    const times = first.rows.map((r) => r.publishTime);
    expect(times).toEqual([...times].sort().reverse());
    expect(first.rows[0]).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: expect.any(String),
      summary: expect.any(String),
      thumbnail: expect.stringMatching(/^\/demo\/thumb-[a-z]+\.svg$/),
      publishTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      categoryId: expect.any(String),
      categoryName: expect.any(String),
    });
    // offset = (page - 1) * limit: pages do not overlap and cover everything.
    const second = await page('?offset=10&limit=10');
    expect(second.rows[0]!.uuid).not.toBe(first.rows[0]!.uuid);
    const everything = await page('?offset=0&limit=100');
    expect(new Set(everything.rows.map((r) => r.uuid)).size).toBe(60);
    expect((await page('?offset=55&limit=10')).rows).toHaveLength(5);
  });

  it('never lists drafts or offline articles', async () => {
    const everything = await page('?limit=100');
    expect(everything.rows.some((r) => r.title.includes('草稿') || r.title.includes('已下线'))).toBe(false);
  });

  it('filters by category including its sub-categories', async () => {
    const policies = await page('?filterCategoryId=policy&limit=100');
    expect(policies.total).toBe(12);
    expect(new Set(policies.rows.map((r) => r.categoryId))).toEqual(new Set(['policy-national', 'policy-local']));
    const local = await page('?filterCategoryId=policy-local&limit=100');
    expect(local.total).toBe(5);
    const unknown = await list('?filterCategoryId=nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 1, msg: '资讯分类不存在' });
  });

  it.each([
    ['标', 1],
    ['标识', 2],
    ['标识解析', 4],
    ['工业互联网平台', 7],
  ])('searches titles and summaries for %s (%i characters)', async (key) => {
    const result = await page(`?searchKey=${encodeURIComponent(key)}&limit=100`);
    expect(result.total).toBeGreaterThan(0);
    for (const r of result.rows) expect(r.title + r.summary).toContain(key);
    // The index answers exactly what a full scan would.
    const everything = await page('?limit=100');
    expect(result.total).toBe(everything.rows.filter((r) => (r.title + r.summary).includes(key)).length);
  });

  it('searches ASCII case-insensitively and combines search with category and dates', async () => {
    const upper = await page(`?searchKey=APP&limit=100`);
    const lower = await page(`?searchKey=app&limit=100`);
    expect(upper.total).toBeGreaterThan(0);
    expect(lower.total).toBe(upper.total);
    const combined = await page(`?searchKey=${encodeURIComponent('平台')}&filterCategoryId=enterprise&limit=100`);
    for (const r of combined.rows) expect(r.categoryId).toBe('enterprise');
  });

  it('treats script and query syntax in the search key as plain text', async () => {
    for (const key of ['<script>alert(1)</script>', '" OR 1=1 --', '_', 'NEAR(a b)', "'; drop table cms_article; --", '*']) {
      const result = await page(`?searchKey=${encodeURIComponent(key)}`);
      expect(result).toEqual({ rows: [], total: 0 });
    }
    // LIKE wildcards are literal characters: '%' finds only the texts that contain one.
    const percent = await page(`?searchKey=${encodeURIComponent('%')}&limit=100`);
    expect(percent.total).toBeGreaterThan(0);
    expect(percent.total).toBeLessThan(60);
    for (const r of percent.rows) expect(r.title + r.summary).toContain('%');
    expect((await page('')).total).toBe(60);
  });

  it('filters by publish date: a bare start is 00:00:00, a bare end 23:59:59', async () => {
    const everything = (await page('?limit=100')).rows;
    const day = everything[5]!.publishTime.slice(0, 10);
    const sameDay = await page(`?filterStartTime=${day}&filterEndTime=${day}&limit=100`);
    expect(sameDay.total).toBe(everything.filter((r) => r.publishTime.startsWith(day)).length);
    expect(sameDay.total).toBeGreaterThan(0);
    const explicit = await page(
      `?filterStartTime=${encodeURIComponent(`${day} 00:00:00`)}&filterEndTime=${encodeURIComponent(`${day} 23:59:59`)}&limit=100`,
    );
    expect(explicit.total).toBe(sameDay.total);
    const after = await page(`?filterStartTime=${day}&limit=100`);
    expect(after.total).toBe(everything.filter((r) => r.publishTime >= `${day} 00:00:00`).length);
    // Empty values mean no bound (a cleared date range).
    expect((await page('?filterStartTime=&filterEndTime=')).total).toBe(60);
  });

  it.each([
    ['a negative offset', '?offset=-1', '查询参数 offset 超出允许范围'],
    ['a non-numeric offset', '?offset=abc', '查询参数 offset 类型不正确'],
    ['a limit over 100', '?limit=101', '查询参数 limit 超出允许范围'],
    ['a zero limit', '?limit=0', '查询参数 limit 超出允许范围'],
    ['an unknown sort order', '?sortOrder=9', '查询参数 sortOrder 超出允许范围'],
    ['a malformed date', '?filterStartTime=2026/01/01', '查询参数 filterStartTime 格式不正确'],
    ['an impossible date', '?filterStartTime=2026-02-30', '开始时间不是有效的日期时间'],
    ['an impossible time', `?filterEndTime=${encodeURIComponent('2026-01-01 24:00:00')}`, '结束时间不是有效的日期时间'],
    ['a start after the end', '?filterStartTime=2026-05-02&filterEndTime=2026-05-01', '开始时间不能晚于结束时间'],
    ['a malformed category', '?filterCategoryId=%3Cscript%3E', '查询参数 filterCategoryId 格式不正确'],
  ])('refuses %s with code 1 and a Chinese message', async (_name, query, msg) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body).toEqual({ code: 1, msg });
  });

  it('orders by each documented sortOrder', async () => {
    const by = async (order: number) => (await page(`?sortOrder=${order}&limit=100`)).rows;
    const oldest = await by(1);
    expect(oldest.map((r) => r.publishTime)).toEqual(oldest.map((r) => r.publishTime).sort());
    const newest = await by(6);
    expect(newest[0]!.uuid).toBe(oldest[oldest.length - 1]!.uuid);
    const views = async (rows: Row[]) => {
      const counts = new Map<string, number>();
      for (const r of rows) {
        const v = await t.database.db.selectFrom('cms_article').select('view_count').where('uuid', '=', r.uuid).executeTakeFirstOrThrow();
        counts.set(r.uuid, v.view_count);
      }
      return rows.map((r) => counts.get(r.uuid)!);
    };
    const most = await views(await by(2));
    expect(most).toEqual([...most].sort((a, b) => b - a));
    const least = await views(await by(3));
    expect(least).toEqual([...least].sort((a, b) => a - b));
  });

  it('answers a published article by uuid and counts the view', async () => {
    const [policy] = (await page(`?filterCategoryId=policy-national&searchKey=${encodeURIComponent('指导意见')}`)).rows;
    expect(policy).toBeDefined();
    const get = () => t.app.inject({ url: `/open-api/cms/v1/article/${policy!.uuid}/detail` });
    const first = (await get()).json();
    expect(first.code).toBe(20200);
    const article = first.data[0];
    expect(article).toMatchObject({
      uuid: policy!.uuid,
      title: '关于深化新一代信息技术与制造业融合发展的指导意见',
      // The demo numbers name the year the seed dates the document in.
      number: `国发〔${policy!.publishTime.slice(0, 4)}〕41号`,
      categoryId: 'policy',
      subCategoryId: 'policy-national',
      subCategoryName: '国家政策',
      dataSourceName: '国务院',
      expirationDay: -1,
    });
    expect(article.content).toContain('<p>');
    const second = (await get()).json().data[0];
    expect(second).toEqual({ ...article, viewCount: article.viewCount + 1 });
  });

  it('names the detail policy or news (spec section 3); the filed category travels in subCategoryId', async () => {
    const detailOf = async (category: string) => {
      const [row] = (await page(`?filterCategoryId=${category}&limit=1`)).rows;
      return (await t.app.inject({ url: `/open-api/cms/v1/article/${row!.uuid}/detail` })).json().data[0];
    };
    expect(await detailOf('policy-local')).toMatchObject({
      categoryId: 'policy',
      subCategoryId: 'policy-local',
      subCategoryName: '地方政策',
    });
    expect(await detailOf('news')).toMatchObject({
      categoryId: 'news',
      subCategoryId: 'news',
      subCategoryName: '行业动态',
      channel: 'news',
    });
    expect(await detailOf('enterprise')).toMatchObject({
      categoryId: 'news',
      subCategoryId: 'enterprise',
      subCategoryName: '企业新闻',
      channel: 'news',
    });
    // Knowledge articles are shown in the same view without the policy fields; their channel names
    // the one detail address they have (/knowledge/detail).
    expect(await detailOf('standard')).toMatchObject({
      categoryId: 'news',
      subCategoryId: 'standard',
      subCategoryName: '标准规范',
      channel: 'knowledge',
    });
  });

  it('writes counted views to the database within seconds (the console shows them)', async () => {
    const operator = await tokenFor(t, 'operator');
    const [row] = (await page('?sortOrder=3&limit=1')).rows;
    const consoleViews = async () =>
      (
        await t.app.inject({
          url: `/web-api/cms/v1/article/${row!.uuid}`,
          headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
        })
      ).json().data[0].viewCount as number;
    // The detail answers the count with this view included, written or not.
    const read = async () =>
      (await t.app.inject({ url: `/open-api/cms/v1/article/${row!.uuid}/detail` })).json().data[0].viewCount as number;
    const counted = await read();
    expect(await read()).toBe(counted + 1);
    expect(await read()).toBe(counted + 2);
    await expect.poll(consoleViews, { timeout: 5_000, interval: 200 }).toBe(counted + 2);
  });

  it('lets shared caches keep public reads for seconds and answers 304 while the ETag matches', async () => {
    const [row] = (await page('?limit=1')).rows;
    for (const url of [
      '/open-api/cms/v1/category/tree?channel=news',
      '/open-api/cms/v1/article/published/page/list?offset=0&limit=10',
      `/open-api/cms/v1/article/${row!.uuid}/detail`,
    ]) {
      const first = await t.app.inject({ url });
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
    }
    // A missing article is shared like the article (a proxy's copy of one taken down is replaced); refusals are never kept.
    const missing = await t.app.inject({ url: '/open-api/cms/v1/article/00000000-0000-0000-0000-000000000000/detail' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    expect((await list('?limit=0')).status).toBe(400);
    expect((await t.app.inject({ url: '/open-api/cms/v1/article/published/page/list?limit=0' })).headers['cache-control']).toBe(
      'private, no-store',
    );
  });

  it('revalidates a detail while only its view count changed, and still counts the view', async () => {
    const [row] = (await page('?sortOrder=1&limit=1')).rows;
    const url = `/open-api/cms/v1/article/${row!.uuid}/detail`;
    const first = await t.app.inject({ url });
    const etag = String(first.headers.etag);
    const revalidated = await t.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    const fresh = await t.app.inject({ url });
    expect(fresh.headers.etag).toBe(etag);
    expect(fresh.json().data[0].viewCount).toBe(first.json().data[0].viewCount + 2);
  });

  it('does not show drafts, offline or unknown articles', async () => {
    const hidden = await t.database.db.selectFrom('cms_article').select(['uuid', 'status']).where('status', '!=', 'published').execute();
    expect(hidden.map((h) => h.status).sort()).toEqual(['draft', 'offline']);
    for (const id of [...hidden.map((h) => h.uuid), '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      const res = await t.app.inject({ url: `/open-api/cms/v1/article/${id}/detail` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 1, msg: '文章不存在或已下线' });
    }
  });

  it('seeds policies with every kind of expiry: -1, absent, under and over 365 days', async () => {
    const rows = await t.database.db
      .selectFrom('cms_article')
      .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
      .select(['cms_article.expiration_day', 'cms_article.number'])
      .where('cms_category.code', 'like', 'policy%')
      .execute();
    const days = rows.map((r) => r.expiration_day);
    expect(days).toContain(-1);
    expect(days).toContain(null);
    expect(days.some((d) => d !== null && d > 0 && d < 365)).toBe(true);
    expect(days.some((d) => d !== null && d > 365)).toBe(true);
    expect(rows.every((r) => r.number)).toBe(true);
  });

  it('answers searches from an index, never a full scan of the articles', async () => {
    const db = t.database.db;
    const plan = (key: string) =>
      queryPlan(db, dialect, db.selectFrom('cms_article').select('id').where(containsKey(dialect, key)!).compile());
    const short = await plan('标识');
    expect(short).toMatch(/cms_article_gram/);
    const long = await plan('标识解析');
    if (dialect === 'sqlite') {
      expect(long).toMatch(/VIRTUAL TABLE INDEX .*cms_article_fts|cms_article_fts VIRTUAL TABLE/);
      expect(short).toMatch(
        /USING (COVERING )?INDEX sqlite_autoindex_cms_article_gram|USING PRIMARY KEY|cms_article_gram_pk|USING COVERING INDEX/,
      );
    } else {
      expect(long).toMatch(/Bitmap Index Scan on cms_article_search_trgm/);
      expect(short).toMatch(/Index (Only )?Scan .*cms_article_gram/);
    }
  });

  it('reads a page of a common word by walking the publish-time index, and a rare word from its matches', async () => {
    const db = t.database.db;
    const plan = async (searchKey: string, shape: 'probe' | 'set', offset = 490) => {
      const q = { offset, limit: 10, searchKey, sortOrder: 6 as const };
      return queryPlan(db, dialect, publishedPageIds(db, dialect, q, shape).compile());
    };
    // A walk stops after offset + limit matches: in order along the index, no sort, no gathering.
    for (const key of ['标', '标识', '工业互联网']) {
      const walk = await plan(key, 'probe');
      if (dialect === 'sqlite') {
        expect(walk).toMatch(/SEARCH cms_article USING (COVERING )?INDEX cms_article_status_time \(status=\?\)/);
        expect(walk).not.toMatch(/TEMP B-TREE|cms_article_fts|LIST SUBQUERY/);
        if (key.length <= 2) expect(walk).toMatch(/cms_article_gram.*\(gram=\? AND article_id=\?\)/);
      } else {
        expect(walk).toMatch(/Limit[\s\S]*Index (Only )?Scan Backward using cms_article_status_time/);
        expect(walk).toMatch(/SubPlan/);
        expect(walk).not.toMatch(/Sort|Hash|Seq Scan|Gather|cms_article_search_trgm/);
        if (key.length <= 2) expect(walk).toMatch(/Index Only Scan using cms_article_gram_pk/);
      }
    }
    // Few matches: fetched by id from the search index and sorted, never a walk over every article.
    for (const key of ['标识', '工业互联网']) {
      const gathered = await plan(key, 'set', 0);
      if (dialect === 'sqlite') {
        expect(gathered).toMatch(key.length <= 2 ? /cms_article_gram.*\(gram=\?\)/ : /cms_article_fts VIRTUAL TABLE/);
        expect(gathered).toMatch(/SEARCH cms_article USING INTEGER PRIMARY KEY/);
        expect(gathered).not.toMatch(/cms_article_status_time/);
      } else {
        // Gathered first, then sorted (which index finds a rare 3+-character word is the planner's, by statistics).
        if (key.length <= 2) expect(gathered).toMatch(/Index Only Scan using cms_article_gram_pk/);
        expect(gathered).toMatch(/Sort[\s\S]*CTE Scan on matches/);
        expect(gathered).toMatch(/CTE matches/);
        expect(gathered).not.toMatch(/Seq Scan on cms_article|Gather/);
      }
    }
  });

  it('finds what title or summary contains, 1 to 3+ characters, with the true total, page by page in order and with filters', async () => {
    // What a visitor would find by reading every published article (limit 100 covers all 60).
    const all = (await page('?limit=100')).rows;
    const oldestFirst = (await page('?limit=100&sortOrder=1')).rows;
    const contains = (r: Row, key: string) => r.title.toLowerCase().includes(key) || r.summary.toLowerCase().includes(key);
    const pagesOf = async (query: string, limit: number, total: number) => {
      const rows: Row[] = [];
      for (let offset = 0; offset < total; offset += limit) {
        const p = await page(`${query}&offset=${offset}&limit=${limit}`);
        expect(p.total).toBe(total);
        rows.push(...p.rows);
      }
      return rows.map((r) => r.uuid);
    };
    // Common and rare words, so a page is read both ways (walking the index for the first pages of a
    // common word, gathering the matches for deeper pages and rare words) and must agree.
    let common = 0;
    for (const key of ['工', '标识', '工业', '互联网', '标识解析', 'app']) {
      const expected = all.filter((r) => contains(r, key));
      expect(expected.length, key).toBeGreaterThan(0);
      if (expected.length > 25) common++;
      const q = `?searchKey=${encodeURIComponent(key)}`;
      expect(await pagesOf(q, 3, expected.length), key).toEqual(expected.map((r) => r.uuid));
      const oldest = oldestFirst.filter((r) => contains(r, key)).map((r) => r.uuid);
      expect(await pagesOf(`${q}&sortOrder=1`, 4, expected.length), key).toEqual(oldest);
      // Past the last match: no rows, the same total.
      expect(await page(`${q}&offset=${expected.length}&limit=10`)).toEqual({ rows: [], total: expected.length });
    }
    expect(common).toBeGreaterThan(0);
    // With a category (and its children) and a date range, the total and rows are those of the filters too.
    const policies = (await page('?filterCategoryId=policy&limit=100')).rows;
    const day = all[40]!.publishTime.slice(0, 10);
    const since = (await page(`?filterStartTime=${day}&limit=100`)).rows;
    for (const key of ['政策', '工业', '标识解析']) {
      const inPolicy = policies.filter((r) => contains(r, key)).map((r) => r.uuid);
      expect(await pagesOf(`?filterCategoryId=policy&searchKey=${encodeURIComponent(key)}`, 2, inPolicy.length), key).toEqual(inPolicy);
      const recent = since.filter((r) => contains(r, key)).map((r) => r.uuid);
      expect(await pagesOf(`?filterStartTime=${day}&searchKey=${encodeURIComponent(key)}`, 3, recent.length), key).toEqual(recent);
    }
  });

  it('never answers an old total after an article changes, whoever wrote it (an import, another instance)', async () => {
    const key = encodeURIComponent('标识');
    const before = await page(`?searchKey=${key}`);
    expect(before.total).toBeGreaterThan(1);
    const other = await t.connectAgain();
    try {
      const [first] = before.rows;
      await other.db.updateTable('cms_article').set({ status: 'offline' }).where('uuid', '=', first!.uuid).execute();
      const after = await page(`?searchKey=${key}`);
      expect(after.total).toBe(before.total - 1);
      expect(after.rows.map((r) => r.uuid)).not.toContain(first!.uuid);
      expect((await page('')).total).toBe(59);
      await other.db.updateTable('cms_article').set({ status: 'published' }).where('uuid', '=', first!.uuid).execute();
      expect(await page(`?searchKey=${key}`)).toEqual(before);
      expect((await page('')).total).toBe(60);
    } finally {
      await other.destroy();
    }
  });
});
