import type { LoginFailureReason, LoginLogReason, LogoutReason } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { storable } from '../../platform/audit/audit-chain.js';
import { appendLoginLog } from '../../platform/audit/audit-chain-repository.js';
import type { PortalMetrics } from '../../platform/lib/metrics.js';

export interface LoginAttempt {
  accountId: number | null;
  username: string;
  /** The account's enterprise (null: no account, or none): whose 登录日志 shows the attempt. */
  enterpriseId: number | null;
  name?: string;
  result: 'success' | 'failure';
  reason?: LoginFailureReason;
  applicationId?: number | null;
  applicationName?: string;
  ip: string;
  userAgent: string;
  /** How the sign-in was made (`password`, `passkey`, `federation`: at the enterprise's provider), when known. */
  method?: LoginMethod;
}

/** 登录日志's 登录方式. */
export type LoginMethod = 'password' | 'passkey' | 'federation';

/**
 * Whose attempts a reader sees: every enterprise's (operators, with the attempts that matched no
 * account), one enterprise's, or (an account without an enterprise) its own.
 */
export type LoginLogScope = { all: true } | { enterpriseId: number } | { accountId: number };

/** Filters of the list and the export; times are ISO instants, both bounds included. */
export interface LoginLogFilters {
  start?: string | undefined;
  end?: string | undefined;
  /** 账号 or 姓名, exactly. */
  username?: string | undefined;
  result?: 'success' | 'failure' | 'logout' | undefined;
  reason?: LoginLogReason | undefined;
  /** An application's sign-ins; 0: those for no application (the portal itself). */
  applicationId?: number | undefined;
}

/** An SSO session that has just ended: whose it was, its handle and the client that opened it. */
export interface EndedSession {
  accountId: number;
  handle: string;
  ip: string;
  userAgent: string;
}

/** How sessions ended, and the application that asked (an OpenID Connect RP-initiated logout). */
export interface LogoutCause {
  reason: LogoutReason;
  application?: { id: number | null; name: string };
}

/** What the single-logout messages of one ended session came to. */
export interface DeliveryTally {
  total: number;
  delivered: number;
  retrying: number;
  failed: number;
}

/** Rows per insert and ids per `in (…)`: within both databases' bound-parameter limits. */
const SLICE = 500;

/** Rows read per query while an export streams out. */
const EXPORT_BATCH = 1000;

/**
 * 登录日志: every sign-in attempt at the central login, with its result and reason, the
 * application it was for and the client. Written by the CAS; read by the enterprise's administrators.
 */
