import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedContent } from '../../../seed/content-seed.js';
import { seedDemoData } from '../../../seed/index.js';
import { createTestApp, createTestDatabase, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

interface ListRow {
  uuid: string;
  title: string;
  thumbnail: string | null;
  publishTime: string;
  categoryId: string;
}

interface Detail {
  title: string;
  number: string | null;
  dataSourceName: string | null;
  expirationDay: number | null;
  publishTime: string;
  content: string;
}

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
/** The texts of an element in sanitised HTML (no nesting of the same element). */
const texts = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => decode(m[1]!)).filter(Boolean);

const chineseDate = (text: string) => {
  const [, y, m, d] = /^(\d{4})年(\d{1,2})月(\d{1,2})日$/.exec(text) ?? [];
  expect(y, text).toBeDefined();
  return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
};
const formatChineseDate = (date: Date) => `${date.getUTCFullYear()}年${date.getUTCMonth() + 1}月${date.getUTCDate()}日`;
/** Spec section 2: years and days beyond 365 days, else days. */
const expiryText = (days: number) => (days > 365 ? `${Math.floor(days / 365)}年${days % 365 ? `${days % 365}天` : ''}` : `${days}天`);

describe.each(testDialects())('the demo content on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const data = async <T>(url: string, headers: Record<string, string> = {}): Promise<T> => {
    const res = await t.app.inject({ url, headers });
    expect(res.statusCode, url).toBe(200);
    return res.json().data[0] as T;
  };
  const list = (query: string) =>
    data<{ rows: ListRow[]; total: number }>(`/open-api/cms/v1/article/published/page/list?limit=100&${query}`);
  const detail = (uuid: string) => data<Detail>(`/open-api/cms/v1/article/${uuid}/detail`);

  /** Every seeded article's title and body: the published ones as visitors read them, the others as the console does. */
  const allBodies = async () => {
    const published = (await list('')).rows;
    expect(published).toHaveLength(60);
    const bodies = await Promise.all(published.map(async (r) => ({ title: r.title, content: (await detail(r.uuid)).content })));
    const operator = await tokenFor(t, 'operator');
    const hidden = await t.database.db.selectFrom('cms_article').select('uuid').where('status', '!=', 'published').execute();
    expect(hidden).toHaveLength(2);
    for (const { uuid } of hidden) {
      const article = await data<{ title: string; content: string }>(`/web-api/cms/v1/article/${uuid}`, {
        'x-requested-with': 'XMLHttpRequest',
        authorization: operator,
      });
      bodies.push({ title: article.title, content: article.content });
    }
    return bodies;
  };

  it('gives every article a body of its own: three paragraphs or more, none shared with another article', async () => {
    const bodies = await allBodies();
    const paragraphOf = new Map<string, string>();
    const itemOf = new Map<string, string>();
    for (const { title, content } of bodies) {
      const paragraphs = texts(content, 'p');
      expect(paragraphs.length, title).toBeGreaterThanOrEqual(3);
      // Within an article too: no paragraph twice.
      for (const p of paragraphs) {
        expect(paragraphOf.get(p), `「${p}」 in ${title}`).toBeUndefined();
        paragraphOf.set(p, title);
      }
      for (const li of texts(content, 'li')) {
        expect(itemOf.get(li), `「${li}」 in ${title}`).toBeUndefined();
        itemOf.set(li, title);
      }
      // Nothing left of the demo data's templates.
      expect(content, title).not.toMatch(/\{[A-Za-z+-]+\}/);
    }
  });

  it('gives every policy a document number of its year and particulars that agree with its date and validity', async () => {
    const policies = (await list('filterCategoryId=policy')).rows;
    expect(policies).toHaveLength(12);
    for (const row of policies) {
      const policy = await detail(row.uuid);
      const year = policy.publishTime.slice(0, 4);
      // 发文字号: 机关代字〔年份〕序号号.
      expect(policy.number, policy.title).toMatch(new RegExp(`^[\\u4e00-\\u9fa5]+〔${year}〕[1-9]\\d*号$`));
      const particulars = new Map(
        [...policy.content.matchAll(/<tr><th>([^<]+)<\/th><td>([^<]+)<\/td><\/tr>/g)].map((m) => [m[1]!, decode(m[2]!)]),
      );
      expect(particulars.get('发文机关'), policy.title).toBe(policy.dataSourceName);
      expect(particulars.get('发文字号'), policy.title).toBe(policy.number);
      const published = chineseDate(particulars.get('发布日期')!);
      expect(published.toISOString().slice(0, 10), policy.title).toBe(policy.publishTime.slice(0, 10));
      const signed = chineseDate(particulars.get('成文日期')!);
      const effective = chineseDate(particulars.get('施行日期')!);
      expect(signed.getTime(), policy.title).toBeLessThanOrEqual(published.getTime());
      expect(effective.getTime(), policy.title).toBeGreaterThanOrEqual(signed.getTime());
      const days = policy.expirationDay;
      if (days === null || days === -1) {
        expect(particulars.get('有效期'), policy.title).toBe('长期有效');
      } else {
        const until = formatChineseDate(new Date(effective.getTime() + (days - 1) * 86_400_000));
        expect(particulars.get('有效期'), policy.title).toBe(`${expiryText(days)}（至 ${until}）`);
        // Still in force on its publish date.
        expect(chineseDate(until).getTime(), policy.title).toBeGreaterThanOrEqual(published.getTime());
      }
      // Signed by its issuing body on its 成文日期.
      expect(texts(policy.content, 'p').at(-1), policy.title).toBe(`${policy.dataSourceName}${particulars.get('成文日期')}`);
    }
  });

  it('never shows the same picture on neighbouring cards, in any category and order', async () => {
    const categories = async (channel: string) => {
      const tree: { categoryId: string; children: { categoryId: string }[] }[] = (
        await t.app.inject({ url: `/open-api/cms/v1/category/tree?channel=${channel}` })
      ).json().data;
      return tree.flatMap((c) => [c.categoryId, ...c.children.map((child) => child.categoryId)]);
    };
    const filters = ['', ...(await categories('news')), ...(await categories('knowledge'))].map((c) => (c ? `filterCategoryId=${c}` : ''));
    const images = new Map<string, string>();
    const image = async (thumbnail: string) => {
      if (!images.has(thumbnail)) {
        const res = await t.app.inject({ url: `/files${thumbnail}` });
        expect(res.statusCode, thumbnail).toBe(200);
        expect(res.headers['content-type'], thumbnail).toMatch(/^image\/svg\+xml/);
        images.set(thumbnail, res.body);
      }
      return images.get(thumbnail)!;
    };
    // The site lists one category at a time (its tabs, the home page's 行业动态), in any order; all
    // categories together only newest first (the console's list too).
    for (const filter of filters) {
      for (const sortOrder of filter ? [1, 2, 3, 4, 5, 6] : [5, 6]) {
        const { rows } = await list(`${filter}&sortOrder=${sortOrder}`);
        expect(rows.length, filter).toBeGreaterThan(1);
        for (const [k, row] of rows.entries()) {
          expect(row.thumbnail, row.title).toMatch(/^\/demo\/thumb-[a-z]+\.svg$/);
          if (k === 0) continue;
          const before = rows[k - 1]!;
          expect(await image(row.thumbnail!), `${filter} sort ${sortOrder}: ${before.title} / ${row.title}`).not.toBe(
            await image(before.thumbnail!),
          );
        }
      }
    }
    // Within a category tab no picture repeats at all, so paging and filtering keep neighbours apart too.
    for (const filter of filters.filter(Boolean)) {
      const thumbnails = (await list(filter)).rows.map((r) => r.thumbnail);
      expect(new Set(thumbnails).size, filter).toBe(thumbnails.length);
    }
  });

  it('gives every demo application a detail and a picture of its own', async () => {
    const applications = await t.app.inject({ url: '/open-api/app/v1/list' });
    const all = applications.json().data as { applicationUuid: string; name: string; imagePath: string }[];
    expect(all).toHaveLength(10);
    expect(new Set(all.map((a) => a.imagePath)).size).toBe(10);
    const seen = new Map<string, string>();
    for (const a of all) {
      const { content } = await data<{ content: string }>(`/open-api/app/v1/dtl?appId=${a.applicationUuid}`);
      for (const text of [...texts(content, 'p'), ...texts(content, 'li')]) {
        expect(seen.get(text), `「${text}」 in ${a.name}`).toBeUndefined();
        seen.set(text, a.name);
      }
    }
  });
});

