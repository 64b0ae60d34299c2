import fp from 'fastify-plugin';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { accountLockRow } from '../../identity/cas/login-guard.js';

/** Instants (ISO) the figures count from. */
export interface StatisticsSince {
  now: string;
  /** 00:00 China time of the first charted date. */
  chartStart: string;
  weekAgo: string;
  monthAgo: string;
}

/** `yyyy-MM-ddTHH` of an ISO instant: hours, which fall wholly into one China date (UTC+8, a whole number of hours). */
const hourOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 13)`;

/**
 * 统计分析: one enterprise's figures from its login log (read by the enterprise-and-time
 * index) and its accounts; deleted accounts never count.
 */
export function createStatisticsRepository(db: Kysely<Database>) {
  const accountsOf = (enterpriseId: number) =>
    db.selectFrom('account').where('account.enterprise_id', '=', enterpriseId).where('account.status', '!=', 'deleted');
  const attemptsOf = (enterpriseId: number, since: string) =>
    db
      .selectFrom('login_log')
      .where('login_log.enterprise_id', '=', enterpriseId)
      .where('login_log.created_at', '>=', since)
      // Sign-in attempts only: 登出 rows record the ends of sessions.
      .where('login_log.result', 'in', ['success', 'failure']);

  return {
    async figures(enterpriseId: number, since: StatisticsSince) {
      const [attempts, perApplication, accounts] = await Promise.all([
        attemptsOf(enterpriseId, since.chartStart)
          .select((eb) => [hourOf('login_log.created_at').as('hour'), 'login_log.result', eb.fn.countAll<number>().as('n')])
          .groupBy(['hour', 'login_log.result'])
          .execute(),
        attemptsOf(enterpriseId, since.chartStart)
          .leftJoin('sso_application', 'sso_application.id', 'login_log.application_id')
          .where('login_log.result', '=', 'success')
          .select((eb) => [
            'login_log.application_id',
            'login_log.application_name',
            'sso_application.name as currentName',
            eb.fn.countAll<number>().as('n'),
          ])
          .groupBy(['login_log.application_id', 'login_log.application_name', 'sso_application.name'])
          .execute(),
        accountsOf(enterpriseId)
          .leftJoin('login_failure', (join) => join.on(accountLockRow('login_failure')))
          .select((eb) => {
            const count = (condition: Expression<SqlBool>) => eb.fn.sum<number>(eb.case().when(condition).then(1).else(0).end());
            return [
              eb.fn.countAll<number>().as('total'),
              count(eb('account.status', '=', 'disabled')).as('disabled'),
              count(eb.and([eb('account.status', '=', 'active'), eb('login_failure.locked_until', '>', since.now)])).as('locked'),
              count(eb('account.last_login_at', '>=', since.weekAgo)).as('week'),
              count(eb('account.last_login_at', '>=', since.monthAgo)).as('month'),
              count(eb('account.totp_enabled_at', 'is not', null)).as('twoFactor'),
            ];
          })
          .executeTakeFirstOrThrow(),
      ]);
      return {
        attemptsPerHour: attempts.map((r) => ({ hour: r.hour, result: r.result, count: Number(r.n) })),
        successPerApplication: perApplication.map((r) => ({
          applicationId: r.application_id,
          name: r.currentName ?? r.application_name,
          count: Number(r.n),
        })),
        accounts: {
          total: Number(accounts.total),
          disabled: Number(accounts.disabled ?? 0),
          locked: Number(accounts.locked ?? 0),
          activeLast7Days: Number(accounts.week ?? 0),
          activeLast30Days: Number(accounts.month ?? 0),
          twoFactor: Number(accounts.twoFactor ?? 0),
        },
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    statisticsRepository: ReturnType<typeof createStatisticsRepository>;
  }
}

export default fp(
  async (app) => {
    app.decorate('statisticsRepository', createStatisticsRepository(app.database.db));
  },
  { name: 'statistics-repository' },
);
