import type { AdminCategoryInputSchema, AdminCategoryUpdateSchema } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    categoryAdminService: CategoryAdminService;
  }
}

/**
 * 栏目管理's rules: two levels, a sub-category in its parent's channel, a category is deleted only
 * without sub-categories and articles. Each write commits with its audit row and drops this
 * instance's cached content. `caller` is who asks (the audit row).
 */
export class CategoryAdminService {
  constructor(private readonly app: FastifyInstance) {}

  /** A new category; answers its code. */
  async create(caller: Caller, b: Static<typeof AdminCategoryInputSchema>): Promise<string> {
    const categories = this.app.categoryRepository;
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
      await inTransaction(this.app.database.db, async (trx) => {
        await categories.create({ code, name, channel: b.channel, parentId, sort: b.sort ?? 0 }, trx);
        await auditBy(trx, caller, 'content.category.create', `${code} ${name}`);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('分类编码已存在');
      throw err;
    }
    this.app.caches.clear('content');
    return code;
  }

  async update(caller: Caller, code: string, body: Static<typeof AdminCategoryUpdateSchema>): Promise<void> {
    const categories = this.app.categoryRepository;
    const name = body.name.trim();
    if (!name) throw new BadRequestError('请输入分类名称');
    const category = await categories.byCode(code);
    if (!category) throw new NotFoundError('分类不存在');
    await inTransaction(this.app.database.db, async (trx) => {
      await categories.update(category.id, { name, sort: body.sort }, trx);
      await auditBy(trx, caller, 'content.category.update', `${code} ${name}`);
    });
    this.app.caches.clear('content');
  }

  async delete(caller: Caller, code: string): Promise<void> {
    const categories = this.app.categoryRepository;
    const category = await categories.byCode(code);
    if (!category) throw new NotFoundError('分类不存在');
    if (await categories.hasChildren(category.id)) throw new ConflictError('该分类下还有子分类，不能删除');
    if (await categories.hasArticles(category.id)) throw new ConflictError('该分类下还有文章，不能删除');
    await inTransaction(this.app.database.db, async (trx) => {
      await categories.delete(category.id, trx);
      await auditBy(trx, caller, 'content.category.delete', `${code} ${category.name}`);
    });
    this.app.caches.clear('content');
  }
}

export default fp(
  async (app) => {
    app.decorate('categoryAdminService', new CategoryAdminService(app));
  },
  { name: 'category-admin-service', dependencies: ['category-repository'] },
);
