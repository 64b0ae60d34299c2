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
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError } from '../../platform/lib/errors.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * Articles for platform operators (authority content:article): draft → published → offline. HTML is
 * sanitised on write; every write lands in the audit log and drops this instance's cached content
 * (the rules: article-admin-service.ts).
 */
const articleAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const articles = app.articleRepository;
  const service = app.articleAdminService;
  const canArticles = { onRequest: app.requireAuthority(Authority.ContentArticle) };

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
    async (request) => ok(await service.existing(request.params.uuid)),
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
    async (request) => ok(await service.create(callerOf(request), request.body), '文章已保存为草稿'),
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
    async (request) => ok(await service.update(callerOf(request), request.params.uuid, request.body), '文章已保存'),
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
      async (request) => ok(await service.setStatus(callerOf(request), request.params.uuid, to), message),
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
      await service.delete(callerOf(request), request.params.uuid);
      return ok([], '文章已删除');
    },
  );
};

export default articleAdminRoutes;
