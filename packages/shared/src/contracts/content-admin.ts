import { Type } from 'typebox';
import { APP_URL_MAX, RELEASABLE_ATTRIBUTES, type ReleasableAttribute } from '../sso.js';

/** The console's content management (articles, categories, home blocks, applications of the application center). */

// ----- 文章管理

export const AdminArticleStatusSchema = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('offline')]);
export const AdminArticleInputSchema = Type.Object({
  title: Type.String({ maxLength: 200 }),
  summary: Type.Optional(Type.String({ maxLength: 500 })),
  thumbnail: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  content: Type.String({ maxLength: 200_000 }),
  number: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  categoryId: Type.String({ maxLength: 32, description: '分类编码' }),
  dataSourceName: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  expirationDay: Type.Optional(Type.Union([Type.Integer({ minimum: -1, maximum: 36_500 }), Type.Null()])),
});
export const AdminArticleSchema = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  content: Type.String(),
  number: Type.Union([Type.String(), Type.Null()]),
  categoryId: Type.String(),
  categoryName: Type.String(),
  dataSourceName: Type.Union([Type.String(), Type.Null()]),
  expirationDay: Type.Union([Type.Integer(), Type.Null()]),
  status: AdminArticleStatusSchema,
  publishTime: Type.String(),
  viewCount: Type.Integer(),
  updatedAt: Type.String(),
});
export const AdminArticleRowSchema = Type.Omit(AdminArticleSchema, ['content']);
export const AdminArticleUuidParamsSchema = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
/** `yyyy-MM-dd HH:mm:ss` (publish times are China-time texts of this form). */
const ChinaDateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });
/** `GET /web-api/cms/v1/article/page/list` query. */
export const AdminArticleQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  searchKey: Type.Optional(Type.String({ maxLength: 200 })),
  categoryId: Type.Optional(Type.String({ maxLength: 32, description: '分类编码（含子分类）' })),
  status: Type.Optional(Type.Union([AdminArticleStatusSchema, Type.Literal('')])),
  filterStartTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间起（含）' })),
  filterEndTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间止（含）' })),
});

// ----- 栏目管理

export const AdminCategoryInputSchema = Type.Object({
  code: Type.String({ maxLength: 32 }),
  name: Type.String({ maxLength: 64 }),
  channel: Type.Union([Type.Literal('news'), Type.Literal('knowledge')]),
  parentId: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
export const AdminCategoryUpdateSchema = Type.Object({
  name: Type.String({ maxLength: 64 }),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
export const AdminCategorySchema = Type.Object({
  id: Type.Integer(),
  categoryId: Type.String(),
  categoryName: Type.String(),
  channel: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  sort: Type.Integer(),
  articleCount: Type.Integer(),
});
/** `POST /web-api/cms/v1/category`'s answer: the new category's code. */
export const AdminCategoryCreatedSchema = Type.Object({ categoryId: Type.String() });
export const AdminCategoryCodeParamsSchema = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) });

// ----- 首页管理

export const HomeBlockKindSchema = Type.Union([Type.Literal('banner'), Type.Literal('link'), Type.Literal('award'), Type.Literal('kpi')], {
  description: 'banner 横幅，link 快捷入口，award 荣誉资质，kpi 指标',
});
export const HomeBlockInputSchema = Type.Object({
  kind: HomeBlockKindSchema,
  title: Type.String({ maxLength: 100, description: '标题；指标为指标名称（name）' }),
  subtitle: Type.Optional(Type.String({ maxLength: 300 })),
  icon: Type.Optional(Type.String({ maxLength: 500, description: '图片：上传接口返回的 path 或 http(s) 地址；指标为 image' })),
  linkUrl: Type.Optional(Type.String({ maxLength: 500, description: 'http(s) 地址或以 / 开头的站内路径' })),
  openUrlFlag: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 新窗口打开' })),
  kpi: Type.Optional(Type.String({ maxLength: 32 })),
  uom: Type.Optional(Type.String({ maxLength: 16 })),
  enabled: Type.Boolean(),
});
export const AdminHomeBlockSchema = Type.Object({
  id: Type.Integer(),
  kind: HomeBlockKindSchema,
  title: Type.String(),
  subtitle: Type.String(),
  icon: Type.String(),
  linkUrl: Type.String(),
  openUrlFlag: Type.Integer(),
  kpi: Type.String(),
  uom: Type.String(),
  sort: Type.Integer(),
  enabled: Type.Boolean(),
});
export const HomeBlockIdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** `GET …/home-block/list` query. */
export const HomeBlockQuerySchema = Type.Object({ kind: Type.Optional(HomeBlockKindSchema) });
/** Body of 调整顺序: a kind's blocks in their new order (all of them). */
export const HomeBlockOrderBodySchema = Type.Object({
  kind: HomeBlockKindSchema,
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 100 }),
});

// ----- 应用管理

export const AdminApplicationStatusSchema = Type.Union([Type.Literal('published'), Type.Literal('offline')], {
  description: 'published 上架（应用中心可见），offline 下架',
});
export const AdminApplicationInputSchema = Type.Object({
  name: Type.String({ maxLength: 64 }),
  applicationDescription: Type.String({ maxLength: 500 }),
  imagePath: Type.String({ maxLength: 500, description: '上传接口返回的 path（/uploads/…）或 http(s) 地址' }),
  iconPath: Type.Optional(Type.String({ maxLength: 500 })),
  category: Type.String({ maxLength: 32 }),
  provider: Type.String({ maxLength: 100 }),
  content: Type.Optional(Type.String({ maxLength: 100_000, description: '应用详情 HTML（写入时清洗）' })),
  recommended: Type.Boolean({ description: '首页推荐（轮播取前 6 个）' }),
  status: AdminApplicationStatusSchema,
  // Single sign-on; lengths only bound the request, the shared rules (SsoRules) answer with their own messages.
  serviceUrl: Type.Optional(
    Type.String({
      maxLength: APP_URL_MAX * 4,
      description: '服务地址（CAS service 前缀）；空：不接入统一身份认证，企业不能申请使用。省略：修改时保持不变',
    }),
  ),
  logoutUrl: Type.Optional(Type.String({ maxLength: APP_URL_MAX * 4, description: '注销地址（单点登出）；空：发往获得票据的服务地址' })),
  attributes: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 20, description: '返回属性' })),
});
export const AdminApplicationSchema = Type.Object({
  id: Type.Integer(),
  applicationUuid: Type.String(),
  name: Type.String(),
  applicationDescription: Type.String(),
  imagePath: Type.String(),
  iconPath: Type.String(),
  category: Type.String(),
  provider: Type.String(),
  content: Type.String(),
  recommended: Type.Boolean(),
  status: AdminApplicationStatusSchema,
  sort: Type.Integer(),
  createdAt: Type.String(),
  serviceUrl: Type.String({ description: '服务地址；空：不接入统一身份认证' }),
  logoutUrl: Type.String(),
  attributes: Type.Array(Type.Unsafe<ReleasableAttribute>({ type: 'string', enum: [...RELEASABLE_ATTRIBUTES] }), {
    description: '返回属性',
  }),
});
export const AdminApplicationUuidParamsSchema = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
/** Body of 调整顺序: every application's uuid in the new order. */
export const AdminApplicationOrderBodySchema = Type.Object({
  uuids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 1000 }),
});
