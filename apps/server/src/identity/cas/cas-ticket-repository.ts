import fp from 'fastify-plugin';
import { type Insertable, type Kysely, PostgresAdapter, sql } from 'kysely';
import type { CasStTable, CasTgtTable, Database } from '../../platform/db/schema.js';

/** A service ticket as single logout needs it; an OpenID Connect sign-in's with what the provider issued. */
export interface IssuedTicket {
  id: string;
  service: string;
  /** The SSO session it was issued in, and its account: whose sign-out a single-logout delivery records. */
  tgtId: string;
  accountId: number;
  /** The 应用列表 application it was issued for (null: the portal itself or a CAS_SERVICES address). */
  applicationId: number | null;
  oidc?: OidcSignInTicket;
}

/** An SSO session a statement ended: whose, and the client that opened it (登录日志's 登出 row). */
export interface EndedTgt {
  tgtId: string;
  accountId: number;
  ip: string;
  userAgent: string;
}

const ENDED_COLUMNS = ['id', 'account_id', 'ip', 'user_agent'] as const;
const endedTgt = (r: { id: string; account_id: number; ip: string; user_agent: string }): EndedTgt => ({
  tgtId: r.id,
  accountId: r.account_id,
  ip: r.ip,
  userAgent: r.user_agent,
});

/** What single logout needs of an OpenID Connect sign-in: whom to tell (client, sid, sub) and which grant ends. */
export interface OidcSignInTicket {
  clientId: string;
  sid: string;
  grantId: string;
  sessionUid: string;
  accountId: number;
}

const ISSUED_COLUMNS = [
  'cas_st.id',
  'cas_st.service',
  'cas_st.tgt_id',
  'cas_st.application_id',
  'cas_st.oidc_client_id',
  'cas_st.oidc_sid',
  'cas_st.oidc_grant_id',
  'cas_st.oidc_session_uid',
  'cas_tgt.account_id',
] as const;

function issued(row: {
  id: string;
  service: string;
  tgt_id: string;
  application_id: number | null;
  oidc_client_id: string | null;
  oidc_sid: string | null;
  oidc_grant_id: string | null;
  oidc_session_uid: string | null;
  account_id: number;
}): IssuedTicket {
  const ticket = { id: row.id, service: row.service, tgtId: row.tgt_id, accountId: row.account_id, applicationId: row.application_id };
  if (row.oidc_client_id === null || row.oidc_grant_id === null) return ticket;
  return {
    ...ticket,
    oidc: {
      clientId: row.oidc_client_id,
      sid: row.oidc_sid ?? '',
      grantId: row.oidc_grant_id,
      sessionUid: row.oidc_session_uid ?? '',
      accountId: row.account_id,
    },
  };
}

/** What an OpenID Connect sign-in issued with its ticket. */
export interface OidcTicketLink {
  clientId: string;
  sid: string;
  grantId: string;
  sessionUid: string;
}

/**
 * The CAS's SSO sessions (TGTs) and service tickets. Each method takes the caller's transaction
 * when it has one; the ticket rules (expiries, idle limits, single use) are `TicketStore`'s.
 */
