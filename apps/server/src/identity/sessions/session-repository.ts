import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SessionRow } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { containsText } from '../../platform/lib/text-search.js';
import { clientSoftware } from '../../platform/lib/user-agent.js';
import type { EndedTickets } from '../cas/sso-sessions.js';
import type { LogoutCause } from '../login-log/login-log-repository.js';
import { PORTAL_CALLBACK_PATH } from '../portal-auth/portal-sessions.js';

/** The portal's own CAS client comes back here with its tickets (portal-auth-routes): those show as 门户. */
const PORTAL_NAME = '门户';

/** How long an SSO session lives: without activity, and at most from its login. */
export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

/** Whose sessions a caller may see and end: an enterprise's accounts' (在线会话), or one account's own (个人信息). */
export type SessionOwner = { enterpriseId: number } | { accountId: number };

/** A session found by its handle: what ending it needs and what its audit row names. */
export interface FoundSession {
  tgtId: string;
  username: string;
  ip: string;
  userAgent: string;
}

const MAC_LENGTH = 22;

/**
 * 在线会话: the live SSO sessions (TGTs) of an enterprise's accounts or of one account,
 * with their client and the applications their tickets reached; 强制下线 ends one. A session is named
 * by a handle — its account's id and an HMAC of the TGT id — so the TGT id, which is the TGC cookie's
 * value and logs in whoever holds it, never leaves the server.
 */
export class SessionRepository {
  private readonly db: Kysely<Database>;

  constructor(
    private readonly app: FastifyInstance,
    private readonly handleKey: Buffer,
  ) {
    this.db = app.database.db;
  }

  private mac(tgtId: string): string {
    return createHmac('sha256', this.handleKey).update(tgtId).digest('base64url').slice(0, MAC_LENGTH);
  }

  /** The handle 在线会话 names a session by (also kept with its single-logout deliveries). */
  handleOf(accountId: number, tgtId: string): string {
    return `${accountId}.${this.mac(tgtId)}`;
  }

  /**
   * The CAS's rule for the sessions of an enterprise's accounts: its 安全设置 (session idle minutes,
   * maximum hours), else the platform's (CAS_TGT_IDLE_MINUTES, CAS_TGT_HOURS).
   */
  async limitsOf(enterpriseId: number | null): Promise<SessionLimits> {
    const policy = await this.app.securityPolicyRepository.ofEnterprise(enterpriseId);
    return { idleMinutes: policy.sessionIdleMinutes, maxHours: policy.sessionMaxHours };
  }

  /** The sessions of `owner` that the CAS would still accept now (not expired, not idle too long, not older than the maximum). */
  private live(owner: SessionOwner, limits: SessionLimits, now: Date) {
    const at = now.getTime();
    let query = this.db
      .selectFrom('cas_tgt')
      .innerJoin('account', 'account.id', 'cas_tgt.account_id')
      .where('account.status', '!=', 'deleted')
      .where('cas_tgt.expires_at', '>', now.toISOString())
      .where('cas_tgt.last_used_at', '>', new Date(at - limits.idleMinutes * 60_000).toISOString())
      .where('cas_tgt.created_at', '>', new Date(at - limits.maxHours * 3_600_000).toISOString());
    query =
      'enterpriseId' in owner
        ? query.where('account.enterprise_id', '=', owner.enterpriseId)
        : query.where('account.id', '=', owner.accountId);
    return query;
  }

  private rowsOf(query: ReturnType<SessionRepository['live']>) {
    return query
      .select([
        'cas_tgt.id',
        'cas_tgt.account_id',
        'cas_tgt.ip',
        'cas_tgt.user_agent',
        'cas_tgt.created_at',
        'cas_tgt.last_used_at',
        'account.username',
        'account.name',
      ])
      .orderBy('cas_tgt.last_used_at', 'desc')
      .orderBy('cas_tgt.created_at', 'desc');
  }

  /** The applications each session's tickets reached, in the order first reached, each once. */
  private async applicationsOf(tgtIds: string[]): Promise<Map<string, string[]>> {
    const byTgt = new Map<string, string[]>(tgtIds.map((id) => [id, []]));
    if (tgtIds.length === 0) return byTgt;
    const tickets = await this.db
      .selectFrom('cas_st')
      .leftJoin('sso_application', 'sso_application.id', 'cas_st.application_id')
      .select(['cas_st.tgt_id', 'cas_st.service', 'sso_application.name'])
      .where('cas_st.tgt_id', 'in', tgtIds)
      .orderBy('cas_st.created_at')
      .execute();
    for (const ticket of tickets) {
      const name = ticket.name ?? serviceName(ticket.service);
      const names = byTgt.get(ticket.tgt_id);
      if (names && !names.includes(name)) names.push(name);
    }
    return byTgt;
  }

