import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    sitemapRepository: SitemapRepository;
  }
}

export type SitemapRepository = ReturnType<typeof createSitemapRepository>;

/** A published article's address parts: its list (`news` or `knowledge`), id and last change (ISO-8601 UTC). */
export interface SitemapArticle {
  uuid: string;
  channel: string;
  updatedAt: string;
}

/**
 * What search engines are told exists (sitemap.xml): published articles of both lists and published
 * applications, read in id order so that consecutive sitemap files never overlap.
 */
export function createSitemapRepository(db: Kysely<Database>) {
  return {
    async counts(): Promise<{ articles: number; applications: number }> {
      const [articles, applications] = await Promise.all([
        db
          .selectFrom('cms_article')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('status', '=', 'published')
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('app_application')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('status', '=', 'published')
          .executeTakeFirstOrThrow(),
      ]);
      return { articles: Number(articles.n), applications: Number(applications.n) };
    },

    articles(offset: number, limit: number): Promise<SitemapArticle[]> {
      return db
        .selectFrom('cms_article')
        .innerJoin('cms_category', 'cms_category.id', 'cms_article.category_id')
        .select(['cms_article.uuid', 'cms_category.channel', 'cms_article.updated_at as updatedAt'])
        .where('cms_article.status', '=', 'published')
        .orderBy('cms_article.id')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** Published applications' uuids (applications keep no time of their last change). */
    async applications(offset: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('app_application')
        .select('uuid')
        .where('status', '=', 'published')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => r.uuid);
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('sitemapRepository', createSitemapRepository(app.database.db));
  },
  { name: 'sitemap-repository' },
);
