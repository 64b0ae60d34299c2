import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/schema.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { auditRequest } from '../audit/audit-log.js';
import type { ContentAdminOptions } from './content-admin-routes.js';

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

/** The category with `code`, or a clear error (also used to check an article's category). */
export async function categoryByCode(db: Kysely<Database>, code: string) {
  const row = await db
    .selectFrom('cms_category')
    .select(['id', 'code', 'channel', 'parent_id'])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!row) throw new BadRequestError('分类不存在');
  return row;
}

/** Categories for platform operators (authority content:category): two levels, deleted only when empty. */
const categoryAdminRoutes: FastifyPluginAsyncTypebox<ContentAdminOptions> = async (app, { onChange }) => {
  const { db } = app.database;
  const canCategories = { onRequest: app.requireAuthority(Authority.ContentCategory) };

  app.get(
    '/web-api/cms/v1/category/list',
    {
      ...canCategories,
      schema: { tags: ['content-admin'], summary: '分类列表（含文章数）', response: { 200: Envelope(AdminCategory), ...errorResponses } },
    },
    async () => {
      const rows = await db
        .selectFrom('cms_category')
        .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id')
        .select((eb) => [
          'cms_category.id',
          'cms_category.code',
          'cms_category.name',
          'cms_category.channel',
          'cms_category.sort',
          'parent.code as parentCode',
          eb
            .selectFrom('cms_article')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('cms_article.category_id', '=', 'cms_category.id')
            .as('articleCount'),
        ])
        .orderBy('cms_category.channel')
        .orderBy('cms_category.sort')
        .orderBy('cms_category.id')
        .execute();
      return ok(
        rows.map((r) => ({
          id: r.id,
          categoryId: r.code,
          categoryName: r.name,
          channel: r.channel,
          parentId: r.parentCode,
          sort: r.sort,
          articleCount: Number(r.articleCount ?? 0),
        })),
      );
    },
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
        const parent = await categoryByCode(db, b.parentId);
        if (parent.parent_id !== null) throw new BadRequestError('分类最多两级');
        if (parent.channel !== b.channel) throw new BadRequestError('子分类须与上级分类属于同一栏目');
        parentId = parent.id;
      }
      if (await db.selectFrom('cms_category').select('id').where('code', '=', code).executeTakeFirst())
        throw new ConflictError('分类编码已存在');
      try {
        await db
          .insertInto('cms_category')
          .values({ code, name, channel: b.channel, parent_id: parentId, sort: b.sort ?? 0, created_at: new Date().toISOString() })
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('分类编码已存在');
        throw err;
      }
      await auditRequest(db, request, 'content.category.create', `${code} ${name}`);
      onChange();
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
      const category = await db.selectFrom('cms_category').select('id').where('code', '=', request.params.code).executeTakeFirst();
      if (!category) throw new NotFoundError('分类不存在');
      await db
        .updateTable('cms_category')
        .set({ name, ...(request.body.sort === undefined ? {} : { sort: request.body.sort }) })
        .where('id', '=', category.id)
        .execute();
      await auditRequest(db, request, 'content.category.update', `${request.params.code} ${name}`);
      onChange();
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
      const category = await db
        .selectFrom('cms_category')
        .select(['id', 'name'])
        .where('code', '=', request.params.code)
        .executeTakeFirst();
      if (!category) throw new NotFoundError('分类不存在');
      if (await db.selectFrom('cms_category').select('id').where('parent_id', '=', category.id).executeTakeFirst()) {
        throw new ConflictError('该分类下还有子分类，不能删除');
      }
      if (await db.selectFrom('cms_article').select('id').where('category_id', '=', category.id).executeTakeFirst()) {
        throw new ConflictError('该分类下还有文章，不能删除');
      }
      await db.deleteFrom('cms_category').where('id', '=', category.id).execute();
      await auditRequest(db, request, 'content.category.delete', `${request.params.code} ${category.name}`);
      onChange();
      return ok([], '分类已删除');
    },
  );
};

export default categoryAdminRoutes;
