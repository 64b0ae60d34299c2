import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { chinaDate, chinaTime } from '../platform/lib/china-time.js';
import { replaceArticleGrams } from '../content/articles/article-search-repository.js';
import { sanitizeArticleHtml } from '../platform/lib/sanitize-article.js';
import type { ArticleStatus, Database, HomeBlockTable } from '../platform/db/schema.js';
import { DEMO_APPLICATIONS, demoApplicationHtml } from './app-center-data.js';
import { demoArticleHtml, demoHeadline, demoPolicyExpiration, demoPolicyHtml, demoPolicyNumber, demoThumbnail } from './content-body.js';
import { CATEGORIES, type DemoArticle, ENTERPRISE, NEWS, UNPUBLISHED } from './content-data.js';
import { CASES, KNOWLEDGE, STANDARDS } from './content-knowledge-data.js';
import { type DemoPolicy, POLICIES } from './content-policy-data.js';

type HomeKind = HomeBlockTable['kind'];

interface ArticleSeed {
  article: DemoArticle;
  category: string;
  policy?: DemoPolicy;
  status: ArticleStatus;
}

/** The demo articles in seed order: newest first, each category's articles side by side. */
function articleSeeds(): ArticleSeed[] {
  const published = (category: string) => (article: DemoArticle) => ({ article, category, status: 'published' as const });
  return [
    ...NEWS.map(published('news')),
    ...ENTERPRISE.map(published('enterprise')),
    ...POLICIES.map((policy) => ({ article: policy, policy, category: policy.category, status: 'published' as const })),
    ...KNOWLEDGE.map(published('knowledge')),
    ...STANDARDS.map(published('standard')),
    ...CASES.map(published('case')),
    ...UNPUBLISHED.map((article) => ({ article, category: 'enterprise', status: article.status })),
  ];
}

/** What a demo article published on `publishDate` (China date) is stored with. */
function articleColumns({ article, policy }: ArticleSeed, publishDate: string) {
  const common = { ...demoHeadline(article, publishDate), thumbnail: demoThumbnail(article) };
  if (!policy)
    return { ...common, content: sanitizeArticleHtml(demoArticleHtml(article, publishDate)), number: null, expiration_day: null };
  const number = demoPolicyNumber(policy, publishDate);
  const expirationDay = demoPolicyExpiration(policy, publishDate);
  const content = sanitizeArticleHtml(demoPolicyHtml(policy, publishDate, { number, expirationDay }));
  return { ...common, content, number, expiration_day: expirationDay };
}

