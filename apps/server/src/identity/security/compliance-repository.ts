import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** An evidence pack's statistics of one enterprise over a period (ISO instants, both included). */
export interface ComplianceStatistics {
  signIns: { success: number; failure: number; logout: number };
  /** Failed sign-ins by reason (登录日志's reason codes), most first. */
  failuresByReason: { reason: string; count: number }[];
  /** Sign-ins refused because the account was locked, and how many accounts they were. */
  lockouts: { attempts: number; accounts: number };
  twoFactor: { failures: number; enrolments: number; enrolledAccounts: number; activeAccounts: number };
  audit: { success: number; failure: number };
  /** 操作日志 by action, most first. */
  auditByAction: { action: string; count: number }[];
}

const count = (n: unknown) => Number(n ?? 0);

/** 安全合规's reads: the enterprise's name and the sign-in, two-factor and audit counts of a period. */
export class ComplianceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enterpriseName(enterpriseId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('enterprise').select('name').where('id', '=', enterpriseId).executeTakeFirst();
    return row?.name;
  }

  async statistics(enterpriseId: number, start: string, end: string): Promise<ComplianceStatistics> {
    const logins = this.db
      .selectFrom('login_log')
      .where('enterprise_id', '=', enterpriseId)
      .where('created_at', '>=', start)
      .where('created_at', '<=', end);
    const audits = this.db
      .selectFrom('audit_log')
      .where('enterprise_id', '=', enterpriseId)
      .where('created_at', '>=', start)
      .where('created_at', '<=', end);
    const [results, reasons, locked, enrolments, accounts, outcomes, actions] = await Promise.all([
      logins
        .select(['result', (eb) => eb.fn.countAll().as('n')])
        .groupBy('result')
        .execute(),
      logins
        .select(['reason', (eb) => eb.fn.countAll().as('n')])
        .where('result', '=', 'failure')
        .groupBy('reason')
        .execute(),
      logins
        .select([(eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.count('account_id').distinct().as('accounts')])
        .where('result', '=', 'failure')
        .where('reason', '=', 'locked')
        .executeTakeFirstOrThrow(),
      audits
        .select((eb) => eb.fn.countAll().as('n'))
        .where('action', '=', 'two-factor-enrol')
        .where('outcome', '=', 'success')
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('account')
        .select([(eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.count('totp_enabled_at').as('enrolled')])
        .where('enterprise_id', '=', enterpriseId)
        .where('status', '=', 'active')
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow(),
      audits
        .select(['outcome', (eb) => eb.fn.countAll().as('n')])
        .groupBy('outcome')
        .execute(),
      audits
        .select(['action', (eb) => eb.fn.countAll().as('n')])
        .groupBy('action')
        .execute(),
    ]);
    const byResult = (result: string) => count(results.find((r) => r.result === result)?.n);
    const byOutcome = (outcome: string) => count(outcomes.find((r) => r.outcome === outcome)?.n);
    const most = <T extends { count: number }>(rows: T[]) => rows.sort((a, b) => b.count - a.count);
    return {
      signIns: { success: byResult('success'), failure: byResult('failure'), logout: byResult('logout') },
      failuresByReason: most(reasons.map((r) => ({ reason: r.reason, count: count(r.n) }))),
      lockouts: { attempts: count(locked.n), accounts: count(locked.accounts) },
      twoFactor: {
        failures: count(reasons.find((r) => r.reason === 'two-factor-failed')?.n),
        enrolments: count(enrolments.n),
        enrolledAccounts: count(accounts.enrolled),
        activeAccounts: count(accounts.n),
      },
      audit: { success: byOutcome('success'), failure: byOutcome('failure') },
      auditByAction: most(actions.map((r) => ({ action: r.action, count: count(r.n) }))),
    };
  }
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
