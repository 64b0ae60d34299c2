import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { chinaTime } from '../../lib/china-time.js';
import { replaceArticleGrams } from '../../features/content/article-search.js';
import { sanitizeArticleHtml } from '../../features/content/sanitize-article.js';
import type { ArticleStatus, Database, HomeBlockTable } from '../schema.js';

type HomeKind = HomeBlockTable['kind'];
import { DEMO_APPLICATIONS, demoApplicationHtml } from './app-center-data.js';
import { CASES, CATEGORIES, ENTERPRISE, KNOWLEDGE, NEWS, POLICIES, STANDARDS } from './content-data.js';

const PARAGRAPHS: Record<string, string[]> = {
  news: [
    '业内专家表示，工业互联网正从概念普及走向落地深耕，平台、网络、安全与标识解析四大体系协同发力，为制造业数字化转型提供了坚实支撑。',
    '下一步，相关部门将继续完善政策体系，推动平台在重点行业和区域的规模化应用，培育一批具有国际竞争力的工业互联网解决方案供应商。',
    '企业用户普遍反映，借助平台的设备接入、数据分析和应用服务能力，生产运营更加透明，决策效率明显提升。',
  ],
  enterprise: [
    '集团相关负责人介绍，平台将坚持开放合作，与产业链上下游伙伴共建生态，让更多中小企业用得上、用得起、用得好工业互联网。',
    '目前，平台已形成设备建模、设备看板、监控告警、数据分析、售后服务等完整产品体系，并通过开放服务中心向开发者提供工具与接口。',
  ],
  policy: [
    '文件要求各地区、各有关部门结合实际认真贯彻落实，加强统筹协调，细化工作措施，确保各项任务落到实处。',
    '企业可通过平台“入驻指南”完成注册和企业认证后，在线了解申报条件、准备材料并跟踪办理进度。',
  ],
  knowledge: [
    '在实际应用中，建议先从数据采集和可视化入手，积累一定的数据基础后，再逐步开展分析建模与智能应用。',
    '如需进一步了解，可在平台开放服务中心查阅开发文档，或联系技术支持获取一对一指导。',
  ],
};

function articleHtml(summary: string, channel: keyof typeof PARAGRAPHS, thumbnail: string | null): string {
  const [a, b, c] = PARAGRAPHS[channel]!;
  return [
    `<p>${summary}</p>`,
    thumbnail ? `<p><img src="/files${thumbnail}" alt="配图"></p>` : '',
    '<h3>详细内容</h3>',
    `<p>${a}</p>`,
    b ? `<p>${b}</p>` : '',
    '<ul><li>加强顶层设计，统筹推进</li><li>突出应用牵引，示范带动</li><li>强化安全保障，筑牢底线</li></ul>',
    c ? `<p>${c}</p>` : '',
  ].join('');
}

interface ArticleSeed {
  title: string;
  summary: string;
  source: string;
  category: string;
  channel: keyof typeof PARAGRAPHS;
  number?: string;
  expirationDay?: number | null;
  status?: ArticleStatus;
}

function articleSeeds(): ArticleSeed[] {
  const seeds: ArticleSeed[] = [];
  for (const [title, summary, source] of NEWS) seeds.push({ title, summary, source, category: 'news', channel: 'news' });
  for (const [title, summary, source] of ENTERPRISE) seeds.push({ title, summary, source, category: 'enterprise', channel: 'enterprise' });
  for (const [title, summary, source, number, expirationDay, category] of POLICIES) {
    seeds.push({ title, summary, source, category, channel: 'policy', number, expirationDay: expirationDay ?? null });
  }
  for (const [title, summary, source] of KNOWLEDGE) seeds.push({ title, summary, source, category: 'knowledge', channel: 'knowledge' });
  for (const [title, summary, source] of STANDARDS) seeds.push({ title, summary, source, category: 'standard', channel: 'knowledge' });
  for (const [title, summary, source] of CASES) seeds.push({ title, summary, source, category: 'case', channel: 'knowledge' });
  // Not public: a draft and an article taken offline, for the console and the visibility rules.
  seeds.push({
    title: '平台 4.0 版本功能规划（草稿）',
    summary: '规划中的功能，尚未发布。',
    source: '平台运营中心',
    category: 'enterprise',
    channel: 'enterprise',
    status: 'draft',
  });
  seeds.push({
    title: '2025 年平台运维公告（已下线）',
    summary: '该公告已过期下线。',
    source: '平台运营中心',
    category: 'enterprise',
    channel: 'enterprise',
    status: 'offline',
  });
  return seeds;
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

    for (const [i, a] of articleSeeds().entries()) {
      // Newest first in seed order, about 1.7 days apart, at varied office hours.
      const published = new Date(now.getTime() - (i * 1.7 + 0.2) * 86_400_000 - (i % 7) * 3_600_000);
      const thumbnail = i % 5 === 4 ? null : `/demo/thumb-${(i % 12) + 1}.svg`;
      const status = a.status ?? 'published';
      const row = await trx
        .insertInto('cms_article')
        .values({
          uuid: randomUUID(),
          title: a.title,
          summary: a.summary,
          thumbnail,
          content: sanitizeArticleHtml(articleHtml(a.summary, a.channel, thumbnail)),
          number: a.number ?? null,
          category_id: categoryId.get(a.category)!,
          publish_time: status === 'draft' ? null : chinaTime(published),
          data_source_name: a.source,
          expiration_day: a.expirationDay ?? null,
          status,
          view_count: (i * 37) % 500,
          created_at: published.toISOString(),
          updated_at: published.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await replaceArticleGrams(trx, row.id, a.title, a.summary);
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
          // Single sign-on (issue 20): enterprises may 申请使用 it.
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