/** Categories, at least 60 published articles, applications and home blocks. Runs once. */
export async function seedContent(db: Kysely<Database>, now: Date): Promise<boolean> {
  const stamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.content', value: '1', updated_at: stamp })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    // Its articles have their own bodies already: the upgrade below has nothing to do here.
    await trx
      .insertInto('site_setting')
      .values({ key: BODIES_MARKER, value: '1', updated_at: stamp })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();

    const categoryId = new Map<string, number>();
    for (const [i, c] of CATEGORIES.entries()) {
      const row = await trx
        .insertInto('cms_category')
        .values({
          code: c.code,
          name: c.name,
          channel: c.channel,
          parent_id: c.parent ? categoryId.get(c.parent)! : null,
          sort: i + 1,
          created_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      categoryId.set(c.code, row.id);
    }

    for (const [i, seed] of articleSeeds().entries()) {
      // Newest first in seed order, about 1.7 days apart, at varied office hours.
      const published = new Date(now.getTime() - (i * 1.7 + 0.2) * 86_400_000 - (i % 7) * 3_600_000);
      const columns = articleColumns(seed, chinaDate(published));
      const row = await trx
        .insertInto('cms_article')
        .values({
          uuid: randomUUID(),
          ...columns,
          category_id: categoryId.get(seed.category)!,
          publish_time: seed.status === 'draft' ? null : chinaTime(published),
          data_source_name: seed.article.source,
          status: seed.status,
          view_count: (i * 37) % 500,
          created_at: published.toISOString(),
          updated_at: published.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await replaceArticleGrams(trx, row.id, columns.title, columns.summary);
    }

    await trx
      .insertInto('app_application')
      .values(
        DEMO_APPLICATIONS.map((a, i) => ({
          uuid: randomUUID(),
          name: a.name,
          application_description: a.description,
          image_path: `/demo/app-${i + 1}.svg`,
          icon_path: '/demo/icon-app.svg',
          category: a.category,
          provider: a.provider,
          content: demoApplicationHtml(a),
          recommended: i < 8 ? 1 : 0,
          sort: i + 1,
          status: 'published',
          created_at: stamp,
          // Single sign-on: enterprises may 申请使用 it.
          service_url: a.sso?.serviceUrl ?? '',
          service_host: a.sso ? new URL(a.sso.serviceUrl).hostname : '',
          logout_url: a.sso?.logoutUrl ?? '',
          attributes: a.sso?.attributes.join(',') ?? '',
        })),
      )
      .execute();

    // Multi-row inserts need every column (SQLite has no DEFAULT in VALUES).
    const block = (
      b: { kind: HomeKind; title: string; sort: number } & Partial<Record<'subtitle' | 'icon' | 'link_url' | 'kpi' | 'uom', string>> & {
          open_url_flag?: number;
        },
    ) => ({
      subtitle: '',
      icon: '',
      link_url: '',
      open_url_flag: 0,
      kpi: '',
      uom: '',
      ...b,
    });
    await trx
      .insertInto('home_block')
      .values(
        (
          [
            {
              kind: 'banner',
              title: '工业互联网平台 赋能智能制造',
              subtitle: '设备建模 · 设备看板 · 监控告警 · 数据分析，一站式数字化转型服务',
              icon: '/demo/banner-1.svg',
              link_url: '/settled',
              open_url_flag: 0,
              sort: 1,
            },
            {
              kind: 'banner',
              title: '数据驱动 让每台设备都会说话',
              subtitle: '物联网盒子即插即用，老旧设备快速上云',
              icon: '/demo/banner-2.svg',
              link_url: '/product',
              open_url_flag: 0,
              sort: 2,
            },
            {
              kind: 'banner',
              title: '标识解析 一物一码全程追溯',
              subtitle: '基于二级节点标识的售后服务与配件追溯',
              icon: '/demo/banner-3.svg',
              link_url: '/mark',
              open_url_flag: 0,
              sort: 3,
            },
            { kind: 'kpi', title: '接入设备', kpi: '130', uom: '万台', icon: '/demo/icon-device.svg', sort: 1 },
            { kind: 'kpi', title: '服务企业', kpi: '2.1', uom: '万家', icon: '/demo/icon-enterprise.svg', sort: 2 },
            { kind: 'kpi', title: '工业 APP', kpi: '1068', uom: '款', icon: '/demo/icon-app.svg', sort: 3 },
            { kind: 'kpi', title: '标识注册量', kpi: '5.6', uom: '亿', icon: '/demo/icon-mark.svg', sort: 4 },
            {
              kind: 'award',
              title: '国家级跨行业跨领域工业互联网平台',
              subtitle: '工业和信息化部',
              icon: '/demo/icon-award.svg',
              sort: 1,
            },
            { kind: 'award', title: '工业互联网标识解析二级节点', subtitle: '工程机械行业', icon: '/demo/icon-mark.svg', sort: 2 },
            { kind: 'award', title: '信息安全等级保护三级', subtitle: '公安部备案', icon: '/demo/icon-standard.svg', sort: 3 },
            { kind: 'award', title: '智能制造示范工厂', subtitle: '工业和信息化部', icon: '/demo/icon-patent.svg', sort: 4 },
            {
              kind: 'link',
              title: '供需对接',
              subtitle: '发布采购与产能需求，平台智能匹配',
              icon: '/demo/icon-enterprise.svg',
              link_url: '/settled',
              open_url_flag: 0,
              sort: 1,
            },
            {
              kind: 'link',
              title: '设备租赁',
              subtitle: '闲置设备共享，提升利用率',
              icon: '/demo/icon-device.svg',
              link_url: '/product',
              open_url_flag: 0,
              sort: 2,
            },
            {
              kind: 'link',
              title: '专家服务',
              subtitle: '行业专家在线答疑与远程诊断',
              icon: '/demo/icon-service.svg',
              link_url: '/remote',
              open_url_flag: 0,
              sort: 3,
            },
            {
              kind: 'link',
              title: '配件溯源',
              subtitle: '扫码识别原厂配件',
              icon: '/demo/icon-mark.svg',
              link_url: '/mark',
              open_url_flag: 0,
              sort: 4,
            },
          ] satisfies Parameters<typeof block>[0][]
        ).map(block),
      )
      .execute();
    return true;
  });
}

const BODIES_MARKER = 'seed.content-bodies';
/** The list every demo article's body carried before each got its own (with the same paragraphs), recognised to upgrade it. */
const OLD_BODY_MARK = '<li>加强顶层设计，统筹推进</li>';
/** The numbered thumbnails (or none) the first content seed gave the demo articles. */
const OLD_THUMBNAIL = /^\/demo\/thumb-\d+\.svg$/;
/** A demo title whatever year or month it names: the first seed wrote them as of its day. */
const shape = (text: string) => text.replace(/\{[^}]*\}|\d+/g, '#');

/**
 * The demo articles' own bodies, once (its own marker, so installations seeded before it get them too): a demo
 * article still carrying the first seed's shared body gets its own, dated by its publish date, and its
 * own thumbnail unless an operator chose another, and a policy the number its particulars name (its demo
 * number in the year it was published). Titles, summaries and dates stay; articles an operator rewrote are left alone.
 */
export async function upgradeContentBodies(db: Kysely<Database>, now: Date): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', BODIES_MARKER).executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: BODIES_MARKER, value: '1', updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const demos = new Map(articleSeeds().map((seed) => [shape(seed.article.title), seed]));
    const rows = await trx
      .selectFrom('cms_article')
      .select(['id', 'title', 'thumbnail', 'number', 'expiration_day', 'publish_time', 'created_at'])
      .where('content', 'like', `%${OLD_BODY_MARK}%`)
      .execute();
    for (const row of rows) {
      const demo = demos.get(shape(row.title));
      if (!demo) continue;
      const publishDate = row.publish_time?.slice(0, 10) ?? chinaDate(new Date(row.created_at));
      const { policy } = demo;
      const number = policy ? demoPolicyNumber(policy, publishDate) : row.number;
      const html = policy
        ? demoPolicyHtml(policy, publishDate, { number: demoPolicyNumber(policy, publishDate), expirationDay: row.expiration_day })
        : demoArticleHtml(demo.article, publishDate);
      await trx
        .updateTable('cms_article')
        .set({
          content: sanitizeArticleHtml(html),
          number,
          thumbnail: row.thumbnail === null || OLD_THUMBNAIL.test(row.thumbnail) ? demoThumbnail(demo.article) : row.thumbnail,
        })
        .where('id', '=', row.id)
        .execute();
    }
    return true;
  });
}
