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
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';

/** Categories for platform operators (authority content:category): two levels, deleted only when empty. */
const categoryAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
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
    async (request) => {
      const b = request.body;
      const code = b.code.trim();
      const name = b.name.trim();
      if (!/^[a-z][a-z0-9-]{1,31}$/.test(code)) throw new BadRequestError('分类编码为 2-32 位小写字母、数字或连字符，以字母开头');
      if (!name) throw new BadRequestError('请输入分类名称');
      let parentId: number | null = null;
      if (b.parentId) {
        const parent = await categories.byCode(b.parentId);
        if (!parent) throw new BadRequestError('分类不存在');
        if (parent.parent_id !== null) throw new BadRequestError('分类最多两级');
        if (parent.channel !== b.channel) throw new BadRequestError('子分类须与上级分类属于同一栏目');
        parentId = parent.id;
      }
      if (await categories.byCode(code)) throw new ConflictError('分类编码已存在');
      try {
        await inTransaction(db, async (trx) => {
          await categories.create({ code, name, channel: b.channel, parentId, sort: b.sort ?? 0 }, trx);
          await auditRequest(trx, request, 'content.category.create', `${code} ${name}`);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('分类编码已存在');
        throw err;
      }
      app.caches.clear('content');
      return ok({ categoryId: code }, '分类已创建');
    },
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
      const name = request.body.name.trim();
      if (!name) throw new BadRequestError('请输入分类名称');
      const category = await categories.byCode(request.params.code);
      if (!category) throw new NotFoundError('分类不存在');
      await inTransaction(db, async (trx) => {
        await categories.update(category.id, { name, sort: request.body.sort }, trx);
        await auditRequest(trx, request, 'content.category.update', `${request.params.code} ${name}`);
      });
      app.caches.clear('content');
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
      const category = await categories.byCode(request.params.code);
      if (!category) throw new NotFoundError('分类不存在');
      if (await categories.hasChildren(category.id)) throw new ConflictError('该分类下还有子分类，不能删除');
      if (await categories.hasArticles(category.id)) throw new ConflictError('该分类下还有文章，不能删除');
      await inTransaction(db, async (trx) => {
        await categories.delete(category.id, trx);
        await auditRequest(trx, request, 'content.category.delete', `${request.params.code} ${category.name}`);
      });
      app.caches.clear('content');
      return ok([], '分类已删除');
    },
  );
};

export default categoryAdminRoutes;
