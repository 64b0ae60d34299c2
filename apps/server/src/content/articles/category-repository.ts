import type { CategoryNode } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    categoryRepository: CategoryRepository;
  }
}

export type CategoryRepository = ReturnType<typeof createCategoryRepository>;

/** Article categories (`cms_category`): two levels, a channel's categories and their sub-categories. */
export function createCategoryRepository(db: Kysely<Database>) {
  return {
    /** The category trees, in display order; `channel` narrows to one list (news or knowledge). */
    async tree(channel?: string): Promise<CategoryNode[]> {
      let query = db.selectFrom('cms_category').select(['id', 'code', 'name', 'channel', 'parent_id']).orderBy('sort').orderBy('id');
      if (channel) query = query.where('channel', '=', channel);
      const rows = await query.execute();
      const nodes = new Map<number, CategoryNode>(
        rows.map((r) => [r.id, { id: r.id, categoryId: r.code, categoryName: r.name, channel: r.channel, children: [] }]),
      );
      const roots: CategoryNode[] = [];
      for (const r of rows) {
        const node = nodes.get(r.id)!;
        const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
        if (parent) parent.children.push(node);
        else roots.push(node);
      }
      return roots;
    },

    byCode(code: string) {
      return db
        .selectFrom('cms_category')
        .select(['id', 'code', 'name', 'channel', 'parent_id'])
        .where('code', '=', code)
        .executeTakeFirst();
    },

    /** The ids of the category with `code` and of its descendants; undefined for an unknown code. */
    async withDescendants(code: string): Promise<number[] | undefined> {
      const rows = await db.selectFrom('cms_category').select(['id', 'code', 'parent_id']).execute();
      const root = rows.find((r) => r.code === code);
      if (!root) return undefined;
      const ids = [root.id];
      for (let i = 0; i < ids.length; i++) for (const r of rows) if (r.parent_id === ids[i]) ids.push(r.id);
      return ids;
    },

    /** Every category with its parent's code and its number of articles (any status), by channel and order. */
    async adminList() {
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
      return rows.map((r) => ({
        id: r.id,
        categoryId: r.code,
        categoryName: r.name,
        channel: r.channel,
        parentId: r.parentCode,
        sort: r.sort,
        articleCount: Number(r.articleCount ?? 0),
      }));
    },

    /** Writes take the caller's transaction as `trx` (with its audit row). */
    async create(values: { code: string; name: string; channel: string; parentId: number | null; sort: number }, trx = db): Promise<void> {
      const { parentId, ...rest } = values;
      await trx
        .insertInto('cms_category')
        .values({ ...rest, parent_id: parentId, created_at: new Date().toISOString() })
        .execute();
    },

    async update(id: number, values: { name: string; sort?: number | undefined }, trx = db): Promise<void> {
      await trx
        .updateTable('cms_category')
        .set({ name: values.name, ...(values.sort === undefined ? {} : { sort: values.sort }) })
        .where('id', '=', id)
        .execute();
    },

    async hasChildren(id: number): Promise<boolean> {
      return (await db.selectFrom('cms_category').select('id').where('parent_id', '=', id).executeTakeFirst()) !== undefined;
    },

    async hasArticles(id: number): Promise<boolean> {
      return (await db.selectFrom('cms_article').select('id').where('category_id', '=', id).executeTakeFirst()) !== undefined;
    },

    async delete(id: number, trx = db): Promise<void> {
      await trx.deleteFrom('cms_category').where('id', '=', id).execute();
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('categoryRepository', createCategoryRepository(app.database.db));
  },
  { name: 'category-repository' },
);
