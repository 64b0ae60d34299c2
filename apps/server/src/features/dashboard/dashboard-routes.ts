import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';

/** The charts cover the last 14 days, today included (China dates). */
export const DASHBOARD_DAYS = 14;
const DAY_MS = 86_400_000;

const DayCount = Type.Object({ date: Type.String(), count: Type.Integer() });
const Dashboard = Type.Object({
  kpis: Type.Object({
    publishedArticles: Type.Integer(),
    totalViews: Type.Integer(),
    accounts: Type.Integer(),
    enterprises: Type.Integer(),
    loginsLast7Days: Type.Integer(),
  }),
  publishedPerDay: Type.Array(DayCount),
  registrationsPerDay: Type.Array(DayCount),
  mostViewed: Type.Array(Type.Object({ uuid: Type.String(), title: Type.String(), viewCount: Type.Integer() })),
});

/** The last `days` China dates, oldest first (`yyyy-MM-dd`). */
export function lastChinaDates(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => chinaTime(new Date(now.getTime() - (days - 1 - i) * DAY_MS)).slice(0, 10));
}

/**
 * 工作台 (console dashboard): platform figures from the live data, for the KPI tiles and the charts —
 * articles published per day, registrations per day, views, the most viewed articles.
 */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get(
    '/web-api/console/v1/dashboard',
    {
      onRequest: app.requireAuthority(Authority.Dashboard),
      schema: { tags: ['console'], summary: '工作台统计', response: { 200: Envelope(Dashboard), ...errorResponses } },
    },
    async () => {
      const now = new Date();
      const dates = lastChinaDates(now, DASHBOARD_DAYS);
      const first = dates[0] ?? '';
      // The first China day starts at 16:00 UTC of the day before.
      const windowStartIso = new Date(`${first}T00:00:00+08:00`).toISOString();
      const weekAgoIso = new Date(now.getTime() - 7 * DAY_MS).toISOString();

      const [articles, accounts, enterprises, logins, published, registered, mostViewed] = await Promise.all([
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
          .where('created_at', '>=', weekAgoIso)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        // Publish times are China-time texts: the first 10 characters are the date.
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .where('publish_time', '>=', `${first} 00:00:00`)
          .select((eb) => [eb.fn<string>('substr', ['publish_time', eb.lit(1), eb.lit(10)]).as('day'), eb.fn.countAll<number>().as('n')])
          .groupBy('day')
          .execute(),
        db.selectFrom('account').where('created_at', '>=', windowStartIso).select('created_at').execute(),
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .select(['uuid', 'title', 'view_count'])
          .orderBy('view_count', 'desc')
          .orderBy('id', 'desc')
          .limit(5)
          .execute(),
      ]);

      const publishedByDay = new Map(published.map((r) => [r.day, Number(r.n)]));
      const registeredByDay = new Map<string, number>();
      for (const r of registered) {
        const day = chinaTime(new Date(r.created_at)).slice(0, 10);
        registeredByDay.set(day, (registeredByDay.get(day) ?? 0) + 1);
      }
      return ok({
        kpis: {
          publishedArticles: Number(articles.n),
          totalViews: Number(articles.views ?? 0),
          accounts: Number(accounts.n),
          enterprises: Number(enterprises.n),
          loginsLast7Days: Number(logins.n),
        },
        publishedPerDay: dates.map((date) => ({ date, count: publishedByDay.get(date) ?? 0 })),
        registrationsPerDay: dates.map((date) => ({ date, count: registeredByDay.get(date) ?? 0 })),
        mostViewed: mostViewed.map((r) => ({ uuid: r.uuid, title: r.title, viewCount: r.view_count })),
      });
    },
  );
};

export default dashboardRoutes;
