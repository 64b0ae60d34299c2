import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';

const CategoryInput = Type.Object({
  code: Type.String({ maxLength: 32 }),
  name: Type.String({ maxLength: 64 }),
  channel: Type.Union([Type.Literal('news'), Type.Literal('knowledge')]),
  parentId: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
const CategoryUpdate = Type.Object({
  name: Type.String({ maxLength: 64 }),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
const AdminCategory = Type.Object({
  id: Type.Integer(),
  categoryId: Type.String(),
  categoryName: Type.String(),
  channel: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  sort: Type.Integer(),
  articleCount: Type.Integer(),
});

const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) });

/** Categories for platform operators (authority content:category): two levels, deleted only when empty. */
const categoryAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const categories = app.categoryRepository;
  const canCategories = { onRequest: app.requireAuthority(Authority.ContentCategory) };

  app.get(
    '/web-api/cms/v1/category/list',
    {
      ...canCategories,
      schema: { tags: ['content-admin'], summary: '分类列表（含文章数）', response: { 200: Envelope(AdminCategory), ...errorResponses } },
    },
    async () => ok(await categories.adminList()),
  );

  app.post(
    '/web-api/cms/v1/category',
    {
      ...canCategories,
      config: { auditAction: 'content.category.create' },
      schema: {
        tags: ['content-admin'],
        summary: '新建分类',
        body: CategoryInput,
        response: { 200: Envelope(Type.Object({ categoryId: Type.String() })), ...errorResponses },
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
    '/web-api/cms/v1/category/:code',
    {
      ...canCategories,
      config: { auditAction: 'content.category.update' },
      schema: {
        tags: ['content-admin'],
        summary: '修改分类名称与排序',
        params: CodeParams,
        body: CategoryUpdate,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
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
    '/web-api/cms/v1/category/:code',
    {
      ...canCategories,
      config: { auditAction: 'content.category.delete' },
      schema: {
        tags: ['content-admin'],
        summary: '删除分类（须无子分类与文章）',
        params: CodeParams,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
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