  private async toRows(
    rows: Awaited<ReturnType<ReturnType<SessionRepository['rowsOf']>['execute']>>,
    currentTicket: string,
  ): Promise<SessionRow[]> {
    const [applications, current] = await Promise.all([
      this.applicationsOf(rows.map((r) => r.id)),
      this.app.casTicketService.tgtOfServiceTicket(currentTicket),
    ]);
    return rows.map((r) => ({
      id: this.handleOf(r.account_id, r.id),
      username: r.username,
      name: r.name,
      ip: r.ip,
      ...clientSoftware(r.user_agent),
      loginAt: chinaTime(new Date(r.created_at)),
      lastActiveAt: chinaTime(new Date(r.last_used_at)),
      applications: applications.get(r.id) ?? [],
      current: r.id === current,
    }));
  }

  /** 在线会话: one page of an enterprise's live sessions, most recently active first; `keyword` matches 账号 or 姓名. */
  async page(enterpriseId: number, keyword: string, offset: number, limit: number, currentTicket: string, now = new Date()) {
    let query = this.live({ enterpriseId }, await this.limitsOf(enterpriseId), now);
    if (keyword) query = query.where((eb) => eb.or([containsText('account.username', keyword), containsText('account.name', keyword)]));
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.rowsOf(query).offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: await this.toRows(rows, currentTicket) };
  }

  /** 个人信息: an account's own live sessions, most recently active first. */
  async ofAccount(accountId: number, enterpriseId: number | null, currentTicket: string, now = new Date()): Promise<SessionRow[]> {
    const rows = await this.rowsOf(this.live({ accountId }, await this.limitsOf(enterpriseId), now)).execute();
    return this.toRows(rows, currentTicket);
  }

  /** The live session a handle names, if `owner` may see it (another enterprise's or account's: none). */
  async find(owner: SessionOwner, handle: string, now = new Date()): Promise<FoundSession | undefined> {
    const match = /^(\d{1,10})\.([A-Za-z0-9_-]+)$/.exec(handle);
    if (!match) return undefined;
    const accountId = Number(match[1]);
    // Ids are 32-bit integers on both databases: a larger number names no account (and PostgreSQL would refuse it).
    if (accountId > 2_147_483_647 || ('accountId' in owner && owner.accountId !== accountId)) return undefined;
    const account = await this.db.selectFrom('account').select('enterprise_id').where('id', '=', accountId).executeTakeFirst();
    if (!account || ('enterpriseId' in owner && account.enterprise_id !== owner.enterpriseId)) return undefined;
    const given = Buffer.from(match[2] ?? '');
    const sessions = await this.live({ accountId }, await this.limitsOf(account.enterprise_id), now)
      .select(['cas_tgt.id', 'cas_tgt.ip', 'cas_tgt.user_agent', 'account.username'])
      .execute();
    const found = sessions.find((s) => {
      const mac = Buffer.from(this.mac(s.id));
      return mac.length === given.length && timingSafeEqual(mac, given);
    });
    return found && { tgtId: found.id, username: found.username, ip: found.ip, userAgent: found.user_agent };
  }

  /**
   * 强制下线: the SSO session ends with the portal sessions its tickets opened and `within` (the audit
   * row), in one transaction; answers the tickets whose services get a single logout, or undefined
   * when the session had ended already.
   */
  async end(tgtId: string, cause: LogoutCause, within: (trx: Kysely<Database>) => Promise<void>): Promise<EndedTickets | undefined> {
    let ended = false;
    const tickets = await this.app.casTicketService.destroyTgt(tgtId, cause, async (trx, issued) => {
      ended = true;
      await this.app.portalSessionService.closeByServiceTickets(
        trx,
        issued.map((t) => t.id),
      );
      await within(trx);
    });
    return ended ? tickets : undefined;
  }
}

/** 已访问应用 of a ticket for no enterprise application: the portal, or the host of a platform-wide service (CAS_SERVICES). */
function serviceName(service: string): string {
  try {
    const url = new URL(service);
    return url.pathname === PORTAL_CALLBACK_PATH ? PORTAL_NAME : url.host;
  } catch {
    return service.slice(0, 64);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionRepository: SessionRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('sessionRepository', new SessionRepository(app, await app.systemRepository.sharedKey('session-handle-hmac')));
  },
  { name: 'session-repository', dependencies: ['system-repository', 'portal-sessions', 'cas-tickets', 'security-policy-repository'] },
);
