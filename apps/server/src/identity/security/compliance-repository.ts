import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** An evidence pack's statistics of one enterprise over a period (ISO instants, both included). */
export interface ComplianceStatistics {
  signIns: { success: number; failure: number; logout: number };
  /** Failed sign-ins by reason (登录日志's reason codes), most first. */
  failuresByReason: { reason: string; count: number }[];
  /** Sign-ins refused while the account was locked, and how many accounts they were refused to. */
  lockouts: { attempts: number; accounts: number };
  twoFactor: { failures: number; enrolments: number; enrolledAccounts: number; activeAccounts: number };
  audit: { success: number; failure: number };
  /** 操作日志 by action, most first. */
  auditByAction: { action: string; count: number }[];
}

const count = (n: unknown) => Number(n ?? 0);
const MONTH_MS = 31 * 86_400_000;

/** 安全合规's reads: the enterprise's name and the sign-in, two-factor and audit counts of a period. */
export class ComplianceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enterpriseName(enterpriseId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('enterprise').select('name').where('id', '=', enterpriseId).executeTakeFirst();
    return row?.name;
  }

  /**
   * The period's statistics, read month by month (one grouped query per kind and month) with the event loop
   * given back between months: on SQLite each query runs on the main thread, and a year of a large
   * enterprise's logs in one go would hold every other request for seconds.
   */
  async statistics(enterpriseId: number, start: string, end: string): Promise<ComplianceStatistics> {
    const results = new Map<string, number>();
    const audits = new Map<string, number>();
    const lockedAccounts = new Set<number>();
    const add = (map: Map<string, number>, key: string, n: unknown) => map.set(key, (map.get(key) ?? 0) + count(n));
    for (const [from, to] of months(start, end)) {
      const [logins, locked, actions] = await Promise.all([
        this.db
          .selectFrom('login_log')
          .select(['result', 'reason', (eb) => eb.fn.countAll().as('n')])
          .where('enterprise_id', '=', enterpriseId)
          .where('created_at', '>=', from)
          .where('created_at', '<=', to)
          .groupBy(['result', 'reason'])
          .execute(),
        this.db
          .selectFrom('login_log')
          .select('account_id')
          .distinct()
          .where('enterprise_id', '=', enterpriseId)
          .where('created_at', '>=', from)
          .where('created_at', '<=', to)
          .where('result', '=', 'failure')
          .where('reason', '=', 'locked')
          .execute(),
        this.db
          .selectFrom('audit_log')
          .select(['action', 'outcome', (eb) => eb.fn.countAll().as('n')])
          .where('enterprise_id', '=', enterpriseId)
          .where('created_at', '>=', from)
          .where('created_at', '<=', to)
          .groupBy(['action', 'outcome'])
          .execute(),
      ]);
      for (const r of logins) add(results, `${r.result}\t${r.reason}`, r.n);
      for (const r of locked) if (r.account_id !== null) lockedAccounts.add(r.account_id);
      for (const r of actions) add(audits, `${r.action}\t${r.outcome}`, r.n);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const accounts = await this.db
      .selectFrom('account')
      .select([(eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.count('totp_enabled_at').as('enrolled')])
      .where('enterprise_id', '=', enterpriseId)
      .where('status', '=', 'active')
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();

    const sum = (map: Map<string, number>, test: (first: string, second: string) => boolean) =>
      [...map].reduce((total, [key, n]) => {
        const [first = '', second = ''] = key.split('\t');
        return test(first, second) ? total + n : total;
      }, 0);
    const grouped = (map: Map<string, number>, pick: (first: string, second: string) => string | undefined) => {
      const totals = new Map<string, number>();
      for (const [key, n] of map) {
        const [first = '', second = ''] = key.split('\t');
        const name = pick(first, second);
        if (name !== undefined) totals.set(name, (totals.get(name) ?? 0) + n);
      }
      return [...totals].map(([name, n]) => ({ name, count: n })).sort((a, b) => b.count - a.count);
    };
    const byResult = (result: string) => sum(results, (r) => r === result);
    const failure = (reason: string) => sum(results, (r, why) => r === 'failure' && why === reason);
    return {
      signIns: { success: byResult('success'), failure: byResult('failure'), logout: byResult('logout') },
      failuresByReason: grouped(results, (r, why) => (r === 'failure' ? why : undefined)).map((g) => ({ reason: g.name, count: g.count })),
      lockouts: { attempts: failure('locked'), accounts: lockedAccounts.size },
      twoFactor: {
        failures: failure('two-factor-failed'),
        enrolments: sum(audits, (action, outcome) => action === 'two-factor-enrol' && outcome === 'success'),
        enrolledAccounts: count(accounts.enrolled),
        activeAccounts: count(accounts.n),
      },
      audit: { success: sum(audits, (_a, o) => o === 'success'), failure: sum(audits, (_a, o) => o === 'failure') },
      auditByAction: grouped(audits, (action) => action).map((g) => ({ action: g.name, count: g.count })),
    };
  }
}

/** [start, end] (ISO instants, both included) in slices of at most 31 days. */
function months(start: string, end: string): [string, string][] {
  const slices: [string, string][] = [];
  const last = Date.parse(end);
  for (let from = Date.parse(start); from <= last; from += MONTH_MS) {
    slices.push([new Date(from).toISOString(), new Date(Math.min(from + MONTH_MS - 1, last)).toISOString()]);
  }
  return slices;
}

declare module 'fastify' {
  interface FastifyInstance {
    complianceRepository: ComplianceRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('complianceRepository', new ComplianceRepository(app.database.db));
  },
  { name: 'compliance-repository' },
);
