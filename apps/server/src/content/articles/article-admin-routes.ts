import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminArticleInputSchema,
  AdminArticleQuerySchema,
  AdminArticleRowSchema,
  AdminArticleSchema,
  AdminArticleUuidParamsSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
} from '@portal/shared';
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { ArticleColumns } from './article-repository.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';

/** A thumbnail is a path under the file service (`/uploads/…`, `/demo/…`) or an http(s) URL. */
const checkedThumbnail = (value: string | null | undefined) => checkedImagePath(value, '缩略图地址格式不正确');

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
  async function articleColumns(body: Static<typeof AdminArticleInputSchema>): Promise<ArticleColumns> {
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
    `${ApiPrefix.cms}/article/page/list`,
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章管理列表（含草稿与已下线）',
        querystring: AdminArticleQuerySchema,
        response: { 200: Envelope(Page(AdminArticleRowSchema)), ...errorResponses },
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
    `${ApiPrefix.cms}/article/:uuid`,
    {
      ...canArticles,
      schema: {
        tags: ['content-admin'],
        summary: '文章（任意状态）',
        params: AdminArticleUuidParamsSchema,
        response: { 200: Envelope(AdminArticleSchema), ...errorResponses },
      },
    },
    async (request) => ok(await existing(request.params.uuid)),
  );

  app.post(
    `${ApiPrefix.cms}/article`,
    {
      ...canArticles,
      config: { auditAction: 'content.article.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建文章（草稿）',
        body: AdminArticleInputSchema,
        response: { 200: Envelope(AdminArticleSchema), ...errorResponses },
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
    `${ApiPrefix.cms}/article/:uuid`,
    {
      ...canArticles,
      config: { auditAction: 'content.article.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改文章',
        params: AdminArticleUuidParamsSchema,
        body: AdminArticleInputSchema,
        response: { 200: Envelope(AdminArticleSchema), ...errorResponses },
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
      `${ApiPrefix.cms}/article/:uuid/${to === 'published' ? 'publish' : 'unpublish'}`,
      {
        ...canArticles,
        config: { auditAction: to === 'published' ? 'content.article.publish' : 'content.article.unpublish' },
        schema: {
          tags: ['content-admin'],
          summary,
          params: AdminArticleUuidParamsSchema,
          response: { 200: Envelope(AdminArticleSchema), ...errorResponses },
        },
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
    `${ApiPrefix.cms}/article/:uuid`,
    {
      ...canArticles,
      config: { auditAction: 'content.article.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除文章',
        params: AdminArticleUuidParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
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