describe('the demo bodies on an installation seeded before them', () => {
  it('reach the demo articles still carrying the shared body, whatever year their titles name, and leave edited ones alone', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const { db } = t.database;
      await seedDemoData(db, t.config);
      // Back to what the first content seed left: one body for all, numbered thumbnails, its document numbers.
      const oldBody = '<p>摘要</p><h3>详细内容</h3><p>业内专家表示。</p><ul><li>加强顶层设计，统筹推进</li></ul>';
      await db.updateTable('cms_article').set({ content: oldBody, thumbnail: '/demo/thumb-3.svg' }).execute();
      const policyTitle = '关于深化新一代信息技术与制造业融合发展的指导意见';
      await db.updateTable('cms_article').set({ number: '国发〔2026〕12号' }).where('title', '=', policyTitle).execute();
      await db
        .updateTable('cms_article')
        .set({ title: '2025 工业互联网大会在徐州举办', thumbnail: null })
        .where('title', 'like', '% 工业互联网大会在徐州举办')
        .execute();
      await db
        .updateTable('cms_article')
        .set({ thumbnail: '/uploads/2026/05/own.png' })
        .where('title', '=', '物联网盒子出货量同比增长 45%')
        .execute();
      await db
        .updateTable('cms_article')
        .set({ content: '<p>运营改写的正文</p>' })
        .where('title', '=', '设备上云助力中小企业降本增效')
        .execute();
      await db.deleteFrom('site_setting').where('key', '=', 'seed.content-bodies').execute();

      expect(await seedDemoData(db, t.config)).toEqual(['content-bodies']);
      const articles = new Map(
        (await db.selectFrom('cms_article').select(['title', 'content', 'thumbnail', 'number', 'publish_time']).execute()).map((a) => [
          a.title,
          a,
        ]),
      );
      expect(articles.get('预测性维护让设备停机时间减少三成')).toMatchObject({
        content: expect.stringContaining('提前 9 天发现了一台行车减速机轴承的早期磨损'),
        thumbnail: '/demo/thumb-pulse.svg',
      });
      expect(articles.get('2025 工业互联网大会在徐州举办')).toMatchObject({
        content: expect.stringContaining('现场签约'),
        thumbnail: '/demo/thumb-podium.svg',
      });
      expect(articles.get('物联网盒子出货量同比增长 45%')).toMatchObject({
        content: expect.stringContaining('RedCap'),
        thumbnail: '/uploads/2026/05/own.png',
      });
      const policy = articles.get(policyTitle)!;
      const number = `国发〔${policy.publish_time!.slice(0, 4)}〕41号`;
      expect(policy.number).toBe(number);
      expect(policy.content).toContain(`<tr><th>发文字号</th><td>${number}</td></tr>`);
      expect(articles.get('设备上云助力中小企业降本增效')?.content).toBe('<p>运营改写的正文</p>');
      expect([...articles.values()].filter((a) => a.content.includes('加强顶层设计'))).toEqual([]);

      expect(await seedDemoData(db, t.config)).toEqual([]);
    } finally {
      await t.drop();
    }
  });
});

