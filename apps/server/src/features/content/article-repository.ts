import type { ArticleDetail, ArticleListItem, CategoryNode } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { NotFoundError } from '../../lib/errors.js';
import { containsKey } from './article-search.js';
import type { ViewCounter } from './view-counter.js';

/** The category trees, in display order; `channel` narrows to one list (news or knowledge). */
export async function categoryTree(db: Kysely<Database>, channel?: string): Promise<CategoryNode[]> {
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
}

/**
 * sortOrder of the published list (spec section 9: default 6). The spec names no values, so:
 * 1 earliest first, 2 most viewed, 3 least viewed, 4 title, 5 recently updated, 6 newest first.
 */
export const SORT_ORDERS = {
  1: { column: 'publish_time', direction: 'asc' },
  2: { column: 'view_count', direction: 'desc' },
  3: { column: 'view_count', direction: 'asc' },
  4: { column: 'title', direction: 'asc' },
  5: { column: 'updated_at', direction: 'desc' },
  6: { column: 'publish_time', direction: 'desc' },
} as const;
export type SortOrder = keyof typeof SORT_ORDERS;
export const DEFAULT_SORT_ORDER: SortOrder = 6;

export interface PublishedQuery {
  offset: number;
  limit: number;
  searchKey?: string | undefined;
  filterCategoryId?: string | undefined;
  filterStartTime?: string | undefined;
  filterEndTime?: string | undefined;
  sortOrder: SortOrder;
}

/** The category and its descendants, or a clear error for an unknown code. */
async function categoryIds(db: Kysely<Database>, code: string): Promise<number[]> {
  const rows = await db.selectFrom('cms_category').select(['id', 'code', 'parent_id']).execute();
  const root = rows.find((r) => r.code === code);
  if (!root) throw new NotFoundError('资讯分类不存在');
  const ids = [root.id];
  for (let i = 0; i < ids.length; i++) for (const r of rows) if (r.parent_id === ids[i]) ids.push(r.id);
  return ids;
}

/** A page of published articles and the total (spec section 7: `data[0] = { rows, total }`). */
export async function publishedPage(
  db: Kysely<Database>,
  dialect: DialectName,
  q: PublishedQuery,
): Promise<{ rows: ArticleListItem[]; total: number }> {
  const categories = q.filterCategoryId ? await categoryIds(db, q.filterCategoryId) : undefined;
  const match = q.searchKey ? containsKey(dialect, q.searchKey) : undefined;
  let base = db
    .selectFrom('cms_article')
    .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
    .where('cms_article.status', '=', 'published');
  if (categories) base = base.where('cms_article.category_id', 'in', categories);
  if (q.filterStartTime) base = base.where('cms_article.publish_time', '>=', q.filterStartTime);
  if (q.filterEndTime) base = base.where('cms_article.publish_time', '<=', q.filterEndTime);
  if (match) base = base.where(match);

  const sort = SORT_ORDERS[q.sortOrder];
  const [rows, count] = await Promise.all([
    base
      .select([
        'cms_article.id',
        'cms_article.uuid',
        'cms_article.title',
        'cms_article.summary',
        'cms_article.thumbnail',
        'cms_article.publish_time',
        'cms_category.code',
        'cms_category.name',
      ])
      .orderBy(`cms_article.${sort.column}`, sort.direction)
      .orderBy('cms_article.id', sort.direction)
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      id: r.id,
      uuid: r.uuid,
      title: r.title,
      summary: r.summary,
      thumbnail: r.thumbnail,
      publishTime: r.publish_time ?? '',
      categoryId: r.code,
      categoryName: r.name,
    })),
  };
}

/**
 * A published article by uuid, with its view count as of now (the database's count plus what this
 * instance has counted and not yet written). Drafts and offline articles are not found.
 */
export async function publishedDetail(db: Kysely<Database>, uuid: string, views: ViewCounter): Promise<ArticleDetail> {
  const row = await db
    .selectFrom('cms_article')
    .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
    .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id')
    .select([
      'parent.code as parentCode',
      'cms_article.id',
      'cms_article.uuid',
      'cms_article.title',
      'cms_article.summary',
      'cms_article.thumbnail',
      'cms_article.publish_time',
      'cms_article.number',
      'cms_article.data_source_name',
      'cms_article.expiration_day',
      'cms_article.content',
      'cms_article.view_count',
      'cms_category.code',
      'cms_category.name',
    ])
    .where('cms_article.uuid', '=', uuid)
    .where('cms_article.status', '=', 'published')
    .executeTakeFirst();
  if (!row) throw new NotFoundError('文章不存在或已下线');
  const unwritten = views.pending(row.id);
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    summary: row.summary,
    thumbnail: row.thumbnail,
    publishTime: row.publish_time ?? '',
    categoryId: row.code,
    categoryName: row.name,
    number: row.number,
    dataSourceName: row.data_source_name,
    expirationDay: row.expiration_day,
    content: row.content,
    viewCount: row.view_count + unwritten,
    // Spec section 3: the detail's category is `policy` or `news`; sub-categories report their tree.
    rootCategoryId: row.parentCode ?? row.code,
  };
}
