import fp from 'fastify-plugin';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, LogoutDeliveryTable } from '../../platform/db/schema.js';

export type LogoutDeliveryRow = Selectable<LogoutDeliveryTable>;
export type NewLogoutDelivery = Insertable<LogoutDeliveryTable>;

/** Whose deliveries a reader sees: one enterprise's, or (without an enterprise) one account's. */
export type DeliveryScope = { enterpriseId: number } | { accountId: number };

/** The single-logout delivery log's SQL. */
export class LogoutDeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(rows: NewLogoutDelivery[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('logout_delivery').values(rows).execute();
  }

  /** The enterprise names and usernames of the accounts whose sessions ended (deleted accounts too). */
  async accounts(ids: readonly number[]): Promise<Map<number, { username: string; enterpriseId: number | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('account')
      .select(['id', 'username', 'enterprise_id'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, { username: r.username, enterpriseId: r.enterprise_id }]));
  }

  /** Deliveries whose retry is due at `now`, oldest first. */
  due(now: Date, limit: number): Promise<LogoutDeliveryRow[]> {
    return this.db
      .selectFrom('logout_delivery')
      .selectAll()
      .where('next_at', '<=', now.toISOString())
      .orderBy('next_at')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a due delivery for one retry: moves its next time on by the lease in one conditional update,
   * so of several instances exactly one sends it (the same as the sync scheduler's claim).
   */
  async claim(id: number, seenNextAt: string, leaseUntil: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('logout_delivery')
      .set({ next_at: leaseUntil.toISOString() })
      .where('id', '=', id)
      .where('next_at', '=', seenNextAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes a retry's outcome if the claim that ends at `leaseUntil` still holds the row. */
  async record(
    id: number,
    leaseUntil: Date,
    outcome: Pick<LogoutDeliveryRow, 'state' | 'reason' | 'attempts' | 'next_at'>,
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('logout_delivery')
      .set({ ...outcome, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('next_at', '=', leaseUntil.toISOString())
      .execute();
  }

  /** One page of the deliveries the scope sees, newest first, and how many there are. */
  async page(scope: DeliveryScope, offset: number, limit: number): Promise<{ total: number; rows: LogoutDeliveryRow[] }> {
    const scoped = () => {
      const query = this.db.selectFrom('logout_delivery');
      return 'enterpriseId' in scope
        ? query.where('enterprise_id', '=', scope.enterpriseId)
        : query.where('account_id', '=', scope.accountId).where('enterprise_id', 'is', null);
    };
    const [count, rows] = await Promise.all([
      scoped()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      scoped().selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** The messages one ended session sent (a handful: one per application it signed in to), oldest first. */
  async ofSession(handle: string, limit: number) {
    return this.db.selectFrom('logout_delivery').selectAll().where('session_handle', '=', handle).orderBy('id').limit(limit).execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    logoutDeliveryRepository: LogoutDeliveryRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('logoutDeliveryRepository', new LogoutDeliveryRepository(app.database.db));
  },
  { name: 'logout-delivery-repository' },
);
