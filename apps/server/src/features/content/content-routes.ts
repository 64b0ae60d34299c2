import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Envelope, Page, errorResponses, ok, sendSerialized, serializedAnswer, serializedText } from '../../lib/envelope.js';
import { BadRequestError } from '../../lib/errors.js';
import { TtlLruCache } from '../../lib/lru-cache.js';
import { chinaTimeBound } from '../../lib/china-time.js';
import { MAX_SEARCH_KEY } from './article-search.js';
import contentAdminRoutes from './content-admin-routes.js';
import { ViewCounter } from './view-counter.js';
import { DEFAULT_SORT_ORDER, type SortOrder, categoryTree, publishedDetail, publishedPage } from './article-repository.js';

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

const ArticleListItemSchema = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  publishTime: Type.String(),
  categoryId: Type.String(),
  categoryName: Type.String(),
});

const ArticleDetailSchema = Type.Object({
  ...ArticleListItemSchema.properties,
  number: Type.Union([Type.String(), Type.Null()]),
  dataSourceName: Type.Union([Type.String(), Type.Null()]),
  expirationDay: Type.Union([Type.Integer(), Type.Null()]),
  content: Type.String(),
  viewCount: Type.Integer(),
  rootCategoryId: Type.String({ description: '文章所属分类树的根：policy、news、knowledge…' }),
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

/** Stands in for the view count while a detail is serialized; no real count is negative. */
const VIEW_COUNT_MARK = -7_000_000_001;

interface SerializedDetail {
  id: number;
  viewCount: number;
  countedAtLoad: number;
  /** The serialized answer (UTF-8) up to the view count's value, and after it. */
  head: Buffer;
  tail: Buffer;
}

/**
 * Splits a serialized detail at its view count. Quotes inside strings are escaped in JSON, so the
 * unescaped `"viewCount":` of the mark can only be the field itself.
 */
function serializeAroundViewCount(json: string, detail: { id: number; viewCount: number }, countedAtLoad: number): SerializedDetail {
  const mark = `"viewCount":${VIEW_COUNT_MARK}`;
  const at = json.indexOf(mark);
  if (at < 0 || json.indexOf(mark, at + 1) >= 0) throw new Error('article detail: the view count mark must occur once');
  const valueAt = at + '"viewCount":'.length;
  return {
    id: detail.id,
    viewCount: detail.viewCount,
    countedAtLoad,
    head: Buffer.from(json.slice(0, valueAt)),
    tail: Buffer.from(json.slice(valueAt + String(VIEW_COUNT_MARK).length)),
  };
}

/** Published content for the public site (spec section 7). */
const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, dialect } = app.database;
  const views = new ViewCounter(db, (err) => app.log.error({ err }, 'could not write article views'));
  app.addHook('onClose', () => views.close());
  // Every visitor gets the same pages: micro-cached 5 s per instance (docs/architecture.md).
  // What is kept is the serialized answer: a hit is sent as it is, without serializing again.
  const pages = new TtlLruCache<Buffer>(1000, 5_000);
  // Details likewise, serialized around the view count, which is brought up to date on every answer.
  const details = new TtlLruCache<SerializedDetail>(1000, 5_000);
  // Operators' writes drop this instance's caches at once (other instances within the 5 s).
  // The category trees, asked by every list page visit.
  const trees = new TtlLruCache<Buffer>(4, 5_000);
  await app.register(contentAdminRoutes, {
    onChange: () => {
      pages.clear();
      details.clear();
      trees.clear();
    },
  });

  app.get(
    '/open-api/cms/v1/category/tree',
    {
      schema: {
        tags: ['content'],
        summary: '资讯分类树；channel 为 news 或 knowledge 时只返回该栏目的分类，第一个为默认分类',
        querystring: Type.Object({ channel: Type.Optional(Type.Union([Type.Literal('news'), Type.Literal('knowledge')])) }),
        response: { 200: Envelope(CategoryNodeSchema), ...errorResponses },
      },
    },
    async (request, reply) =>
      sendSerialized(
        reply,
        await trees.get(request.query.channel ?? '', async () =>
          serializedAnswer(reply, ok(await categoryTree(db, request.query.channel))),
        ),
      ),
  );

  app.get(
    '/open-api/cms/v1/article/published/page/list',
    {
      schema: {
        tags: ['content'],
        summary: '已发布文章分页列表',
        querystring: PublishedQuerySchema,
        response: { 200: Envelope(Page(ArticleListItemSchema)), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const start = checkedTime(q.filterStartTime, 'start', '开始时间');
      const end = checkedTime(q.filterEndTime, 'end', '结束时间');
      if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
      const query = {
        offset: q.offset,
        limit: q.limit,
        searchKey: q.searchKey?.trim().slice(0, MAX_SEARCH_KEY) || undefined,
        filterCategoryId: q.filterCategoryId || undefined,
        filterStartTime: start,
        filterEndTime: end,
        sortOrder: q.sortOrder as SortOrder,
      };
      const body = await pages.get(JSON.stringify(query), async () => serializedAnswer(reply, ok(await publishedPage(db, dialect, query))));
      return sendSerialized(reply, body);
    },
  );

  app.get(
    '/open-api/cms/v1/article/:id/detail',
    {
      schema: {
        tags: ['content'],
        summary: '已发布文章详情（按 uuid），计一次浏览',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Envelope(ArticleDetailSchema), ...errorResponses },
      },
    },
    (request, reply) => {
      // A cached detail is answered at once; only a miss waits for the database.
      const hit = details.peek(request.params.id);
      if (hit) {
        sendDetail(reply, hit);
        return;
      }
      return details
        .get(request.params.id, async () => {
          const loaded = await publishedDetail(db, request.params.id, views);
          return serializeAroundViewCount(
            serializedText(reply, ok({ ...loaded, viewCount: VIEW_COUNT_MARK })),
            loaded,
            views.counted(loaded.id),
          );
        })
        .then((cached) => {
          sendDetail(reply, cached);
        });
    },
  );

  /** Counts the view and sends the detail with its count brought up to date. */
  function sendDetail(reply: FastifyReply, cached: SerializedDetail): void {
    views.add(cached.id);
    // The cached count plus every view this instance counted since it was loaded (this one included).
    const viewCount = cached.viewCount + views.counted(cached.id) - cached.countedAtLoad;
    // One buffer, written in place (the count is ASCII digits).
    const count = String(viewCount);
    const { head, tail } = cached;
    const body = Buffer.allocUnsafe(head.length + count.length + tail.length);
    head.copy(body, 0);
    body.write(count, head.length, 'latin1');
    tail.copy(body, head.length + count.length);
    sendSerialized(reply, body);
  }
};

export default contentRoutes;
