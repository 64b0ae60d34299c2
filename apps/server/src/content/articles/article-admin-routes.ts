import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { type Static, Type } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { ArticleColumns } from './article-repository.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';

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
 * sanitised on write; every write lands in the audit log and drops this instance's cached content.
 */
const articleAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const articles = app.articleRepository;
  const canArticles = { onRequest: app.requireAuthority(Authority.ContentArticle) };

  async function existing(uuid: string) {
    const article = await articles.byUuid(uuid);
    if (!article) throw new NotFoundError('文章不存在');
    return article;
  }

  /** Checks and cleans an article body; answers the columns to write. */
  async function articleColumns(body: Static<typeof ArticleInput>): Promise<ArticleColumns> {
    const title = body.title.trim();
    if (!title) throw new BadRequestError('请输入文章标题');
    const content = sanitizeArticleHtml(body.content);
    if (!content.replace(/<[^>]*>/g, '').trim() && !/<img\s/i.test(content)) throw new BadRequestError('请输入文章正文');
    const category = await app.categoryRepository.byCode(body.categoryId.trim());
    if (!category) throw new BadRequestError('分类不存在');
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
      if (q.filterStartTime && q.filterEndTime && q.filterStartTime > q.filterEndTime)
        throw new BadRequestError('开始时间不能晚于结束时间');
      return ok(
        await articles.adminPage({
          offset: q.offset,
          limit: q.limit,
          searchKey: q.searchKey,
          categoryCode: q.categoryId,
          status: q.status || undefined,
          filterStartTime: q.filterStartTime,
          filterEndTime: q.filterEndTime,
        }),
      );
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
    async (request) => ok(await existing(request.params.uuid)),
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
      const uuid = randomUUID();
      await inTransaction(db, async (trx) => {
        await articles.create(columns, uuid, trx);
        await auditRequest(trx, request, 'content.article.create', columns.title);
      });
      app.caches.clear('content');
      return ok(await existing(uuid), '文章已保存为草稿');
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
      const article = await existing(request.params.uuid);
      const columns = await articleColumns(request.body);
      await inTransaction(db, async (trx) => {
        await articles.update(article.id, columns, trx);
        await auditRequest(trx, request, 'content.article.update', columns.title);
      });
      app.caches.clear('content');
      return ok(await existing(article.uuid), '文章已保存');
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
        const article = await existing(request.params.uuid);
        if (article.status === to) throw new ConflictError(to === 'published' ? '文章已发布' : '文章已下线');
        if (to === 'offline' && article.status !== 'published') throw new ConflictError('只有已发布的文章可以下线');
        // The first publication fixes the publish time; republishing keeps it.
        const publishTime = article.publishTime || (to === 'published' ? chinaTime(new Date()) : null);
        await inTransaction(db, async (trx) => {
          await articles.setStatus(article.id, to, publishTime, trx);
          await auditRequest(trx, request, to === 'published' ? 'content.article.publish' : 'content.article.unpublish', article.title);
        });
        app.caches.clear('content');
        return ok(await existing(article.uuid), message);
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
      const article = await existing(request.params.uuid);
      await inTransaction(db, async (trx) => {
        await articles.delete(article.id, trx);
        await auditRequest(trx, request, 'content.article.delete', article.title);
      });
      app.caches.clear('content');
      return ok([], '文章已删除');
    },
  );
};

export default articleAdminRoutes;
