import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Authority } from '@portal/shared';
import { type Static, Type } from 'typebox';
import { chinaTime } from '../../lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { checkedImagePath } from '../../lib/checked-urls.js';
import { type AuditActionCode, auditRequest } from '../audit/audit-log.js';
import { MAX_SEARCH_KEY, containsKey, replaceArticleGrams } from './article-search.js';
import { categoryByCode } from './category-admin-routes.js';
import type { ContentAdminOptions } from './content-admin-routes.js';
import { sanitizeArticleHtml } from './sanitize-article.js';

const Status = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('offline')]);

const ArticleInput = Type.Object({
  title: Type.String({ maxLength: 200 }),
  summary: Type.Optional(Type.String({ maxLength: 500 })),
  thumbnail: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  content: Type.String({ maxLength: 200_000 }),
  number: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  categoryId: Type.String({ maxLength: 32, description: '分类编码' }),
  dataSourceName: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  expirationDay: Type.Optional(Type.Union([Type.Integer({ minimum: -1, maximum: 36_500 }), Type.Null()])),
});

const AdminArticle = Type.Object({
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
  status: Status,
  publishTime: Type.String(),
  viewCount: Type.Integer(),
  updatedAt: Type.String(),
});
const AdminArticleRow = Type.Omit(AdminArticle, ['content']);

const UuidParams = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });

/** A thumbnail is a path under the file service (`/uploads/…`, `/demo/…`) or an http(s) URL. */
const checkedThumbnail = (value: string | null | undefined) => checkedImagePath(value, '缩略图地址格式不正确');

/** `yyyy-MM-dd HH:mm:ss` (publish times are China-time texts of this form). */
const ChinaDateTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });

/**
 * Articles for platform operators (authority content:article): draft → published → offline. HTML is
 * sanitised on write; every write lands in the audit log and drops the published pages' cache.
 */
