import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { SecurityPolicy } from '@portal/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** CAS 3.0 §3.1.1 / §3.7: ticket ids are long, secure random, `A-Za-z0-9-` only, with their prefix. */
export const newServiceTicketId = () => `ST-${randomBytes(24).toString('hex')}`;
export const newTgtId = () => `TGT-${randomBytes(32).toString('hex')}`;

export const SERVICE_TICKET_PATTERN = /^ST-[A-Za-z0-9-]{1,250}$/;

export interface TicketPolicy {
  serviceTicketSeconds: number;
}

/** The SSO session limits of 安全设置 that apply when an account's enterprise has no policy of its own. */
export type SessionDefaults = Pick<SecurityPolicy, 'sessionIdleMinutes' | 'sessionMaxHours'>;

const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

export class TicketStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: TicketPolicy,
    private readonly sessions: SessionDefaults,
  ) {}

  /**
   * Opens an SSO session for a client (在线会话 shows it); `within` (the login's audit row) commits with
   * it. Its hard limit is the account's enterprise policy's maximum at this login (安全设置: changes
   * apply at the next login).
   */
  async createTgt(
    accountId: number,
    client: { ip: string; userAgent: string },
    within: (trx: Kysely<Database>) => Promise<void>,
    now = new Date(),
  ): Promise<string> {
    const id = newTgtId();
    const iso = now.toISOString();
    await this.db.transaction().execute(async (trx) => {
      const limits = await trx
        .selectFrom('account')
        .leftJoin('security_policy', 'security_policy.enterprise_id', 'account.enterprise_id')
        .select('security_policy.session_max_hours')
        .where('account.id', '=', accountId)
        .executeTakeFirst();
      const maxHours = limits?.session_max_hours ?? this.sessions.sessionMaxHours;
      await trx
        .insertInto('cas_tgt')
        .values({
          id,
          account_id: accountId,
          created_at: iso,
          last_used_at: iso,
          expires_at: later(now, maxHours * 3_600_000),
          ip: client.ip.slice(0, 64),
          user_agent: client.userAgent.slice(0, 500),
        })
        .execute();
      await within(trx);
    });
    return id;
  }

  /**
   * The live TGT of a TGC cookie; touches its idle clock. Its idle limit is the account's enterprise
   * policy's (platform default: Apereo's 2 h idle, 8 h hard).
   */
  async liveTgt(id: string | undefined, now = new Date()): Promise<{ id: string; accountId: number } | undefined> {
    if (!id?.startsWith('TGT-')) return undefined;
    const row = await this.db
      .selectFrom('cas_tgt')
      .innerJoin('account', 'account.id', 'cas_tgt.account_id')
      .leftJoin('security_policy', 'security_policy.enterprise_id', 'account.enterprise_id')
      .select(['cas_tgt.id', 'cas_tgt.account_id', 'cas_tgt.last_used_at', 'cas_tgt.expires_at', 'security_policy.session_idle_minutes'])
      .where('cas_tgt.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const idleMinutes = row.session_idle_minutes ?? this.sessions.sessionIdleMinutes;
    const idleLimit = new Date(now.getTime() - idleMinutes * 60_000).toISOString();
    if (row.expires_at <= now.toISOString() || row.last_used_at <= idleLimit) {
      return undefined;
    }
    await this.db.updateTable('cas_tgt').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
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
    await this.db
      .insertInto('cas_st')
      .values({
        id,
        tgt_id: tgtId,
        service,
        created_at: now.toISOString(),
        expires_at: later(now, this.policy.serviceTicketSeconds * 1000),
        from_login: fromLogin ? 1 : 0,
        application_id: applicationId,
      })
      .execute();
    return id;
  }

  /**
   * Claims a service ticket for validation. CAS 3.0 §3.1.1: a ticket is valid for ONE validation
   * attempt, whatever its outcome, so it is marked first and judged afterwards.
   */
  async claimServiceTicket(id: string, now = new Date()) {
    const claimed = await this.db
      .updateTable('cas_st')
      .set({ validated_at: now.toISOString() })
      .where('id', '=', id)
      .where('validated_at', 'is', null)
      .executeTakeFirst();
    if (!claimed.numUpdatedRows) return undefined;
    return this.db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(['cas_st.service', 'cas_st.expires_at', 'cas_st.from_login', 'cas_st.application_id', 'cas_tgt.account_id'])
      .where('cas_st.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Ends a TGT; answers the service tickets it issued (their services get a single-logout message).
   * `within` (the logout's audit row, 强制下线's end of the portal sessions those tickets opened)
   * commits with it, when there was a TGT to end.
   */
  async destroyTgt(
    id: string,
    within?: (trx: Kysely<Database>, tickets: { id: string; service: string }[]) => Promise<void>,
  ): Promise<{ id: string; service: string }[]> {
    return this.db.transaction().execute(async (trx) => {
      const tickets = await trx.selectFrom('cas_st').select(['id', 'service']).where('tgt_id', '=', id).execute();
      const ended = await trx.deleteFrom('cas_tgt').where('id', '=', id).executeTakeFirst();
      if (ended.numDeletedRows > 0n && within) await within(trx, tickets);
      return tickets;
    });
  }

  /** The SSO session (TGT id) that issued a service ticket (a portal session's: its 当前 session), while that session lasts. */
  async tgtOfServiceTicket(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('cas_st').select('tgt_id').where('id', '=', id).executeTakeFirst();
    return row?.tgt_id;
  }

  /** The account a TGT (live or not) belongs to. */
  async accountOfTgt(id: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('cas_tgt').select('account_id').where('id', '=', id).executeTakeFirst();
    return row?.account_id;
  }

  /**
   * Ends every TGT of an account except the one that issued `keepServiceTicket` (after a password
   * change, inside its transaction); answers the ended ones' tickets.
   */
  async destroyAccountTgts(
    trx: Kysely<Database>,
    accountId: number,
    keepServiceTicket: string,
  ): Promise<{ id: string; service: string }[]> {
    const keep = await trx.selectFrom('cas_st').select('tgt_id').where('id', '=', keepServiceTicket).executeTakeFirst();
    let query = trx.selectFrom('cas_tgt').select('id').where('account_id', '=', accountId);
    if (keep) query = query.where('id', '!=', keep.tgt_id);
    const tgts = (await query.execute()).map((t) => t.id);
    if (tgts.length === 0) return [];
    const tickets = await trx.selectFrom('cas_st').select(['id', 'service']).where('tgt_id', 'in', tgts).execute();
    await trx.deleteFrom('cas_tgt').where('id', 'in', tgts).execute();
    return tickets;
  }

  /** Ends every TGT of these accounts (停用, 删除, an enterprise 停用), inside the caller's transaction; answers their tickets. */
  async destroyAllOf(trx: Kysely<Database>, accountIds: readonly number[]): Promise<{ id: string; service: string }[]> {
    const tickets = await trx
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(['cas_st.id', 'cas_st.service'])
      .where('cas_tgt.account_id', 'in', accountIds)
      .execute();
    await trx.deleteFrom('cas_tgt').where('account_id', 'in', accountIds).execute();
    return tickets;
  }

  /**
   * Ends the tickets issued for one enterprise application (a revoked subscription's copy), inside the
   * caller's transaction, leaving the users' SSO sessions alone; answers them for single logout.
   */
  async destroyTicketsOf(trx: Kysely<Database>, applicationId: number): Promise<{ id: string; service: string }[]> {
    const tickets = await trx.selectFrom('cas_st').select(['id', 'service']).where('application_id', '=', applicationId).execute();
    await trx.deleteFrom('cas_st').where('application_id', '=', applicationId).execute();
    return tickets;
  }

  /** Housekeeping: expired TGTs (with their tickets), idle ones by their account's enterprise policy. */
  async purgeExpired(now = new Date()): Promise<void> {
    await this.db.deleteFrom('cas_tgt').where('expires_at', '<=', now.toISOString()).execute();
    const fallback = this.sessions.sessionIdleMinutes;
    const policies = await this.db.selectFrom('security_policy').select('session_idle_minutes').distinct().execute();
    // One statement per idle limit in use: enterprises share a handful of values.
    for (const minutes of new Set([fallback, ...policies.map((p) => p.session_idle_minutes)])) {
      const idleLimit = new Date(now.getTime() - minutes * 60_000).toISOString();
      await this.db
        .deleteFrom('cas_tgt')
        .where('last_used_at', '<=', idleLimit)
        .where('account_id', 'in', (eb) =>
          eb
            .selectFrom('account')
            .leftJoin('security_policy', 'security_policy.enterprise_id', 'account.enterprise_id')
            .select('account.id')
            .where((w) => w(w.fn.coalesce('security_policy.session_idle_minutes', sql.lit(fallback)), '=', minutes)),
        )
        .execute();
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    casTickets: TicketStore;
  }
}

export default fp(
  async (app) => {
    app.decorate('casTickets', new TicketStore(app.database.db, app.config.auth, app.config.securityDefaults));
    // Housekeeping: expired TGTs and their tickets, every 10 minutes (no timer keeps the process alive).
    const purge = setInterval(
      () => void app.casTickets.purgeExpired().catch((err: unknown) => app.log.warn({ err }, 'ticket purge failed')),
      600_000,
    );
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
  },
  { name: 'cas-tickets' },
);
