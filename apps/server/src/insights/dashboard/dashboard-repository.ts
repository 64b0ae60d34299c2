import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { accountLockRow } from '../../identity/cas/login-guard.js';

/** Whose figures: one enterprise's, or the whole platform's (operators). */
export type DashboardScope = { enterpriseId: number } | { platform: true };

/** Instants (ISO) the figures count from. */
export interface DashboardSince {
  now: string;
  /** The first of the charts' China dates (`yyyy-MM-dd`) and the instant it starts (00:00 China time). */
  firstDay: string;
  chartStart: string;
  weekAgo: string;
  monthAgo: string;
}

/** `yyyy-MM-ddTHH` of an ISO instant: hours, which fall wholly into one China date (UTC+8, a whole number of hours). */
const hourOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 13)`;

export function createDashboardRepository(db: Kysely<Database>) {
  /** Accounts of the scope that are not deleted. */
  const accountsOf = (scope: DashboardScope) => {
    const query = db.selectFrom('account').where('account.status', '!=', 'deleted');
    return 'enterpriseId' in scope ? query.where('account.enterprise_id', '=', scope.enterpriseId) : query;
  };

  return {
    /**
     * The figures of 工作台 for a scope: accounts by state, active accounts, logins per hour
     * since `chartStart` (the route sums them per China date), identifier prefixes and records, and
     * lookups of those records per China date since `firstDay`.
     */
    async figures(scope: DashboardScope, since: DashboardSince) {
      const own = 'enterpriseId' in scope;
      const ownPrefixes = own ? db.selectFrom('idf_prefix').select('id').where('enterprise_id', '=', scope.enterpriseId) : undefined;
      const [states, active, logins, prefixes, records, lookups] = await Promise.all([
        accountsOf(scope)
          .leftJoin('login_failure', (join) => join.on(accountLockRow('login_failure')))
          .select((eb) => [
            eb.fn.countAll<number>().as('total'),
            eb.fn.sum<number>(eb.case().when('account.status', '=', 'disabled').then(1).else(0).end()).as('disabled'),
            eb.fn
              .sum<number>(
                eb
                  .case()
                  .when(eb.and([eb('account.status', '=', 'active'), eb('login_failure.locked_until', '>', since.now)]))
                  .then(1)
                  .else(0)
                  .end(),
              )
              .as('locked'),
          ])
          .executeTakeFirstOrThrow(),
        accountsOf(scope)
          .select((eb) => [
            eb.fn.sum<number>(eb.case().when('account.last_login_at', '>=', since.weekAgo).then(1).else(0).end()).as('week'),
            eb.fn.sum<number>(eb.case().when('account.last_login_at', '>=', since.monthAgo).then(1).else(0).end()).as('month'),
          ])
          .executeTakeFirstOrThrow(),
        (own ? db.selectFrom('audit_log').where('audit_log.enterprise_id', '=', scope.enterpriseId) : db.selectFrom('audit_log'))
          .where('audit_log.action', '=', 'login')
          .where('audit_log.created_at', '>=', since.chartStart)
          .select((eb) => [hourOf('audit_log.created_at').as('hour'), eb.fn.countAll<number>().as('n')])
          .groupBy('hour')
          .execute(),
        (own ? db.selectFrom('idf_prefix').where('enterprise_id', '=', scope.enterpriseId) : db.selectFrom('idf_prefix'))
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        (ownPrefixes ? db.selectFrom('idf_record').where('prefix_id', 'in', ownPrefixes) : db.selectFrom('idf_record'))
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        // Found lookups of the scope's records, from 标识统计's rollups; what the upstream
        // resolver found is another node's record.
        (own
          ? db
              .selectFrom('idf_lookup_rollup')
              .where('prefix', 'in', db.selectFrom('idf_prefix').select('prefix').where('enterprise_id', '=', scope.enterpriseId))
          : db.selectFrom('idf_lookup_rollup')
        )
          .where('outcome', '=', 'found')
          .where('channel', '!=', 'upstream')
          .where('day', '>=', since.firstDay)
          .select((eb) => ['day', eb.fn.sum<number>('lookups').as('n')])
          .groupBy('day')
          .execute(),
      ]);
      const total = Number(states.total);
      const disabled = Number(states.disabled ?? 0);
      const locked = Number(states.locked ?? 0);
      return {
        accounts: { active: total - disabled - locked, disabled, locked },
        activeLast7Days: Number(active.week ?? 0),
        activeLast30Days: Number(active.month ?? 0),
        loginsPerHour: logins.map((r) => ({ hour: r.hour, count: Number(r.n) })),
        identifiers: { prefixes: Number(prefixes.n), records: Number(records.n) },
        lookupsPerDay: new Map(lookups.map((r) => [r.day, Number(r.n)])),
      };
    },

    /**
     * The platform's own figures (operators): totals, and the publications and registrations from
     * `firstDay` (a China date) / `since` (the instant it starts).
     */
    async platformFigures({ firstDay, since }: { firstDay: string; since: string }) {
      const [articles, enterprises, publishedPerDay, registrationTimes, mostViewed] = await Promise.all([
        db
          .selectFrom('cms_article')
          .where('status', '=', 'published')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('view_count').as('views')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('enterprise')
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
        publishedArticles: Number(articles.n),
        totalViews: Number(articles.views ?? 0),
        enterprises: Number(enterprises.n),
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
