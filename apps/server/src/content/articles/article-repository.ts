import { type ARTICLE_SORT_ORDERS, type ArticleDetail, type ArticleListItem, DEFAULT_ARTICLE_SORT_ORDER } from '@portal/shared';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { ArticleStatus, CmsArticleTable, Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { CacheRegistry } from '../../platform/lib/cache.js';
import { type SearchShape, containsKey, replaceArticleGrams } from './article-search-repository.js';
import { MAX_SEARCH_KEY, normalizeSearchText } from './article-search.js';

declare module 'fastify' {
  interface FastifyInstance {
    articleRepository: ArticleRepository;
  }
}

export type ArticleRepository = ReturnType<typeof createArticleRepository>;

/** sortOrder of the published list: its values (ARTICLE_SORT_ORDERS, default 6) are declared once in the shared package. */
export type SortOrder = (typeof ARTICLE_SORT_ORDERS)[number]['value'];
/** The order each value stands for (spec section 9 names only the default, 6 newest first). */
export const SORT_ORDERS: Record<SortOrder, { column: 'publish_time' | 'view_count' | 'title' | 'updated_at'; direction: 'asc' | 'desc' }> =
  {
    1: { column: 'publish_time', direction: 'asc' },
    2: { column: 'view_count', direction: 'desc' },
    3: { column: 'view_count', direction: 'asc' },
    4: { column: 'title', direction: 'asc' },
    5: { column: 'updated_at', direction: 'desc' },
    6: { column: 'publish_time', direction: 'desc' },
  };
export const DEFAULT_SORT_ORDER: SortOrder = DEFAULT_ARTICLE_SORT_ORDER;

export interface PublishedQuery {
  offset: number;
  limit: number;
  searchKey?: string | undefined;
  /** The filter category and its sub-categories. */
  categoryIds?: number[] | undefined;
  filterStartTime?: string | undefined;
  filterEndTime?: string | undefined;
  sortOrder: SortOrder;
}

export interface AdminQuery {
  offset: number;
  limit: number;
  searchKey?: string | undefined;
  /** A category code: the category and its sub-categories. */
  categoryCode?: string | undefined;
  status?: ArticleStatus | undefined;
  filterStartTime?: string | undefined;
  filterEndTime?: string | undefined;
}

/** What an operator writes: every column but identity, state and counters. */
export type ArticleColumns = Pick<
  CmsArticleTable,
  'title' | 'summary' | 'thumbnail' | 'content' | 'number' | 'category_id' | 'data_source_name' | 'expiration_day'
>;

/** Articles (`cms_article`), their search grams and view counts. */
/** The article columns a list item shows; the detail reads them too. */
const LIST_ITEM_COLUMNS = [
  'cms_article.id',
  'cms_article.uuid',
  'cms_article.title',
  'cms_article.summary',
  'cms_article.thumbnail',
  'cms_article.publish_time',
] as const;

/** The filters of a count: the list's, without paging and order. */
type CountedFilters = Pick<PublishedQuery, 'searchKey' | 'categoryIds' | 'filterStartTime' | 'filterEndTime'>;

/** Totals kept (a few hundred bytes each): distinct searches and filters of the current revision. */
const CACHED_TOTALS = 2000;

/** Published articles the filters select; `key` is normalised, `shape` how its index is read. */
function publishedArticles(db: Kysely<Database>, dialect: DialectName, f: CountedFilters, key: string, shape: SearchShape) {
  const match = key ? containsKey(dialect, key, shape) : undefined;
  // The filters read the article row alone: the total is counted on its indexes, without the joins.
  // Gathering the matches on SQLite: `+status` keeps the planner from walking the status index over
  // every published article and makes it fetch the matches by id instead.
  let query =
    match && shape === 'set' && dialect === 'sqlite'
      ? db.selectFrom('cms_article').where(sql<string>`+${sql.ref('cms_article.status')}`, '=', 'published')
      : db.selectFrom('cms_article').where('cms_article.status', '=', 'published');
  if (f.categoryIds) query = query.where('cms_article.category_id', 'in', f.categoryIds);
  if (f.filterStartTime) query = query.where('cms_article.publish_time', '>=', f.filterStartTime);
  if (f.filterEndTime) query = query.where('cms_article.publish_time', '<=', f.filterEndTime);
  if (match) query = query.where(match);
  return query;
}

/** The ids of a page of published articles in the list's order, read the way `shape` says (its plan is tested). */
export function publishedPageIds(db: Kysely<Database>, dialect: DialectName, q: PublishedQuery, shape: SearchShape) {
  const sort = SORT_ORDERS[q.sortOrder];
  const key = q.searchKey ? normalizeSearchText(q.searchKey) : '';
  const matching = publishedArticles(db, dialect, q, key, shape);
  if (key && shape === 'set' && dialect === 'postgres') {
    // Gathering on PostgreSQL: its estimate for a gram outside its statistics is one size for all, so a
    // rare word could be planned as a walk over every article; a materialised CTE fixes the order of work.
    return db
      .with(
        (wb) => wb('matches').materialized(),
        () => matching.select(['cms_article.id', `cms_article.${sort.column} as sort_key`]),
      )
      .selectFrom('matches')
      .select('matches.id')
      .orderBy('matches.sort_key', sort.direction)
      .orderBy('matches.id', sort.direction)
      .limit(q.limit)
      .offset(q.offset);
  }
  return matching
    .select('cms_article.id')
    .orderBy(`cms_article.${sort.column}`, sort.direction)
    .orderBy('cms_article.id', sort.direction)
    .limit(q.limit)
    .offset(q.offset);
}

export function createArticleRepository(db: Kysely<Database>, dialect: DialectName, caches: CacheRegistry) {
  // Keyed by revision and filters: a write makes every older key unreachable (they age out), on every
  // instance; concurrent first searches of a word share one count.
  const totals = caches.create<{ total: number }>('content', {
    max: CACHED_TOTALS,
    ttl: 0,
    load: async (cacheKey) => {
      const [, key, categoryIds, filterStartTime, filterEndTime] = JSON.parse(cacheKey) as [
        number,
        string,
        number[] | null,
        string,
        string,
      ];
      const filters = {
        categoryIds: categoryIds ?? undefined,
        filterStartTime: filterStartTime || undefined,
        filterEndTime: filterEndTime || undefined,
      };
      const row = await publishedArticles(db, dialect, filters, key, 'set')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return { total: Number(row.n) };
    },
  });
  const currentRevision = async () =>
    Number((await db.selectFrom('cms_article_revision').select('revision').where('id', '=', 1).executeTakeFirst())?.revision ?? 0);

  /**
   * The number of published articles `f` selects (`searchKey` normalised), counted again only after an
   * article write: `revision` is read before the count, so a count started after a write sees it.
   */
  async function publishedTotal(f: CountedFilters, revision: number): Promise<number> {
    const cacheKey = JSON.stringify([revision, f.searchKey ?? '', f.categoryIds ?? null, f.filterStartTime ?? '', f.filterEndTime ?? '']);
    return (await totals.get(cacheKey))!.total;
  }

  const withCategory = () =>
    db
      .selectFrom('cms_article')
      .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
      .leftJoin('cms_category as parent', 'parent.id', 'cms_category.parent_id');

  /** The console's view of an article (any status). */
  const adminRow = (uuid: string) =>
    withCategory()
      .selectAll('cms_article')
      .select(['cms_category.code', 'cms_category.name'])
      .where('cms_article.uuid', '=', uuid)
      .executeTakeFirst()
      .then((r) => r && toAdmin(r));

  return {
    /**
     * A page of published articles and the total (spec section 7: `data[0] = { rows, total }`).
     * The total is counted once per article revision (a database trigger bumps it on every write that
     * can change it) and kept in memory, so deep pages and repeated searches do not count every match
     * again. The page is read the bounded way for the number of matches (docs/architecture.md).
     */
    async publishedPage(q: PublishedQuery): Promise<{ rows: ArticleListItem[]; total: number }> {
      const revision = await currentRevision();
      const key = q.searchKey ? normalizeSearchText(q.searchKey) : '';
      const total = await publishedTotal({ ...q, searchKey: key }, revision);
      if (total === 0 || q.offset >= total) return { rows: [], total };
      const sort = SORT_ORDERS[q.sortOrder];
      let shape: SearchShape = 'set';
      if (key && sort.column === 'publish_time') {
        // Walking the publish-time index meets a match every (published in range / total) articles;
        // gathering the matches costs one step per match. Walk when that reaches the page sooner.
        const inRange = await publishedTotal({ filterStartTime: q.filterStartTime, filterEndTime: q.filterEndTime }, revision);
        if ((q.offset + q.limit) * inRange < total * total) shape = 'probe';
      }
      // The page's ids first (from the indexes alone where they can), then the 10 rows with their category.
      const ids = publishedPageIds(db, dialect, { ...q, searchKey: key }, shape);
      const rows = await db
        .selectFrom('cms_article')
        .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
        .select([...LIST_ITEM_COLUMNS, 'cms_category.code', 'cms_category.name'])
        .where('cms_article.id', 'in', ids)
        .orderBy(`cms_article.${sort.column}`, sort.direction)
        .orderBy('cms_article.id', sort.direction)
        .execute();
      return {
        total,
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
    },

    /** A published article by uuid, with the view count written so far; drafts and offline articles are not found. */
    async publishedDetail(uuid: string): Promise<ArticleDetail | undefined> {
      const row = await withCategory()
        .select([
          'parent.code as parentCode',
          ...LIST_ITEM_COLUMNS,
          'cms_article.number',
          'cms_article.data_source_name',
          'cms_article.expiration_day',
          'cms_article.content',
          'cms_article.view_count',
          'cms_category.code',
          'cms_category.name',
          'cms_category.channel',
        ])
        .where('cms_article.uuid', '=', uuid)
        .where('cms_article.status', '=', 'published')
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        uuid: row.uuid,
        title: row.title,
        summary: row.summary,
        thumbnail: row.thumbnail,
        publishTime: row.publish_time ?? '',
        // Spec section 3: the detail's category is `policy` or `news` (policy shows its number and expiry).
        categoryId: (row.parentCode ?? row.code) === 'policy' ? 'policy' : 'news',
        subCategoryId: row.code,
        subCategoryName: row.name,
        channel: row.channel === 'knowledge' ? 'knowledge' : 'news',
        number: row.number,
        dataSourceName: row.data_source_name,
        expirationDay: row.expiration_day,
        content: row.content,
        viewCount: row.view_count,
      };
    },

    /** The console's list: any status, newest edits first. */
    async adminPage(q: AdminQuery) {
      let query = withCategory();
      const contains = q.searchKey ? containsKey(dialect, q.searchKey.slice(0, MAX_SEARCH_KEY)) : undefined;
      if (contains) query = query.where(contains);
      if (q.status) query = query.where('cms_article.status', '=', q.status);
      const code = q.categoryCode;
      if (code) query = query.where((eb) => eb.or([eb('cms_category.code', '=', code), eb('parent.code', '=', code)]));
      // Drafts have no publish time: a time range shows published and offline articles only.
      if (q.filterStartTime) query = query.where('cms_article.publish_time', '>=', q.filterStartTime);
      if (q.filterEndTime) query = query.where('cms_article.publish_time', '<=', q.filterEndTime);
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query
          .selectAll('cms_article')
          .select(['cms_category.code', 'cms_category.name'])
          .orderBy('cms_article.updated_at', 'desc')
          .orderBy('cms_article.id', 'desc')
          .offset(q.offset)
          .limit(q.limit)
          .execute(),
      ]);
      return {
        total: Number(count.n),
        rows: rows.map((r) => {
          const { content: _content, ...row } = toAdmin(r);
          return row;
        }),
      };
    },

    byUuid: adminRow,

    /** A new draft with its search grams. Writes take the caller's transaction as `trx` (with its audit row). */
    async create(columns: ArticleColumns, uuid: string, trx = db): Promise<void> {
      const now = new Date().toISOString();
      await inTransaction(trx, async (trx) => {
        const row = await trx
          .insertInto('cms_article')
          .values({ ...columns, uuid, status: 'draft', publish_time: null, view_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceArticleGrams(trx, row.id, columns.title, columns.summary);
      });
    },

    async update(id: number, columns: ArticleColumns, trx = db): Promise<void> {
      await inTransaction(trx, async (trx) => {
        await trx
          .updateTable('cms_article')
          .set({ ...columns, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute();
        await replaceArticleGrams(trx, id, columns.title, columns.summary);
      });
    },

    async setStatus(id: number, status: ArticleStatus, publishTime: string | null, trx = db): Promise<void> {
      await trx
        .updateTable('cms_article')
        .set({ status, publish_time: publishTime, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async delete(id: number, trx = db): Promise<void> {
      await trx.deleteFrom('cms_article').where('id', '=', id).execute();
    },

    /** Adds counted views (`view_count = view_count + n`) in one transaction. */
    async addViews(batch: ReadonlyMap<number, number>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [id, n] of batch) {
          await trx
            .updateTable('cms_article')
            .set((eb) => ({ view_count: eb('view_count', '+', n) }))
            .where('id', '=', id)
            .execute();
        }
      });
    },
  };
}

interface AdminSource {
  id: number;
  uuid: string;
  title: string;
  summary: string;
  thumbnail: string | null;
  content: string;
  number: string | null;
  code: string;
  name: string;
  data_source_name: string | null;
  expiration_day: number | null;
  status: ArticleStatus;
  publish_time: string | null;
  view_count: number;
  updated_at: string;
}

function toAdmin(r: AdminSource) {
  return {
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    summary: r.summary,
    thumbnail: r.thumbnail,
    content: r.content,
    number: r.number,
    categoryId: r.code,
    categoryName: r.name,
    dataSourceName: r.data_source_name,
    expirationDay: r.expiration_day,
    status: r.status,
    publishTime: r.publish_time ?? '',
    viewCount: r.view_count,
    updatedAt: r.updated_at,
  };
}

export default fp(
  async (app) => {
    app.decorate('articleRepository', createArticleRepository(app.database.db, app.database.dialect, app.caches));
  },
  { name: 'article-repository' },
);