describe('the demo content seeded at the turn of a year', () => {
  it('names the years and months of the dates the seed gives its articles', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const { db } = t.database;
      // Noon in China on 5 January: the newest articles are of the new year, the policies of the old one.
      await seedContent(db, new Date('2027-01-05T04:00:00Z'));
      const rows = await db.selectFrom('cms_article').select(['title', 'number', 'publish_time', 'content']).execute();
      const byTitle = (start: string) => rows.find((r) => r.title.startsWith(start))!;
      expect(byTitle('工程机械行业').title).toBe('工程机械行业 12 月挖掘机销量同比增长 18%');
      expect(byTitle('工程机械行业').publish_time).toMatch(/^2027-01-/);
      const plan = byTitle('工业互联网创新发展行动计划');
      expect(plan.publish_time).toMatch(/^2026-/);
      expect(plan.title).toBe('工业互联网创新发展行动计划（2026—2028 年）');
      expect(plan.content).toContain('实施期至 2028年12月31日');
      for (const policy of rows.filter((r) => r.number)) expect(policy.number).toContain(`〔${policy.publish_time!.slice(0, 4)}〕`);
      const conference = rows.find((r) => r.title.endsWith(' 工业互联网大会在徐州举办'))!;
      expect(conference.title).toBe(`${conference.publish_time!.slice(0, 4)} 工业互联网大会在徐州举办`);
    } finally {
      await t.drop();
    }
  });
});