const articleAdminRoutes: FastifyPluginAsyncTypebox<ContentAdminOptions> = async (app, { onChange }) => {
  const { db, dialect } = app.database;
  const canArticles = { onRequest: app.requireAuthority(Authority.ContentArticle) };
  const audit = (request: FastifyRequest, action: AuditActionCode, target: string) => auditRequest(db, request, action, target);

  async function articleRow(uuid: string) {
    const row = await db
      .selectFrom('cms_article')
      .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
      .selectAll('cms_article')
      .select(['cms_category.code', 'cms_category.name'])
      .where('cms_article.uuid', '=', uuid)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('文章不存在');
    return row;
  }

  const toAdmin = (r: Awaited<ReturnType<typeof articleRow>>) => ({
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    summary: r.summary,
    thumbnail: r.thumbnail,
    content: r.content,
    number: r.number,
    categoryId: r.code,
    categoryName: r.name,
    dataSourceName: r.data_source_name,
    expirationDay: r.expiration_day,
    status: r.status,
    publishTime: r.publish_time ?? '',
    viewCount: r.view_count,
    updatedAt: r.updated_at,
  });

  /** Checks and cleans an article body; answers the columns to write. */
  async function articleColumns(body: Static<typeof ArticleInput>) {
    const title = body.title.trim();
    if (!title) throw new BadRequestError('请输入文章标题');
    const content = sanitizeArticleHtml(body.content);
    if (!content.replace(/<[^>]*>/g, '').trim() && !/<img\s/i.test(content)) throw new BadRequestError('请输入文章正文');
    const category = await categoryByCode(db, body.categoryId.trim());
    return {
      title,
      summary: (body.summary ?? '').trim(),
      thumbnail: checkedThumbnail(body.thumbnail),
      content,
      number: body.number?.trim() || null,
      category_id: category.id,
      data_source_name: body.dataSourceName?.trim() || null,
      expiration_day: body.expirationDay ?? null,
    };
  }

  app.get(
    '/web-api/cms/v1/article/page/list',
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章管理列表（含草稿与已下线）',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          searchKey: Type.Optional(Type.String({ maxLength: 200 })),
          categoryId: Type.Optional(Type.String({ maxLength: 32, description: '分类编码（含子分类）' })),
          status: Type.Optional(Type.Union([Status, Type.Literal('')])),
          filterStartTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间起（含）' })),
          filterEndTime: Type.Optional(Type.Union([ChinaDateTime, Type.Literal('')], { description: '发布时间止（含）' })),
        }),
        response: { 200: Envelope(Page(AdminArticleRow)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      let query = db
        .selectFrom('cms_article')
        .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
        .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id');
      const contains = q.searchKey ? containsKey(dialect, q.searchKey.slice(0, MAX_SEARCH_KEY)) : undefined;
      if (contains) query = query.where(contains);
      if (q.status) query = query.where('cms_article.status', '=', q.status);
      const categoryId = q.categoryId;
      if (categoryId) query = query.where((eb) => eb.or([eb('cms_category.code', '=', categoryId), eb('parent.code', '=', categoryId)]));
      if (q.filterStartTime && q.filterEndTime && q.filterStartTime > q.filterEndTime)
        throw new BadRequestError('开始时间不能晚于结束时间');
      // Drafts have no publish time: a time range shows published and offline articles only.
      if (q.filterStartTime) query = query.where('cms_article.publish_time', '>=', q.filterStartTime);
      if (q.filterEndTime) query = query.where('cms_article.publish_time', '<=', q.filterEndTime);
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query
          .selectAll('cms_article')
          .select(['cms_category.code', 'cms_category.name'])
          .orderBy('cms_article.updated_at', 'desc')
          .orderBy('cms_article.id', 'desc')
          .offset(q.offset)
          .limit(q.limit)
          .execute(),
      ]);
      return ok({
        total: Number(count.n),
        rows: rows.map((r) => {
          const { content: _content, ...row } = toAdmin(r);
          return row;
        }),
      });
    },
  );

  app.get(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章（任意状态）',
        params: UuidParams,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await articleRow(request.params.uuid))),
  );

  app.post(
    '/web-api/cms/v1/article',
    {
      ...canArticles,
      config: { auditAction: 'content.article.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建文章（草稿）',
        body: ArticleInput,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => {
      const columns = await articleColumns(request.body);
      const now = new Date().toISOString();
      const uuid = randomUUID();
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('cms_article')
          .values({ ...columns, uuid, status: 'draft', publish_time: null, view_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceArticleGrams(trx, row.id, columns.title, columns.summary);
      });
      await audit(request, 'content.article.create', columns.title);
      onChange();
      return ok(toAdmin(await articleRow(uuid)), '文章已保存为草稿');
    },
  );

  app.put(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      config: { auditAction: 'content.article.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改文章',
        params: UuidParams,
        body: ArticleInput,
        response: { 200: Envelope(AdminArticle), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await articleRow(request.params.uuid);
      const columns = await articleColumns(request.body);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('cms_article')
          .set({ ...columns, updated_at: new Date().toISOString() })
          .where('id', '=', existing.id)
          .execute();
        await replaceArticleGrams(trx, existing.id, columns.title, columns.summary);
      });
      await audit(request, 'content.article.update', columns.title);
      onChange();
      return ok(toAdmin(await articleRow(existing.uuid)), '文章已保存');
    },
  );

  const transition = (to: 'published' | 'offline', summary: string, message: string) =>
    app.post(
      `/web-api/cms/v1/article/:uuid/${to === 'published' ? 'publish' : 'unpublish'}`,
      {
        ...canArticles,
        config: { auditAction: to === 'published' ? 'content.article.publish' : 'content.article.unpublish' },
        schema: { tags: ['content-admin'], summary, params: UuidParams, response: { 200: Envelope(AdminArticle), ...errorResponses } },
      },
      async (request) => {
        const existing = await articleRow(request.params.uuid);
        if (existing.status === to) throw new ConflictError(to === 'published' ? '文章已发布' : '文章已下线');
        if (to === 'offline' && existing.status !== 'published') throw new ConflictError('只有已发布的文章可以下线');
        await db
          .updateTable('cms_article')
          .set({
            status: to,
            // The first publication fixes the publish time; republishing keeps it.
            publish_time: to === 'published' ? (existing.publish_time ?? chinaTime(new Date())) : existing.publish_time,
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', existing.id)
          .execute();
        await audit(request, to === 'published' ? 'content.article.publish' : 'content.article.unpublish', existing.title);
        onChange();
        return ok(toAdmin(await articleRow(existing.uuid)), message);
      },
    );
  transition('published', '发布文章', '文章已发布');
  transition('offline', '下线文章', '文章已下线');

  app.delete(
    '/web-api/cms/v1/article/:uuid',
    {
      ...canArticles,
      config: { auditAction: 'content.article.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除文章',
        params: UuidParams,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await articleRow(request.params.uuid);
      await db.deleteFrom('cms_article').where('id', '=', existing.id).execute();
      await audit(request, 'content.article.delete', existing.title);
      onChange();
      return ok([], '文章已删除');
    },
  );
};

export default articleAdminRoutes;
