import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, STATISTICS_DAYS, STATISTICS_TOP_APPLICATIONS, type Statistics } from '@portal/shared';
import { Type } from 'typebox';
import { chinaDate, lastChinaDates, parseChinaTime } from '../../platform/lib/china-time.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';

const DAY_MS = 86_400_000;
const PORTAL_NAME = '门户';
const OTHERS_NAME = '其他';

const Count = Type.Integer({ minimum: 0 });
const StatisticsSchema = Type.Object({
  signInsPerDay: Type.Array(Type.Object({ date: Type.String(), success: Count, failure: Count }), {
    description: `最近 ${STATISTICS_DAYS} 天每天的登录次数（中国日期，旧的在前）`,
  }),
  activeAccounts: Type.Object({ last7Days: Count, last30Days: Count, total: Count }, { description: '近 7 天、近 30 天登录过的账号数' }),
  signInsPerApplication: Type.Array(
    Type.Object({ applicationId: Type.Union([Type.Integer(), Type.Null()]), name: Type.String(), count: Count }),
    { description: `近 ${STATISTICS_DAYS} 天各应用的成功登录次数（前 ${STATISTICS_TOP_APPLICATIONS} 个，其余合为“其他”）` },
  ),
  accountsByStatus: Type.Object({ active: Count, disabled: Count, locked: Count }, { description: '账号数：正常、停用、锁定' }),
  twoFactor: Type.Object({ enabled: Count, notEnabled: Count }, { description: '已启用、未启用二次验证的账号数' }),
});

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
    '/web-api/console/v1/statistics',
    {
      onRequest: app.requireAuthority(Authority.Statistics),
      schema: {
        tags: ['statistics'],
        summary: '统计分析（本企业）',
        response: { 200: Envelope(StatisticsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
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
