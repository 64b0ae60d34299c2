import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  ArticleDetailSchema,
  ArticleIdParamsSchema,
  ArticleListItemSchema,
  ArticleQuerySchema,
  CategoryNodeSchema,
  CategoryTreeQuerySchema,
  SSR_FETCH_HEADER,
} from '@portal/shared';
import { BatchedCounter } from '../../platform/lib/batched-counter.js';
import { chinaTimeBound } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { CONTENT_CACHE } from '../../platform/plugins/http-cache.js';
import type { SortOrder } from './article-repository.js';
import { MAX_SEARCH_KEY } from './article-search.js';

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
    `${ApiPrefix.openCms}/category/tree`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '资讯分类树；channel 为 news 或 knowledge 时只返回该栏目的分类，第一个为默认分类',
        querystring: CategoryTreeQuerySchema,
        response: { 200: Envelope(CategoryNodeSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.categoryRepository.tree(request.query.channel)),
  );

  app.get(
    `${ApiPrefix.openCms}/article/published/page/list`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '已发布文章分页列表',
        querystring: ArticleQuerySchema,
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
    `${ApiPrefix.openCms}/article/:id/detail`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['content'],
        summary: '已发布文章详情（按 uuid），计一次浏览',
        params: ArticleIdParamsSchema,
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
