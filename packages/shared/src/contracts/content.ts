import { Type } from 'typebox';
import { DEFAULT_ARTICLE_SORT_ORDER } from '../content.js';
import { DASHBOARD_DAYS } from '../dashboard.js';

/**
 * The answers of the public site (site, articles, home blocks, recommended applications) and the
 * console's 工作台 and 操作日志: the source of the types in content.ts, site.ts, dashboard.ts and audit.ts.
 */

// ----- site

const FooterLinkSchema = Type.Object({ title: Type.String(), url: Type.String() });
export const SiteInfoSchema = Type.Object({
  name: Type.String(),
  nav: Type.Array(Type.Object({ key: Type.String(), title: Type.String() })),
  address: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  support: Type.String(),
  copyright: Type.String(),
  icp: Type.String(),
  appDownloadUrl: Type.String(),
  linkGroups: Type.Array(Type.Object({ title: Type.String(), links: Type.Array(FooterLinkSchema) })),
});

// ----- articles

const CategoryFields = {
  id: Type.Integer(),
  categoryId: Type.String(),
  categoryName: Type.String(),
  channel: Type.String(),
};
/** Categories are two levels deep (a channel's categories and their sub-categories). */
export const CategoryNodeSchema = Type.Object({
  ...CategoryFields,
  children: Type.Array(Type.Object({ ...CategoryFields, children: Type.Array(Type.Object({})) })),
});
/** `GET /open-api/cms/v1/category/tree` query. */
export const CategoryTreeQuerySchema = Type.Object({
  channel: Type.Optional(Type.Union([Type.Literal('news'), Type.Literal('knowledge')])),
});

const ArticleFields = {
  id: Type.Integer(),
  uuid: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  publishTime: Type.String(),
};
export const ArticleListItemSchema = Type.Object({ ...ArticleFields, categoryId: Type.String(), categoryName: Type.String() });

export const ArticleDetailSchema = Type.Object({
  ...ArticleFields,
  categoryId: Type.Union([Type.Literal('policy'), Type.Literal('news')], {
    description: 'policy：政策法规及其子分类（显示文号与有效期）；news：其他文章（含行业知识）',
  }),
  subCategoryId: Type.String({ description: '文章所在分类的编码（列表项的 categoryId）' }),
  subCategoryName: Type.String({ description: '文章所在分类的名称' }),
  channel: Type.Union([Type.Literal('news'), Type.Literal('knowledge')], {
    description: '文章所在栏目：news 行业资讯（/news/detail），knowledge 行业知识（/knowledge/detail）',
  }),
  number: Type.Union([Type.String(), Type.Null()]),
  dataSourceName: Type.Union([Type.String(), Type.Null()]),
  expirationDay: Type.Union([Type.Integer(), Type.Null()]),
  content: Type.String(),
  viewCount: Type.Integer(),
});
export const ArticleIdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const DateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$' });

/** `GET /open-api/cms/v1/article/published/page/list` query (spec section 9). */
export const ArticleQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0, description: '跳过的条数：(page-1)*limit' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: '每页条数，1–100' }),
  searchKey: Type.Optional(Type.String({ maxLength: 200, description: '标题或摘要包含的文字' })),
  filterCategoryId: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9_-]*$', description: '分类编码（含子分类）' })),
  filterStartTime: Type.Optional(Type.Union([DateTime, Type.Literal('')], { description: '发布时间起 yyyy-MM-dd HH:mm:ss' })),
  filterEndTime: Type.Optional(Type.Union([DateTime, Type.Literal('')], { description: '发布时间止 yyyy-MM-dd HH:mm:ss' })),
  sortOrder: Type.Integer({
    minimum: 1,
    maximum: 6,
    default: DEFAULT_ARTICLE_SORT_ORDER,
    description: '1 最早发布，2 最多浏览，3 最少浏览，4 标题，5 最近更新，6 最新发布（默认）',
  }),
});

// ----- home and applications

export const LinkBlockSchema = Type.Object({
  title: Type.String(),
  subtitle: Type.String(),
  icon: Type.String({ description: '相对路径，前端加文件服务地址' }),
  linkUrl: Type.String(),
  openUrlFlag: Type.Integer({ description: '1 表示新窗口打开 linkUrl' }),
});
export const KpiTileSchema = Type.Object({ image: Type.String(), kpi: Type.String(), uom: Type.String(), name: Type.String() });
export const HomeBlocksSchema = Type.Object({
  banners: Type.Array(LinkBlockSchema),
  links: Type.Array(LinkBlockSchema),
  awards: Type.Array(LinkBlockSchema),
  kpis: Type.Array(KpiTileSchema),
});