export class LoginLogRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly metrics?: Pick<PortalMetrics, 'signIn'>,
  ) {}

  private filtered(scope: LoginLogScope, f: LoginLogFilters) {
    let query = this.db.selectFrom('login_log').leftJoin('enterprise', 'enterprise.id', 'login_log.enterprise_id');
    if ('enterpriseId' in scope) query = query.where('login_log.enterprise_id', '=', scope.enterpriseId);
    if ('accountId' in scope) query = query.where('login_log.account_id', '=', scope.accountId);
    if (f.start) query = query.where('login_log.created_at', '>=', f.start);
    // The bound is a whole second: every instant within it is included.
    if (f.end) query = query.where('login_log.created_at', '<=', f.end.replace('.000Z', '.999Z'));
    const username = f.username?.trim();
    if (username) query = query.where((eb) => eb.or([eb('login_log.username', '=', username), eb('login_log.name', '=', username)]));
    if (f.result) query = query.where('login_log.result', '=', f.result);
    if (f.reason) query = query.where('login_log.reason', '=', f.reason);
    // 门户: sign-ins to the portal itself; a 登出 names no application either, but is no sign-in to the portal.
    if (f.applicationId === 0) query = query.where('login_log.application_id', 'is', null).where('login_log.result', '!=', 'logout');
    else if (f.applicationId !== undefined) query = query.where('login_log.application_id', '=', f.applicationId);
    return query;
  }

  private rowsOf(query: ReturnType<LoginLogRepository['filtered']>) {
    return query
      .selectAll('login_log')
      .select('enterprise.name as enterpriseName')
      .orderBy('login_log.created_at', 'desc')
      .orderBy('login_log.id', 'desc');
  }

  /** One page, newest first, and the number of matching attempts. */
  async page(scope: LoginLogScope, filters: LoginLogFilters, offset: number, limit: number) {
    const query = this.filtered(scope, filters);
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.rowsOf(query).offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** At most `max` attempts, newest first, read in keyset batches (time, id): each query is short and other requests interleave. */
  async *stream(scope: LoginLogScope, filters: LoginLogFilters, max: number) {
    const query = this.filtered(scope, filters);
    let after: { createdAt: string; id: number } | undefined;
    for (let written = 0; written < max;) {
      const cursor = after;
      const batch = await this.rowsOf(
        cursor
          ? query.where((eb) =>
              eb.or([
                eb('login_log.created_at', '<', cursor.createdAt),
                eb.and([eb('login_log.created_at', '=', cursor.createdAt), eb('login_log.id', '<', cursor.id)]),
              ]),
            )
          : query,
      )
        .limit(Math.min(EXPORT_BATCH, max - written))
        .execute();
      yield* batch;
      written += batch.length;
      const last = batch.at(-1);
      if (!last || batch.length < EXPORT_BATCH) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  /** The enterprise's applications, for the list's 应用 filter. */
  async applications(enterpriseId: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('sso_application')
      .select(['id', 'name'])
      .where('enterprise_id', '=', enterpriseId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /**
   * 登出 rows for sessions that ended inside `trx` (they commit or roll back with the ending), one per
   * session, naming the account as it is now and the client that opened the session.
   */
  async recordLogouts(trx: Kysely<Database>, sessions: readonly EndedSession[], cause: LogoutCause): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < sessions.length; i += SLICE) {
      const slice = sessions.slice(i, i + SLICE);
      const accounts = await trx
        .selectFrom('account')
        .select(['id', 'username', 'name', 'enterprise_id'])
        .where('id', 'in', [...new Set(slice.map((s) => s.accountId))])
        .execute();
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const rows = slice.flatMap((s) => {
        const account = byId.get(s.accountId);
        if (!account) return [];
        return [
          {
            enterprise_id: account.enterprise_id,
            account_id: account.id,
            username: storable(account.username, 64),
            name: storable(account.name, 32),
            result: 'logout' as const,
            reason: cause.reason,
            application_id: cause.application?.id ?? null,
            application_name: storable(cause.application?.name ?? '', 64),
            ip: storable(s.ip, 64),
            user_agent: storable(s.userAgent, 500),
            created_at: now,
            session_handle: s.handle,
          },
        ];
      });
      if (rows.length > 0) await inTransaction(trx, (t) => appendLoginLog(t, rows));
    }
  }

  /** The ended session of the 登出 row `id`, when the scope sees that row. */
  async sessionOfLogout(scope: LoginLogScope, id: number): Promise<string | undefined> {
    const row = await this.filtered(scope, {})
      .select('login_log.session_handle')
      .where('login_log.id', '=', id)
      .where('login_log.result', '=', 'logout')
      .executeTakeFirst();
    return row?.session_handle ?? undefined;
  }

  /** The single-logout messages of these ended sessions, by state (sessions that sent none are absent). */
  async deliveryTallies(handles: readonly string[]): Promise<Map<string, DeliveryTally>> {
    const tallies = new Map<string, DeliveryTally>();
    if (handles.length === 0) return tallies;
    const rows = await this.db
      .selectFrom('logout_delivery')
      .select((eb) => ['session_handle', 'state', eb.fn.countAll<number>().as('n')])
      .where('session_handle', 'in', [...new Set(handles)])
      .groupBy(['session_handle', 'state'])
      .execute();
    for (const r of rows) {
      const tally = tallies.get(r.session_handle) ?? { total: 0, delivered: 0, retrying: 0, failed: 0 };
      tally[r.state] += Number(r.n);
      tally.total += Number(r.n);
      tallies.set(r.session_handle, tally);
    }
    return tallies;
  }

  /** Records an attempt; inside `trx` when it commits with a login. A failure to log never fails the login itself. */
  async record(log: FastifyBaseLogger, attempt: LoginAttempt, trx?: Kysely<Database>): Promise<void> {
    // Every sign-in attempt at the central login (password, SMS, chat, two-factor, a refused application) passes here.
    this.metrics?.signIn('cas', attempt.result);
    const row = {
      enterprise_id: attempt.enterpriseId,
      account_id: attempt.accountId,
      username: storable(attempt.username, 64),
      name: storable(attempt.name ?? '', 32),
      result: attempt.result,
      reason: attempt.reason ?? '',
      application_id: attempt.applicationId ?? null,
      application_name: storable(attempt.applicationName ?? '', 64),
      ip: storable(attempt.ip, 64),
      user_agent: storable(attempt.userAgent, 500),
      created_at: new Date().toISOString(),
      ...(attempt.method ? { method: attempt.method } : {}),
    };
    if (trx) {
      // Inside a transaction the row commits or rolls back with the login it describes.
      await appendLoginLog(trx, [row]);
      return;
    }
    try {
      // Its own short transaction: the enterprise's chain head is locked only for this insert.
      await inTransaction(this.db, (t) => appendLoginLog(t, [row]));
    } catch (err) {
      log.error({ err }, 'login log not written');
    }
  }
}

export type LoginLogEntry = Awaited<ReturnType<LoginLogRepository['page']>>['rows'][number];

declare module 'fastify' {
  interface FastifyInstance {
    loginLogRepository: LoginLogRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginLogRepository', new LoginLogRepository(app.database.db, app.metrics));
  },
  { name: 'login-log-repository' },
);
