import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminCategoryCodeParamsSchema,
  AdminCategoryInputSchema,
  AdminCategorySchema,
  AdminCategoryUpdateSchema,
  AdminCategoryCreatedSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * Categories for platform operators (authority content:category): two levels, deleted only when empty
 * (the rules: category-admin-service.ts). */
const categoryAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const categories = app.categoryRepository;
  const canCategories = { onRequest: app.requireAuthority(Authority.ContentCategory) };

  app.get(
    `${ApiPrefix.cms}/category/list`,
    {
      ...canCategories,
      schema: {
        tags: ['content-admin'],
        summary: '分类列表（含文章数）',
        response: { 200: Envelope(AdminCategorySchema), ...errorResponses },
      },
    },
    async () => ok(await categories.adminList()),
  );

  app.post(
    `${ApiPrefix.cms}/category`,
    {
      ...canCategories,
      config: { auditAction: 'content.category.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建分类',
        body: AdminCategoryInputSchema,
        response: { 200: Envelope(AdminCategoryCreatedSchema), ...errorResponses },
      },
    },
    async (request) => ok({ categoryId: await app.categoryAdminService.create(callerOf(request), request.body) }, '分类已创建'),
  );

  app.put(
    `${ApiPrefix.cms}/category/:code`,
    {
      ...canCategories,
      config: { auditAction: 'content.category.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改分类名称与排序',
        params: AdminCategoryCodeParamsSchema,
        body: AdminCategoryUpdateSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.categoryAdminService.update(callerOf(request), request.params.code, request.body);
      return ok([], '分类已保存');
    },
  );

  app.delete(
    `${ApiPrefix.cms}/category/:code`,
    {
      ...canCategories,
      config: { auditAction: 'content.category.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除分类（须无子分类与文章）',
        params: AdminCategoryCodeParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.categoryAdminService.delete(callerOf(request), request.params.code);
      return ok([], '分类已删除');
    },
  );
};

export default categoryAdminRoutes;
