import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export function createDashboardRepository(db: Kysely<Database>) {
  return {
    /**
     * The live figures of the console dashboard: totals (logins since `weekAgo`), and the
     * publications and registrations from `firstDay` (a China date) / `since` (the instant it starts).
     */
    async figures({ firstDay, since, weekAgo }: { firstDay: string; since: string; weekAgo: string }) {
      const [articles, accounts, enterprises, logins, publishedPerDay, registrationTimes, mostViewed] = await Promise.all([
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('view_count').as('views')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('account')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('enterprise')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('audit_log')
          .where('action', '=', 'login')
          .where('created_at', '>=', weekAgo)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        // Publish times are China-time texts: the first 10 characters are the date.
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .where('publish_time', '>=', `${firstDay} 00:00:00`)
          .select((eb) => [eb.fn<string>('substr', ['publish_time', eb.lit(1), eb.lit(10)]).as('day'), eb.fn.countAll<number>().as('n')])
          .groupBy('day')
          .execute(),
        db.selectFrom('account').where('created_at', '>=', since).select('created_at').execute(),
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .select(['uuid', 'title', 'view_count'])
          .orderBy('view_count', 'desc')
          .orderBy('id', 'desc')
          .limit(5)
          .execute(),
      ]);
      return {
        kpis: {
          publishedArticles: Number(articles.n),
          totalViews: Number(articles.views ?? 0),
          accounts: Number(accounts.n),
          enterprises: Number(enterprises.n),
          loginsLast7Days: Number(logins.n),
        },
        publishedPerDay: new Map(publishedPerDay.map((r) => [r.day, Number(r.n)])),
        registrationTimes: registrationTimes.map((r) => r.created_at),
        mostViewed: mostViewed.map((r) => ({ uuid: r.uuid, title: r.title, viewCount: r.view_count })),
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    dashboardRepository: ReturnType<typeof createDashboardRepository>;
  }
}

export default fp(
  async (app) => {
    app.decorate('dashboardRepository', createDashboardRepository(app.database.db));
  },
  {
    name: 'dashboard-repository',
  },
);
