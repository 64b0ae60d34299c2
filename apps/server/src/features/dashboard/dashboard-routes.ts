import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime, parseChinaTime } from '../../lib/china-time.js';
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

/** The China date (`yyyy-MM-dd`) of an instant. */
const chinaDate = (date: Date) => chinaTime(date).slice(0, 10);

/** The last `days` China dates, oldest first (`yyyy-MM-dd`). */
export function lastChinaDates(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => chinaDate(new Date(now.getTime() - (days - 1 - i) * DAY_MS)));
}

/**
 * 工作台 (console dashboard): platform figures from the live data, for the KPI tiles and the charts —
 * articles published per day, registrations per day, views, the most viewed articles.
 */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/web-api/console/v1/dashboard',
    {
      onRequest: app.requireAuthority(Authority.Dashboard),
      schema: { tags: ['console'], summary: '工作台统计', response: { 200: Envelope(Dashboard), ...errorResponses } },
    },
    async () => {
      const now = new Date();
      const dates = lastChinaDates(now, DASHBOARD_DAYS);
      const firstDay = dates[0]!;
      const f = await app.dashboardRepository.figures({
        firstDay,
        since: parseChinaTime(`${firstDay} 00:00:00`)!.toISOString(),
        weekAgo: new Date(now.getTime() - 7 * DAY_MS).toISOString(),
      });
      const registeredByDay = new Map<string, number>();
      for (const createdAt of f.registrationTimes) {
        const day = chinaDate(new Date(createdAt));
        registeredByDay.set(day, (registeredByDay.get(day) ?? 0) + 1);
      }
      return ok({
        kpis: f.kpis,
        publishedPerDay: dates.map((date) => ({ date, count: f.publishedPerDay.get(date) ?? 0 })),
        registrationsPerDay: dates.map((date) => ({ date, count: registeredByDay.get(date) ?? 0 })),
        mostViewed: f.mostViewed,
      });
    },
  );
};

export default dashboardRoutes;