export class CasTicketRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The hard limit (hours) of the account's enterprise policy; undefined: no policy of its own. */
  async sessionMaxHours(accountId: number, db: Kysely<Database> = this.db): Promise<number | undefined> {
    const row = await db
      .selectFrom('account')
      .leftJoin('security_policy', 'security_policy.enterprise_id', 'account.enterprise_id')
      .select('security_policy.session_max_hours')
      .where('account.id', '=', accountId)
      .executeTakeFirst();
    return row?.session_max_hours ?? undefined;
  }

  async insertTgt(row: Insertable<CasTgtTable>, db: Kysely<Database> = this.db): Promise<void> {
    await db.insertInto('cas_tgt').values(row).execute();
  }

  /** A TGT with its times and its account's enterprise idle limit (null: no policy of its own). */
  async tgtWithIdleLimit(id: string) {
    return this.db
      .selectFrom('cas_tgt')
      .innerJoin('account', 'account.id', 'cas_tgt.account_id')
      .leftJoin('security_policy', 'security_policy.enterprise_id', 'account.enterprise_id')
      .select(['cas_tgt.id', 'cas_tgt.account_id', 'cas_tgt.last_used_at', 'cas_tgt.expires_at', 'security_policy.session_idle_minutes'])
      .where('cas_tgt.id', '=', id)
      .executeTakeFirst();
  }

  async touchTgt(id: string, at: string): Promise<void> {
    await this.db.updateTable('cas_tgt').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async insertServiceTicket(row: Insertable<CasStTable>): Promise<void> {
    await this.db.insertInto('cas_st').values(row).execute();
  }

  /** Marks a service ticket validated unless it was already; answers whether this call did. */
  async markValidated(id: string, at: string): Promise<boolean> {
    const claimed = await this.db
      .updateTable('cas_st')
      .set({ validated_at: at })
      .where('id', '=', id)
      .where('validated_at', 'is', null)
      .executeTakeFirst();
    return claimed.numUpdatedRows > 0n;
  }

  /** A service ticket with the account of the TGT that issued it. */
  async serviceTicketWithAccount(id: string) {
    return this.db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select([
        'cas_st.service',
        'cas_st.expires_at',
        'cas_st.from_login',
        'cas_st.application_id',
        'cas_st.tgt_id',
        'cas_tgt.account_id',
        'cas_tgt.created_at as tgt_created_at',
      ])
      .where('cas_st.id', '=', id)
      .executeTakeFirst();
  }

  /** Ties an OpenID Connect sign-in's ticket to what the provider issued with it (single logout reads it). */
  /** Ties a spent ticket to what the provider issued; false when the ticket is gone (its SSO session ended meanwhile). */
  async linkOidc(id: string, link: OidcTicketLink): Promise<boolean> {
    const result = await this.db
      .updateTable('cas_st')
      .set({
        oidc_client_id: link.clientId,
        oidc_sid: link.sid,
        oidc_grant_id: link.grantId,
        oidc_session_uid: link.sessionUid,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async ticketsOfTgts(tgtIds: readonly string[], db: Kysely<Database> = this.db): Promise<IssuedTicket[]> {
    const rows = await db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(ISSUED_COLUMNS)
      .where('cas_st.tgt_id', 'in', tgtIds)
      .execute();
    return rows.map(issued);
  }

  /** The SSO session of a provider session's latest sign-in (its tickets name it). */
  async latestTgtOfOidcSession(sessionUid: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('cas_st')
      .select('tgt_id')
      .where('oidc_session_uid', '=', sessionUid)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.tgt_id;
  }

  /** The SSO sessions whose sign-ins made an OpenID Connect grant (its tickets name it). */
  async tgtsOfOidcGrant(grantId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('cas_st').select('tgt_id').distinct().where('oidc_grant_id', '=', grantId).execute();
    return rows.map((r) => r.tgt_id);
  }

  /** The SSO sessions that signed a provider session in (its tickets name it). */
  async tgtsOfOidcSession(sessionUid: string): Promise<string[]> {
    const rows = await this.db.selectFrom('cas_st').select('tgt_id').distinct().where('oidc_session_uid', '=', sessionUid).execute();
    return rows.map((r) => r.tgt_id);
  }

  /** One service ticket, as single logout would see it. */
  async ticketById(db: Kysely<Database>, id: string): Promise<IssuedTicket | undefined> {
    const row = await db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(ISSUED_COLUMNS)
      .where('cas_st.id', '=', id)
      .executeTakeFirst();
    return row && issued(row);
  }

  async deleteServiceTicket(db: Kysely<Database>, id: string): Promise<void> {
    await db.deleteFrom('cas_st').where('id', '=', id).execute();
  }

  /** Deletes TGTs (their tickets go with them); answers how many there were. */
  /** Deletes these TGTs; answers the ones this statement ended (a concurrent ending of the same one answers it once). */
  async deleteTgts(ids: readonly string[], db: Kysely<Database> = this.db): Promise<EndedTgt[]> {
    const rows = await db.deleteFrom('cas_tgt').where('id', 'in', ids).returning(ENDED_COLUMNS).execute();
    return rows.map(endedTgt);
  }

  async tgtOfServiceTicket(id: string, db: Kysely<Database> = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('cas_st').select('tgt_id').where('id', '=', id).executeTakeFirst();
    return row?.tgt_id;
  }

  async accountOfTgt(id: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('cas_tgt').select('account_id').where('id', '=', id).executeTakeFirst();
    return row?.account_id;
  }

  /** The ids of an account's TGTs, but `except`. */
  /**
   * Locks the account's row until the transaction ends (PostgreSQL; SQLite runs one write transaction
   * at a time): sign-ins of one account that count its sessions queue behind each other.
   */
  async lockAccount(db: Kysely<Database>, accountId: number): Promise<void> {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await db.selectFrom('account').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
  }

  /** The account's SSO sessions neither expired nor idle since `idleSince`, oldest first. */
  async liveTgtsOfAccount(db: Kysely<Database>, accountId: number, now: string, idleSince: string): Promise<string[]> {
    const rows = await db
      .selectFrom('cas_tgt')
      .select('id')
      .where('account_id', '=', accountId)
      .where('expires_at', '>', now)
      .where('last_used_at', '>', idleSince)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async tgtsOfAccount(db: Kysely<Database>, accountId: number, except: string | undefined): Promise<string[]> {
    let query = db.selectFrom('cas_tgt').select('id').where('account_id', '=', accountId);
    if (except !== undefined) query = query.where('id', '!=', except);
    return (await query.execute()).map((t) => t.id);
  }

  async ticketsOfAccounts(db: Kysely<Database>, accountIds: readonly number[]): Promise<IssuedTicket[]> {
    const rows = await db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(ISSUED_COLUMNS)
      .where('cas_tgt.account_id', 'in', accountIds)
      .execute();
    return rows.map(issued);
  }

  async deleteTgtsOfAccounts(db: Kysely<Database>, accountIds: readonly number[]): Promise<EndedTgt[]> {
    const rows = await db.deleteFrom('cas_tgt').where('account_id', 'in', accountIds).returning(ENDED_COLUMNS).execute();
    return rows.map(endedTgt);
  }

  async ticketsOfApplication(db: Kysely<Database>, applicationId: number): Promise<IssuedTicket[]> {
    const rows = await db
      .selectFrom('cas_st')
      .innerJoin('cas_tgt', 'cas_tgt.id', 'cas_st.tgt_id')
      .select(ISSUED_COLUMNS)
      .where('cas_st.application_id', '=', applicationId)
      .execute();
    return rows.map(issued);
  }

  async deleteTicketsOfApplication(db: Kysely<Database>, applicationId: number): Promise<void> {
    await db.deleteFrom('cas_st').where('application_id', '=', applicationId).execute();
  }

  /** The idle limits (minutes) enterprises' policies use. */
  async idleLimitsInUse(): Promise<number[]> {
    const policies = await this.db.selectFrom('security_policy').select('session_idle_minutes').distinct().execute();
    return policies.map((p) => p.session_idle_minutes);
  }

  /**
   * Deletes the TGTs idle since `idleSince` of accounts whose idle limit is `minutes` (`fallback`
   * for accounts whose enterprise has no policy).
   */
  async deleteIdleTgts(idleSince: string, minutes: number, fallback: number): Promise<void> {
    await this.db
      .deleteFrom('cas_tgt')
      .where('last_used_at', '<=', idleSince)
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

declare module 'fastify' {
  interface FastifyInstance {
    casTicketRepository: CasTicketRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('casTicketRepository', new CasTicketRepository(app.database.db));
  },
  { name: 'cas-ticket-repository' },
);
