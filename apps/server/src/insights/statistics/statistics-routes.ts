import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, STATISTICS_DAYS, STATISTICS_TOP_APPLICATIONS, type Statistics, StatisticsSchema } from '@portal/shared';
import { chinaDate, lastChinaDates, parseChinaTime } from '../../platform/lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const DAY_MS = 86_400_000;
const PORTAL_NAME = '门户';
const OTHERS_NAME = '其他';

/** Per application, most first: the top ones by name, the rest summed as 其他. */
function topApplications(counts: { applicationId: number | null; name: string; count: number }[]): Statistics['signInsPerApplication'] {
  // One entry per application (renamed ones were logged under several names), and one per name of the rest.
  const merged = new Map<string, Statistics['signInsPerApplication'][number]>();
  for (const c of counts) {
    const key = c.applicationId !== null ? `#${c.applicationId}` : c.name;
    const entry = merged.get(key);
    if (entry) entry.count += c.count;
    else merged.set(key, { applicationId: c.applicationId, name: c.name || PORTAL_NAME, count: c.count });
  }
  const sorted = [...merged.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'zh-CN'));
  const rest = sorted.slice(STATISTICS_TOP_APPLICATIONS).reduce((sum, c) => sum + c.count, 0);
  return rest > 0 ? [...sorted.slice(0, STATISTICS_TOP_APPLICATIONS), { applicationId: null, name: OTHERS_NAME, count: rest }] : sorted;
}

/**
 * 统计分析 (authority statistics): the figures of the caller's enterprise only — sign-ins
 * per China date, active accounts, sign-ins per application, accounts by state and two-factor
 * coverage. Operators see their own enterprise's too; no account sees another enterprise's.
 */
const statisticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${ApiPrefix.console}/statistics`,
    {
      onRequest: app.requireAuthority(Authority.Statistics),
      schema: {
        tags: ['statistics'],
        summary: '统计分析（本企业）',
        response: { 200: Envelope(StatisticsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(callerOf(request));
      const now = new Date();
      const dates = lastChinaDates(now, STATISTICS_DAYS);
      const f = await app.statisticsRepository.figures(enterpriseId, {
        now: now.toISOString(),
        chartStart: parseChinaTime(`${dates[0]} 00:00:00`)!.toISOString(),
        weekAgo: new Date(now.getTime() - 7 * DAY_MS).toISOString(),
        monthAgo: new Date(now.getTime() - 30 * DAY_MS).toISOString(),
      });
      const perDay = new Map(dates.map((date) => [date, { date, success: 0, failure: 0 }]));
      for (const { hour, result, count } of f.attemptsPerHour) {
        const day = perDay.get(chinaDate(new Date(`${hour}:00:00.000Z`)));
        if (day) day[result === 'failure' ? 'failure' : 'success'] += count;
      }
      const { accounts } = f;
      const statistics: Statistics = {
        signInsPerDay: [...perDay.values()],
        activeAccounts: { last7Days: accounts.activeLast7Days, last30Days: accounts.activeLast30Days, total: accounts.total },
        signInsPerApplication: topApplications(f.successPerApplication),
        accountsByStatus: {
          active: accounts.total - accounts.disabled - accounts.locked,
          disabled: accounts.disabled,
          locked: accounts.locked,
        },
        twoFactor: { enabled: accounts.twoFactor, notEnabled: accounts.total - accounts.twoFactor },
      };
      return ok(statistics);
    },
  );
};

export default statisticsRoutes;
