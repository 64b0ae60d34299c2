import { Authority, DASHBOARD_DAYS, type Dashboard, type DayCount } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Principal } from '../../identity/portal-auth/auth.js';
import { chinaDate, lastChinaDates, parseChinaTime } from '../../platform/lib/china-time.js';
import type { DashboardScope } from './dashboard-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    dashboardService: DashboardService;
  }
}

const DAY_MS = 86_400_000;

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
 * 工作台's figures: an enterprise account sees its enterprise's — accounts by state, active accounts,
 * logins per day, identifiers and their lookups per day; operators (authority tenant) see the
 * platform's, with its content and registrations. No account sees another enterprise's figures.
 */
export class DashboardService {
  constructor(private readonly app: FastifyInstance) {}

  /** The figures `profile` may see, over the last DASHBOARD_DAYS China dates up to `now`. */
  async figures(profile: Principal['profile'], now = new Date()): Promise<Dashboard> {
    const dates = lastChinaDates(now, DASHBOARD_DAYS);
    const firstDay = dates[0]!;
    const chartStart = parseChinaTime(`${firstDay} 00:00:00`)!.toISOString();
    const platform = profile.authorities.includes(Authority.Tenant);
    const scope: DashboardScope | undefined = platform
      ? { platform: true }
      : profile.enterpriseId !== null
        ? { enterpriseId: profile.enterpriseId }
        : undefined;
    if (!scope) return empty(dates);
    const f = await this.app.dashboardRepository.figures(scope, {
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
      return own;
    }
    const p = await this.app.dashboardRepository.platformFigures({ firstDay, since: chartStart });
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
    return all;
  }
}

export default fp(
  async (app) => {
    app.decorate('dashboardService', new DashboardService(app));
  },
  { name: 'dashboard-service', dependencies: ['dashboard-repository'] },
);
