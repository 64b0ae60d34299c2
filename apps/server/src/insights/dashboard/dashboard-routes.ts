import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, DASHBOARD_DAYS, type Dashboard, type DayCount } from '@portal/shared';
import { Type } from 'typebox';
import { chinaDate, lastChinaDates, parseChinaTime } from '../../platform/lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import type { DashboardScope } from './dashboard-repository.js';

const DAY_MS = 86_400_000;

const DayCountSchema = Type.Object({ date: Type.String(), count: Type.Integer() });
const Series = Type.Array(DayCountSchema, { description: `最近 ${DASHBOARD_DAYS} 天（中国日期，旧的在前）` });
const DashboardSchema = Type.Object({
  scope: Type.Union([Type.Literal('enterprise'), Type.Literal('platform')], {
    description: 'enterprise：本企业；platform：全平台（平台运营）',
  }),
  enterpriseName: Type.String(),
  accounts: Type.Object(
    { active: Type.Integer(), disabled: Type.Integer(), locked: Type.Integer() },
    { description: '账号数：正常、停用、锁定' },
  ),
  activeLast7Days: Type.Integer(),
  activeLast30Days: Type.Integer(),
  loginsPerDay: Series,
  identifiers: Type.Object({ prefixes: Type.Integer(), records: Type.Integer() }),
  lookupsPerDay: Series,
  platform: Type.Union([
    Type.Object({
      publishedArticles: Type.Integer(),
      totalViews: Type.Integer(),
      enterprises: Type.Integer(),
      publishedPerDay: Series,
      registrationsPerDay: Series,
      mostViewed: Type.Array(Type.Object({ uuid: Type.String(), title: Type.String(), viewCount: Type.Integer() })),
    }),
    Type.Null(),
  ]),
});

/** Counts per China date of `dates`, from counts keyed by an instant's text (an hour `yyyy-MM-ddTHH` or an ISO time). */
function perDay(dates: readonly string[], counts: Iterable<{ at: string; count: number }>): DayCount[] {
  const byDay = new Map<string, number>();
  for (const { at, count } of counts) {
    const day = chinaDate(new Date(at.length === 13 ? `${at}:00:00.000Z` : at));
    byDay.set(day, (byDay.get(day) ?? 0) + count);
  }
  return dates.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

/** An account without an enterprise has no figures of its own, and sees no one else's. */
const empty = (dates: readonly string[]): Dashboard => ({
  scope: 'enterprise',
  enterpriseName: '',
  accounts: { active: 0, disabled: 0, locked: 0 },
  activeLast7Days: 0,
  activeLast30Days: 0,
  loginsPerDay: dates.map((date) => ({ date, count: 0 })),
  identifiers: { prefixes: 0, records: 0 },
  lookupsPerDay: dates.map((date) => ({ date, count: 0 })),
  platform: null,
});

/**
 * 工作台: an enterprise account sees its enterprise's figures — accounts by state, active
 * accounts, logins per day, identifiers and their lookups per day; operators (authority tenant) see the platform's, with its
 * content and registrations. No account sees another enterprise's figures.
 */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/web-api/console/v1/dashboard',
    {
      onRequest: app.requireAuthority(Authority.Dashboard),
      schema: {
        tags: ['console'],
        summary: '工作台统计（本企业；平台运营为全平台）',
        response: { 200: Envelope(DashboardSchema), ...errorResponses },
      },
    },
    async (request) => {
      const profile = request.principal!.profile;
      const now = new Date();
      const dates = lastChinaDates(now, DASHBOARD_DAYS);
      const firstDay = dates[0]!;
      const chartStart = parseChinaTime(`${firstDay} 00:00:00`)!.toISOString();
      const platform = profile.authorities.includes(Authority.Tenant);
      const scope: DashboardScope | undefined = platform
        ? { platform: true }
        : profile.enterpriseId !== null
          ? { enterpriseId: profile.enterpriseId }
          : undefined;
      if (!scope) return ok(empty(dates));
      const f = await app.dashboardRepository.figures(scope, {
        now: now.toISOString(),
        firstDay,
        chartStart,
        weekAgo: new Date(now.getTime() - 7 * DAY_MS).toISOString(),
        monthAgo: new Date(now.getTime() - 30 * DAY_MS).toISOString(),
      });
      const figures = {
        accounts: f.accounts,
        activeLast7Days: f.activeLast7Days,
        activeLast30Days: f.activeLast30Days,
        loginsPerDay: perDay(
          dates,
          f.loginsPerHour.map((h) => ({ at: h.hour, count: h.count })),
        ),
        identifiers: f.identifiers,
        lookupsPerDay: dates.map((date) => ({ date, count: f.lookupsPerDay.get(date) ?? 0 })),
      };
      if (!platform) {
        const own: Dashboard = { scope: 'enterprise', enterpriseName: profile.enterpriseName, ...figures, platform: null };
        return ok(own);
      }
      const p = await app.dashboardRepository.platformFigures({ firstDay, since: chartStart });
      const all: Dashboard = {
        scope: 'platform',
        enterpriseName: '',
        ...figures,
        platform: {
          publishedArticles: p.publishedArticles,
          totalViews: p.totalViews,
          enterprises: p.enterprises,
          publishedPerDay: dates.map((date) => ({ date, count: p.publishedPerDay.get(date) ?? 0 })),
          registrationsPerDay: perDay(
            dates,
            p.registrationTimes.map((at) => ({ at, count: 1 })),
          ),
          mostViewed: p.mostViewed,
        },
      };
      return ok(all);
    },
  );
};

export default dashboardRoutes;
