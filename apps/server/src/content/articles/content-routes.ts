import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SSR_FETCH_HEADER } from '@portal/shared';
import { Type } from 'typebox';
import { BatchedCounter } from '../../platform/lib/batched-counter.js';
import { chinaTimeBound } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { CONTENT_CACHE } from '../../platform/plugins/http-cache.js';
import { DEFAULT_SORT_ORDER, type SortOrder } from './article-repository.js';
import { MAX_SEARCH_KEY } from './article-search.js';

const CategoryFields = {
  id: Type.Integer(),
  categoryId: Type.String(),
  categoryName: Type.String(),
  channel: Type.String(),
};
/** Categories are two levels deep (a channel's categories and their sub-categories). */
const CategoryNodeSchema = Type.Object({
  ...CategoryFields,
  children: Type.Array(Type.Object({ ...CategoryFields, children: Type.Array(Type.Object({})) })),
});

const ArticleFields = {
  id: Type.Integer(),
  uuid: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  publishTime: Type.String(),
};
const ArticleListItemSchema = Type.Object({ ...ArticleFields, categoryId: Type.String(), categoryName: Type.String() });

const ArticleDetailSchema = Type.Object({
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

const DateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$' });

const PublishedQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0, description: '跳过的条数：(page-1)*limit' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: '每页条数，1–100' }),
  searchKey: Type.Optional(Type.String({ maxLength: 200, description: '标题或摘要包含的文字' })),
  filterCategoryId: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9_-]*$', description: '分类编码（含子分类）' })),
  filterStartTime: Type.Optional(Type.Union([DateTime, Type.Literal('')], { description: '发布时间起 yyyy-MM-dd HH:mm:ss' })),
  filterEndTime: Type.Optional(Type.Union([DateTime, Type.Literal('')], { description: '发布时间止 yyyy-MM-dd HH:mm:ss' })),
  sortOrder: Type.Integer({
    minimum: 1,
    maximum: 6,
    default: DEFAULT_SORT_ORDER,
    description: '1 最早发布，2 最多浏览，3 最少浏览，4 标题，5 最近更新，6 最新发布（默认）',
  }),
});

/** A filter bound that names a real moment (a bare date takes the start or end of its day), or a clear error. */
function checkedTime(value: string | undefined, edge: 'start' | 'end', label: string): string | undefined {
  if (!value) return undefined;
  const full = chinaTimeBound(value, edge);
  if (!full) throw new BadRequestError(`${label}不是有效的日期时间`);
  return full;
}

/** Published content for the public site (spec section 7), cached by shared caches for a few seconds. */
const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const articles = app.articleRepository;
  const views = new BatchedCounter(
    (batch) => articles.addViews(batch),
    (err) => app.log.error({ err }, 'could not write article views'),
  );
  app.addHook('onClose', () => views.close());

  app.get(
    '/open-api/cms/v1/category/tree',
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '资讯分类树；channel 为 news 或 knowledge 时只返回该栏目的分类，第一个为默认分类',
        querystring: Type.Object({ channel: Type.Optional(Type.Union([Type.Literal('news'), Type.Literal('knowledge')])) }),
        response: { 200: Envelope(CategoryNodeSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.categoryRepository.tree(request.query.channel)),
  );

  app.get(
    '/open-api/cms/v1/article/published/page/list',
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '已发布文章分页列表',
        querystring: PublishedQuerySchema,
        response: { 200: Envelope(Page(ArticleListItemSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const start = checkedTime(q.filterStartTime, 'start', '开始时间');
      const end = checkedTime(q.filterEndTime, 'end', '结束时间');
      if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
      const categoryIds = q.filterCategoryId ? await app.categoryRepository.withDescendants(q.filterCategoryId) : undefined;
      if (q.filterCategoryId && !categoryIds) throw new NotFoundError('资讯分类不存在');
      const page = await articles.publishedPage({
        offset: q.offset,
        limit: q.limit,
        searchKey: q.searchKey?.trim().slice(0, MAX_SEARCH_KEY) || undefined,
        categoryIds,
        filterStartTime: start,
        filterEndTime: end,
        sortOrder: q.sortOrder as SortOrder,
      });
      return ok(page);
    },
  );

  app.get(
    '/open-api/cms/v1/article/:id/detail',
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '已发布文章详情（按 uuid），计一次浏览',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Envelope(ArticleDetailSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const article = await articles.publishedDetail(request.params.id);
      if (!article) throw new NotFoundError('文章不存在或已下线');
      // The view count rises with every read; a weak ETag over the rest lets a browser's copy be
      // revalidated (304) until the article itself changes (RFC 9110 section 8.8.1).
      const version = createHash('sha1')
        .update(JSON.stringify({ ...article, viewCount: 0 }))
        .digest('base64url');
      reply.header('etag', `W/"${version}"`);
      // The database's count plus this instance's views not yet written, this one included. The server
      // renderer's read is not a view: the visitor's browser reads the article again and counts it.
      if (request.headers[SSR_FETCH_HEADER] !== undefined) return ok(article);
      return ok({ ...article, viewCount: article.viewCount + views.add(article.id) });
    },
  );
};

export default contentRoutes;
