import { createHash, randomBytes } from 'node:crypto';
import { ApiPrefix } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { SecurityPolicy } from '@portal/shared';
import type { Database } from '../../platform/db/schema.js';
import type { LoadingCache } from '../../platform/lib/cache.js';
import { isUsable } from '../accounts/account-repository.js';
import type { PortalSessionRepository } from './portal-session-repository.js';

/** The portal's session cookie: a random id; the table keeps only its SHA-256 (named by http-cache, which keeps its answers private). */
export { SESSION_COOKIE } from '../../platform/plugins/http-cache.js';
/** The portal's CAS service address: logins return here with a ticket; single logout posts here. */
export const PORTAL_CALLBACK_PATH = `${ApiPrefix.portalAuth}/cas/callback`;

const digest = (id: string) => createHash('sha256').update(id).digest('hex');

export interface LiveSession {
  /** The stored key (SHA-256 of the cookie); tokens name it. */
  key: string;
  accountId: number;
  serviceTicket: string;
  /** When its user last proved who they are: the CAS login behind it, or 验证身份 since. */
  authenticatedAt: Date;
}

/** The limits of 安全设置 that end a console session (the enterprise's, else the platform defaults). */
export type PortalSessionLimits = Pick<SecurityPolicy, 'sessionIdleMinutes' | 'sessionMaxHours'>;

/** How long an instance answers from an enterprise's limits it read; a save clears this instance's copies at once. */
const LIMITS_TTL_MS = 30_000;
/** Last use is written at most this often per session: requests stay reads, idle time is measured to about a minute. */
const TOUCH_EVERY_MS = 60_000;

export class PortalSessions {
  /**
   * `hours`: SESSION_HOURS, the outer bound every session is stored with (the retention job removes it after);
   * `limits`: the account's enterprise's 会话空闲超时 and 会话最长时长, which end it sooner (等保 2.0 8.1.4.1 b,
   * ASVS 7.3.1/7.3.2), keyed by enterprise id ('' for accounts without one).
   */
  constructor(
    private readonly sessions: PortalSessionRepository,
    private readonly hours: number,
    private readonly limits: LoadingCache<PortalSessionLimits>,
  ) {}

  /**
   * Opens a session for an account logged in through `serviceTicket`; answers the cookie value.
   * `authenticatedAt`: when the CAS checked the credentials (CAS 3.0 §2.7 authenticationDate), which
   * single sign-on may place hours before now; not after now, and not before the session's own lifetime.
   */
  async open(accountId: number, serviceTicket: string, authenticatedAt?: Date, now = new Date()): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const earliest = now.getTime() - this.hours * 3_600_000;
    const proved = authenticatedAt && !Number.isNaN(authenticatedAt.getTime()) ? authenticatedAt.getTime() : now.getTime();
    await this.sessions.insert({
      id: digest(id),
      account_id: accountId,
      service_ticket: serviceTicket,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.hours * 3_600_000).toISOString(),
      authenticated_at: new Date(Math.min(now.getTime(), Math.max(earliest, proved))).toISOString(),
    });
    return id;
  }

  async fromCookie(cookie: string | undefined, now = new Date()): Promise<LiveSession | undefined> {
    if (!cookie || cookie.length > 100) return undefined;
    return this.byKey(digest(cookie), now);
  }

  async byKey(key: string, now = new Date()): Promise<LiveSession | undefined> {
    const row = await this.sessions.withAccount(key);
    if (!row || row.expires_at <= now.toISOString() || !isUsable(row.status, row.enterprise_status)) return undefined;
    const limits = await this.limits.get(row.enterprise_id === null ? '' : String(row.enterprise_id));
    const lastUsed = Date.parse(row.last_used_at ?? row.created_at);
    if (limits) {
      const idle = now.getTime() - lastUsed > limits.sessionIdleMinutes * 60_000;
      const tooOld = now.getTime() - Date.parse(row.created_at) > limits.sessionMaxHours * 3_600_000;
      if (idle || tooOld) {
        await this.sessions.delete(row.id);
        return undefined;
      }
    }
    if (now.getTime() - lastUsed >= TOUCH_EVERY_MS) await this.sessions.setLastUsedAt(row.id, now.toISOString());
    return {
      key: row.id,
      accountId: row.account_id,
      serviceTicket: row.service_ticket,
      authenticatedAt: new Date(row.authenticated_at ?? row.created_at),
    };
  }

  /** 验证身份 succeeded: the session's proof of identity is now. */
  async stamp(key: string, now = new Date()): Promise<void> {
    await this.sessions.setAuthenticatedAt(key, now.toISOString());
  }

  async close(cookie: string | undefined): Promise<void> {
    if (cookie) await this.sessions.delete(digest(cookie));
  }

  /** CAS single logout names the service ticket that opened the session. */
  async closeByServiceTicket(serviceTicket: string): Promise<number> {
    return this.sessions.deleteByServiceTickets([serviceTicket]);
  }

  /** 强制下线: the sessions these service tickets opened end, inside the caller's transaction. */
  async closeByServiceTickets(trx: Kysely<Database>, serviceTickets: readonly string[]): Promise<void> {
    // In slices: an SSO session's tickets can outnumber SQLite's bound parameters in one `in (…)`.
    for (let i = 0; i < serviceTickets.length; i += 500) {
      await this.sessions.deleteByServiceTickets(serviceTickets.slice(i, i + 500), trx);
    }
  }

  /** After a password change or at 退出其他设备 (inside its transaction): every other session of the account ends. */
  async closeOthers(accountId: number, keepKey: string, db?: Kysely<Database>): Promise<void> {
    await this.sessions.deleteOthersOf(accountId, keepKey, db);
  }

  /** Every session of these accounts ends (停用, 删除, an enterprise 停用), inside the caller's transaction. */
  async closeAllOf(trx: Kysely<Database>, accountIds: readonly number[]): Promise<void> {
    await this.sessions.deleteAllOf(trx, accountIds);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    portalSessionService: PortalSessions;
  }
}

export default fp(
  async (app) => {
    const policies = app.securityPolicyRepository;
    const limits = app.caches.create<PortalSessionLimits>('security-policy', {
      max: 10_000,
      ttl: LIMITS_TTL_MS,
      load: async (key) => {
        const { sessionIdleMinutes, sessionMaxHours } = await policies.ofEnterprise(key === '' ? null : Number(key));
        return { sessionIdleMinutes, sessionMaxHours };
      },
    });
    app.decorate('portalSessionService', new PortalSessions(app.portalSessionRepository, app.config.auth.sessionHours, limits));
    // Expired sessions go with the retention job (platform/retention).
  },
  { name: 'portal-sessions', dependencies: ['portal-session-repository', 'security-policy-repository'] },
);
