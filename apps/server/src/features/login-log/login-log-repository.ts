import type { LoginFailureReason } from '@portal/shared';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

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
 * 登录日志 (issue 17): every sign-in attempt at the central login, with its result and reason, the
 * application it was for and the client. Written by the CAS; read by the enterprise's administrators.
 */
export class LoginLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

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

declare module 'fastify' {
  interface FastifyInstance {
    loginLog: LoginLogRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('loginLog', new LoginLogRepository(app.database.db));
  },
  { name: 'login-log-repository' },
);
