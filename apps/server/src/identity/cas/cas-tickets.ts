import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { SecurityPolicy } from '@portal/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { PortalMetrics } from '../../platform/lib/metrics.js';
import type { LogoutCause } from '../login-log/login-log-repository.js';
import type { CasTicketRepository, EndedTgt, IssuedTicket, OidcTicketLink } from './cas-ticket-repository.js';

/** CAS 3.0 §3.1.1 / §3.7: ticket ids are long, secure random, `A-Za-z0-9-` only, with their prefix. */
export const newServiceTicketId = () => `ST-${randomBytes(24).toString('hex')}`;
export const newTgtId = () => `TGT-${randomBytes(32).toString('hex')}`;

export const SERVICE_TICKET_PATTERN = /^ST-[A-Za-z0-9-]{1,250}$/;

export interface TicketPolicy {
  serviceTicketSeconds: number;
}

/** The SSO session limits of 安全设置 that apply when an account's enterprise has no policy of its own. */
/** How an SSO session was authenticated (cas_tgt.authn): a SAML assertion's AuthnContextClassRef states it. */
export type SessionAuthn = 'password' | 'mfa' | '';

export type SessionDefaults = Pick<SecurityPolicy, 'sessionIdleMinutes' | 'sessionMaxHours'>;

/** 安全设置's limits on a new SSO session: its hard limit, and the account's cap on concurrent sessions. */
export type SessionLimits = Pick<SecurityPolicy, 'sessionIdleMinutes' | 'sessionMaxHours' | 'sessionMaxConcurrent' | 'sessionOverflow'>;

/** A sign-in the account's cap on concurrent sessions refuses (安全设置's 超出上限时: 拒绝新的登录). */
export class SessionsFullError extends Error {
  constructor(readonly cap: number) {
    super(`已达到同时在线会话数上限（${cap} 个），请先在其他设备退出登录后再试`);
  }
}

/** The tickets of the sessions a delete ended (not of those another request ended first). */
function onlyOf(tickets: IssuedTicket[], ended: EndedTgt[]): IssuedTicket[] {
  const ids = new Set(ended.map((e) => e.tgtId));
  return tickets.filter((t) => ids.has(t.tgtId));
}

const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** Ends, inside an ending session's transaction, the OpenID Connect grants its sign-ins hold (their refresh tokens with them). */
export type GrantEnder = (trx: Kysely<Database>, grantIds: string[]) => Promise<void>;

/** Writes, inside an ending's transaction, the 登录日志 row of each SSO session it ended. */
export type EndRecorder = (trx: Kysely<Database>, ended: EndedTgt[], cause: LogoutCause) => Promise<void>;

export class TicketStore {
  #endGrants: GrantEnder | undefined;

  constructor(
    private readonly tickets: CasTicketRepository,
    private readonly db: Kysely<Database>,
    private readonly policy: TicketPolicy,
    private readonly sessions: SessionDefaults,
    private readonly recordEnds: EndRecorder,
    private readonly metrics?: Pick<PortalMetrics, 'issued'>,
  ) {}

  /** Set by the OpenID provider (which the CAS does not import). */
  useGrantEnder(endGrants: GrantEnder): void {
    this.#endGrants = endGrants;
  }

