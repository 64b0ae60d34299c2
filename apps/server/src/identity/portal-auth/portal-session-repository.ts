import fp from 'fastify-plugin';
import type { Insertable, Kysely } from 'kysely';
import type { Database, PortalSessionTable } from '../../platform/db/schema.js';

/** The portal's sessions (`portal_session`, keyed by the SHA-256 of the cookie). */
export class PortalSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<PortalSessionTable>): Promise<void> {
    await this.db.insertInto('portal_session').values(row).execute();
  }

  /** A session with its account's and enterprise's states. */
  async withAccount(key: string) {
    return this.db
      .selectFrom('portal_session')
      .innerJoin('account', 'account.id', 'portal_session.account_id')
      .leftJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select([
        'portal_session.id',
        'portal_session.account_id',
        'portal_session.service_ticket',
        'portal_session.expires_at',
        'portal_session.created_at',
        'portal_session.authenticated_at',
        'portal_session.last_used_at',
        'account.enterprise_id',
        'account.status',
        'enterprise.status as enterprise_status',
      ])
      .where('portal_session.id', '=', key)
      .executeTakeFirst();
  }

  async setAuthenticatedAt(key: string, at: string): Promise<void> {
    await this.db.updateTable('portal_session').set({ authenticated_at: at }).where('id', '=', key).execute();
  }

  async setLastUsedAt(key: string, at: string): Promise<void> {
    await this.db.updateTable('portal_session').set({ last_used_at: at }).where('id', '=', key).execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('portal_session').where('id', '=', key).execute();
  }

  /** Deletes the sessions these service tickets opened; answers how many there were. */
  async deleteByServiceTickets(serviceTickets: readonly string[], db: Kysely<Database> = this.db): Promise<number> {
    const r = await db.deleteFrom('portal_session').where('service_ticket', 'in', serviceTickets).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async deleteOthersOf(accountId: number, keepKey: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('portal_session').where('account_id', '=', accountId).where('id', '!=', keepKey).execute();
  }

  async deleteAllOf(db: Kysely<Database>, accountIds: readonly number[]): Promise<void> {
    await db.deleteFrom('portal_session').where('account_id', 'in', accountIds).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    portalSessionRepository: PortalSessionRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('portalSessionRepository', new PortalSessionRepository(app.database.db));
  },
  { name: 'portal-session-repository' },
);