export const RecommendItemSchema = Type.Object({
  applicationUuid: Type.String(),
  name: Type.String(),
  applicationDescription: Type.String(),
  imagePath: Type.String(),
  iconPath: Type.String(),
  category: Type.String(),
  provider: Type.String(),
});
export const ApplicationDetailSchema = Type.Object({ ...RecommendItemSchema.properties, content: Type.String() });
/** `GET /open-api/app/v1/dtl` query. */
export const ApplicationDetailQuerySchema = Type.Object({ appId: Type.String({ minLength: 1, maxLength: 64 }) });

// ----- files

/** `POST /web-api/files/v1/upload`: the image's path under /files and its full address. */
export const UploadedImageSchema = Type.Object({ path: Type.String(), url: Type.String() });

/** `GET /sitemap-{n}.xml`: the number of a sitemap file of the index. */
export const SitemapFileParamsSchema = Type.Object({ file: Type.String({ pattern: '^[1-9][0-9]{0,5}$' }) });

// ----- 工作台

export const DayCountSchema = Type.Object({ date: Type.String(), count: Type.Integer() });
const Series = Type.Array(DayCountSchema, { description: `最近 ${DASHBOARD_DAYS} 天（中国日期，旧的在前）` });
export const PlatformDashboardSchema = Type.Object({
  publishedArticles: Type.Integer(),
  totalViews: Type.Integer(),
  enterprises: Type.Integer(),
  publishedPerDay: Series,
  registrationsPerDay: Series,
  mostViewed: Type.Array(Type.Object({ uuid: Type.String(), title: Type.String(), viewCount: Type.Integer() })),
});
export const DashboardSchema = Type.Object({
  scope: Type.Union([Type.Literal('enterprise'), Type.Literal('platform')], {
    description: 'enterprise：本企业；platform：全平台（平台运营）',
  }),
  enterpriseName: Type.String(),
  accounts: Type.Object(
    { active: Type.Integer(), disabled: Type.Integer(), locked: Type.Integer() },
    { description: '账号数：正常、停用、锁定' },
  ),
  activeLast7Days: Type.Integer(),
  activeLast30Days: Type.Integer(),
  loginsPerDay: Series,
  identifiers: Type.Object({ prefixes: Type.Integer(), records: Type.Integer() }),
  lookupsPerDay: Series,
  platform: Type.Union([PlatformDashboardSchema, Type.Null()]),
});

// ----- 操作日志

export const AuditOutcomeSchema = Type.Union([Type.Literal('success'), Type.Literal('failure')]);
export const AuditLogRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String({ description: '账号姓名（账号已删除或未知时为空）' }),
  enterpriseId: Type.Union([Type.Integer(), Type.Null()]),
  enterpriseName: Type.String(),
  action: Type.String(),
  actionName: Type.String(),
  target: Type.String(),
  ip: Type.String(),
  outcome: AuditOutcomeSchema,
  detail: Type.String(),
  requestId: Type.String({ description: '请求编号：写入该条日志的请求的 X-Request-Id（无请求的记录为空）' }),
  createdAt: Type.String(),
});
/** The list's filters, which the export honours too. */
export const AuditLogFilterFields = {
  filterStartTime: Type.Optional(Type.String({ maxLength: 19, description: '开始时间 yyyy-MM-dd HH:mm:ss（中国时间）' })),
  filterEndTime: Type.Optional(Type.String({ maxLength: 19, description: '结束时间 yyyy-MM-dd HH:mm:ss（含）' })),
  username: Type.Optional(Type.String({ maxLength: 64, description: '账号或姓名（完全一致）' })),
  action: Type.Optional(Type.String({ maxLength: 64, description: '操作编码，见 /web-api/console/v1/audit/actions' })),
  outcome: Type.Optional(Type.Union([AuditOutcomeSchema, Type.Literal('')])),
  requestId: Type.Optional(Type.String({ maxLength: 64, description: '请求编号（完全一致），即接口应答头 X-Request-Id' })),
};
export const AuditLogFilterQuerySchema = Type.Object(AuditLogFilterFields);
/** `GET /web-api/console/v1/audit/page/list` query. */
export const AuditLogQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  ...AuditLogFilterFields,
});
/** `GET /web-api/console/v1/audit/actions`: one audited action. */
export const AuditActionSchema = Type.Object({ code: Type.String(), name: Type.String() });