  /**
   * The grants of ended OpenID Connect sign-ins end in the same transaction, whatever their scope: a
   * refresh token (offline_access too) lives no longer than the SSO session that signed it in.
   */
  private async endGrantsOf(trx: Kysely<Database>, tickets: IssuedTicket[]): Promise<void> {
    const grantIds = [...new Set(tickets.flatMap((t) => (t.oidc ? [t.oidc.grantId] : [])))];
    if (grantIds.length > 0 && this.#endGrants) await this.#endGrants(trx, grantIds);
  }

  /**
   * Opens an SSO session for a client (在线会话 shows it); `within` (the login's audit row) commits with
   * it. Its hard limit is the account's enterprise policy's maximum at this login (安全设置: changes
   * apply at the next login). With a cap on concurrent sessions, a session beyond it ends the oldest
   * live ones (answered, for single logout) or is refused with {@link SessionsFullError}, decided with
   * the account's row locked so that simultaneous sign-ins cannot both slip under the cap.
   */
  async createTgt(
    accountId: number,
    client: { ip: string; userAgent: string; authn?: SessionAuthn | undefined },
    within: (trx: Kysely<Database>) => Promise<void>,
    limits?: SessionLimits,
  ): Promise<{ tgt: string; ended: IssuedTicket[] }> {
    const id = newTgtId();
    const now = new Date();
    const iso = now.toISOString();
    const ended = await this.db.transaction().execute(async (trx) => {
      // The login has usually just read its enterprise's policy; otherwise its hard limit is read here.
      const maxHours = limits?.sessionMaxHours ?? (await this.tickets.sessionMaxHours(accountId, trx)) ?? this.sessions.sessionMaxHours;
      const overCap = limits && limits.sessionMaxConcurrent > 0 ? await this.overCap(trx, accountId, limits, now) : [];
      await this.tickets.insertTgt(
        {
          id,
          account_id: accountId,
          created_at: iso,
          last_used_at: iso,
          expires_at: later(now, maxHours * 3_600_000),
          ip: client.ip.slice(0, 64),
          user_agent: client.userAgent.slice(0, 500),
          authn: client.authn ?? '',
        },
        trx,
      );
      await within(trx);
      return overCap;
    });
    this.metrics?.issued('cas_tgt');
    return { tgt: id, ended };
  }

  /** The sessions a new one of the account would put over its cap, ended here (oldest first); or the refusal. */
  private async overCap(trx: Kysely<Database>, accountId: number, limits: SessionLimits, now: Date): Promise<IssuedTicket[]> {
    await this.tickets.lockAccount(trx, accountId);
    const idleSince = new Date(now.getTime() - limits.sessionIdleMinutes * 60_000).toISOString();
    const live = await this.tickets.liveTgtsOfAccount(trx, accountId, now.toISOString(), idleSince);
    const excess = live.length + 1 - limits.sessionMaxConcurrent;
    if (excess <= 0) return [];
    if (limits.sessionOverflow === 'refuse') throw new SessionsFullError(limits.sessionMaxConcurrent);
    const oldest = live.slice(0, excess);
    const issued = await this.tickets.ticketsOfTgts(oldest, trx);
    const ended = await this.tickets.deleteTgts(oldest, trx);
    const tickets = onlyOf(issued, ended);
    await this.endGrantsOf(trx, tickets);
    await this.recordEnds(trx, ended, { reason: 'session-cap' });
    return tickets;
  }

  /**
   * The live TGT of a TGC cookie; touches its idle clock. Its idle limit is the account's enterprise
   * policy's (platform default: Apereo's 2 h idle, 8 h hard).
   */
  async liveTgt(id: string | undefined, now = new Date()): Promise<{ id: string; accountId: number } | undefined> {
    if (!id?.startsWith('TGT-')) return undefined;
    const row = await this.tickets.tgtWithIdleLimit(id);
    if (!row) return undefined;
    const idleMinutes = row.session_idle_minutes ?? this.sessions.sessionIdleMinutes;
    const idleLimit = new Date(now.getTime() - idleMinutes * 60_000).toISOString();
    if (row.expires_at <= now.toISOString() || row.last_used_at <= idleLimit) {
      return undefined;
    }
    await this.tickets.touchTgt(id, now.toISOString());
    return { id: row.id, accountId: row.account_id };
  }

  /** `applicationId`: the enterprise application the ticket is for (null: the portal or a CAS_SERVICES address). */
  async issueServiceTicket(
    tgtId: string,
    service: string,
    fromLogin: boolean,
    applicationId: number | null,
    now = new Date(),
  ): Promise<string> {
    const id = newServiceTicketId();
    await this.tickets.insertServiceTicket({
      id,
      tgt_id: tgtId,
      service,
      created_at: now.toISOString(),
      expires_at: later(now, this.policy.serviceTicketSeconds * 1000),
      from_login: fromLogin ? 1 : 0,
      application_id: applicationId,
    });
    this.metrics?.issued('cas_service_ticket');
    return id;
  }

  /**
   * Claims a service ticket for validation. CAS 3.0 §3.1.1: a ticket is valid for ONE validation
   * attempt, whatever its outcome, so it is marked first and judged afterwards.
   */
  async claimServiceTicket(id: string, now = new Date()) {
    if (!(await this.tickets.markValidated(id, now.toISOString()))) return undefined;
    return this.tickets.serviceTicketWithAccount(id);
  }

  /**
   * Ends a TGT; answers the service tickets it issued (their services get a single-logout message).
   * `within` (the logout's audit row, 强制下线's end of the portal sessions those tickets opened)
   * commits with it, when there was a TGT to end.
   */
  async destroyTgt(
    id: string,
    cause: LogoutCause,
    within?: (trx: Kysely<Database>, tickets: IssuedTicket[]) => Promise<void>,
  ): Promise<IssuedTicket[]> {
    return this.db.transaction().execute(async (trx) => {
      const tickets = await this.tickets.ticketsOfTgts([id], trx);
      const ended = await this.tickets.deleteTgts([id], trx);
      // Ended by another request at the same moment: that one logs it and tells its applications.
      if (ended.length === 0) return [];
      await this.endGrantsOf(trx, tickets);
      await this.recordEnds(trx, ended, cause);
      if (within) await within(trx, tickets);
      return tickets;
    });
  }

  /**
   * Ends the sign-in of one service ticket alone, leaving its SSO session (接入自检's test sign-in, when
   * the run ends): the ticket and the OpenID Connect grant it made, with every token under it, go in one
   * transaction, so no single-logout message names it later. Answers what was ended.
   */
  async forgetServiceTicket(id: string): Promise<IssuedTicket | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const ticket = await this.tickets.ticketById(trx, id);
      if (!ticket) return undefined;
      await this.tickets.deleteServiceTicket(trx, id);
      await this.endGrantsOf(trx, [ticket]);
      return ticket;
    });
  }

  /**
   * A sign-in an SSO session made without a browser visit to the CAS (OpenID Connect `prompt=none`): a
   * ticket row already validated, with what the provider issued, so single logout and 在线会话 see it.
   */
  async recordSignIn(tgtId: string, service: string, applicationId: number | null, link: OidcTicketLink, now = new Date()): Promise<void> {
    await this.tickets.insertServiceTicket({
      id: newServiceTicketId(),
      tgt_id: tgtId,
      service,
      created_at: now.toISOString(),
      expires_at: now.toISOString(),
      from_login: 0,
      validated_at: now.toISOString(),
      application_id: applicationId,
      oidc_client_id: link.clientId,
      oidc_sid: link.sid,
      oidc_grant_id: link.grantId,
      oidc_session_uid: link.sessionUid,
    });
  }

  /** The SSO session of a provider session's latest sign-in, if it is still live (touching its idle clock, as an SSO ticket does). */
  async liveTgtOfOidcSession(sessionUid: string): Promise<{ id: string; accountId: number } | undefined> {
    return this.liveTgt(await this.tickets.latestTgtOfOidcSession(sessionUid));
  }

  /** Whether an SSO session whose sign-in made an OpenID Connect grant is live (touching its idle clock, as a refresh is use). */
  async liveTgtOfOidcGrant(grantId: string): Promise<boolean> {
    for (const tgt of await this.tickets.tgtsOfOidcGrant(grantId)) if (await this.liveTgt(tgt)) return true;
    return false;
  }

  /** The SSO sessions that signed in a provider session (RP-initiated logout ends them). */
  tgtsOfOidcSession(sessionUid: string): Promise<string[]> {
    return this.tickets.tgtsOfOidcSession(sessionUid);
  }

  /** The SSO session (TGT id) that issued a service ticket (a portal session's: its 当前 session), while that session lasts. */
  async tgtOfServiceTicket(id: string): Promise<string | undefined> {
    return this.tickets.tgtOfServiceTicket(id);
  }

  /** The account a TGT (live or not) belongs to. */
  async accountOfTgt(id: string): Promise<number | undefined> {
    return this.tickets.accountOfTgt(id);
  }

  /**
   * Ends every TGT of an account except the one that issued `keepServiceTicket` (after a password
   * change, or at 退出其他设备, inside its transaction); answers the ended ones' tickets.
   */
  async destroyAccountTgts(
    trx: Kysely<Database>,
    accountId: number,
    keepServiceTicket: string,
    cause: LogoutCause = { reason: 'password-changed' },
  ): Promise<IssuedTicket[]> {
    const keep = await this.tickets.tgtOfServiceTicket(keepServiceTicket, trx);
    const tgts = await this.tickets.tgtsOfAccount(trx, accountId, keep);
    if (tgts.length === 0) return [];
    const issued = await this.tickets.ticketsOfTgts(tgts, trx);
    const ended = await this.tickets.deleteTgts(tgts, trx);
    const tickets = onlyOf(issued, ended);
    await this.endGrantsOf(trx, tickets);
    await this.recordEnds(trx, ended, cause);
    return tickets;
  }

  /** Ends every TGT of these accounts (停用, 删除, an enterprise 停用), inside the caller's transaction; answers their tickets. */
  async destroyAllOf(trx: Kysely<Database>, accountIds: readonly number[], cause: LogoutCause): Promise<IssuedTicket[]> {
    const tickets = await this.tickets.ticketsOfAccounts(trx, accountIds);
    const ended = await this.tickets.deleteTgtsOfAccounts(trx, accountIds);
    // Only what this statement ended: a session another request ended at the same moment is that one's to tell.
    const ours = onlyOf(tickets, ended);
    await this.endGrantsOf(trx, ours);
    await this.recordEnds(trx, ended, cause);
    return ours;
  }

  /**
   * Ends the tickets issued for one enterprise application (a revoked subscription's copy), inside the
   * caller's transaction, leaving the users' SSO sessions alone; answers them for single logout.
   */
  async destroyTicketsOf(trx: Kysely<Database>, applicationId: number): Promise<IssuedTicket[]> {
    const tickets = await this.tickets.ticketsOfApplication(trx, applicationId);
    await this.tickets.deleteTicketsOfApplication(trx, applicationId);
    await this.endGrantsOf(trx, tickets);
    return tickets;
  }

  /** Housekeeping (a retention step): TGTs idle for longer than their account's enterprise policy allows, with their tickets. */
  async endIdleSessions(now = new Date()): Promise<void> {
    const fallback = this.sessions.sessionIdleMinutes;
    const limits = await this.tickets.idleLimitsInUse();
    // One statement per idle limit in use: enterprises share a handful of values.
    for (const minutes of new Set([fallback, ...limits])) {
      const idleLimit = new Date(now.getTime() - minutes * 60_000).toISOString();
      await this.tickets.deleteIdleTgts(idleLimit, minutes, fallback);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    casTicketService: TicketStore;
  }
}

export default fp(
  async (app) => {
    app.decorate(
      'casTicketService',
      new TicketStore(
        app.casTicketRepository,
        app.database.db,
        app.config.auth,
        app.config.securityDefaults,
        (trx, ended, cause) =>
          app.loginLogRepository.recordLogouts(
            trx,
            ended.map((e) => ({ ...e, handle: app.sessionRepository.handleOf(e.accountId, e.tgtId) })),
            cause,
          ),
        app.metrics,
      ),
    );
    // Expired TGTs go with the retention job's tables; idle ones need each enterprise's policy.
    app.retentionService.add('idle SSO sessions', (now) => app.casTicketService.endIdleSessions(now));
  },
  { name: 'cas-tickets', dependencies: ['cas-ticket-repository', 'retention'] },
);
