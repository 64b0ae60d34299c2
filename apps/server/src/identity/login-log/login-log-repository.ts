import type { LoginFailureReason } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

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
}

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
  result?: 'success' | 'failure' | undefined;
  reason?: LoginFailureReason | undefined;
  /** An application's sign-ins; 0: those for no application (the portal itself). */
  applicationId?: number | undefined;
}

/** Rows read per query while an export streams out. */
const EXPORT_BATCH = 1000;

/**
 * 登录日志: every sign-in attempt at the central login, with its result and reason, the
 * application it was for and the client. Written by the CAS; read by the enterprise's administrators.
 */
export class LoginLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
    if (f.applicationId === 0) query = query.where('login_log.application_id', 'is', null);
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

  /** Records an attempt; inside `trx` when it commits with a login. A failure to log never fails the login itself. */
  async record(log: FastifyBaseLogger, attempt: LoginAttempt, trx?: Kysely<Database>): Promise<void> {
    const row = {
      enterprise_id: attempt.enterpriseId,
      account_id: attempt.accountId,
      username: attempt.username.slice(0, 64),
      name: (attempt.name ?? '').slice(0, 32),
      result: attempt.result,
      reason: attempt.reason ?? '',
      application_id: attempt.applicationId ?? null,
      application_name: (attempt.applicationName ?? '').slice(0, 64),
      ip: attempt.ip.slice(0, 64),
      user_agent: attempt.userAgent.slice(0, 500),
      created_at: new Date().toISOString(),
    };
    if (trx) {
      // Inside a transaction the row commits or rolls back with the login it describes.
      await trx.insertInto('login_log').values(row).execute();
      return;
    }
    try {
      await this.db.insertInto('login_log').values(row).execute();
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
    app.decorate('loginLogRepository', new LoginLogRepository(app.database.db));
  },
  { name: 'login-log-repository' },
);
