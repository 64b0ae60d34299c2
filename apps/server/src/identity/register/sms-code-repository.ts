import fp from 'fastify-plugin';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database, SmsCodeTable } from '../../platform/db/schema.js';

/** SMS verification codes (`sms_code`): the rows are both the codes and the send counters. */
export class SmsCodeRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** Serialises the transaction's sends to one phone (a PostgreSQL advisory lock; SQLite writes one at a time anyway). */
  async lockPhone(trx: Kysely<Database>, phone: string): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`sms|${phone}`}))`.execute(trx);
  }

  /** When codes were sent to the phone after `since`, newest first. */
  async sentTo(trx: Kysely<Database>, phone: string, since: string): Promise<{ created_at: string }[]> {
    return trx
      .selectFrom('sms_code')
      .select('created_at')
      .where('phone', '=', phone)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** How many codes were sent for a client IP after `since`, and the oldest of them. */
  async sentFromIp(trx: Kysely<Database>, ip: string, since: string): Promise<{ n: number; oldest: string | null }> {
    const row = await trx
      .selectFrom('sms_code')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('ip', '=', ip)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), oldest: row.oldest };
  }

  /** Ends the phone's unspent codes of a purpose. */
  async consumeOpen(trx: Kysely<Database>, phone: string, purpose: string, at: string): Promise<void> {
    await trx
      .updateTable('sms_code')
      .set({ consumed_at: at })
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();
  }

  async insert(trx: Kysely<Database>, row: Insertable<SmsCodeTable>): Promise<number> {
    const inserted = await trx.insertInto('sms_code').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('sms_code').where('id', '=', id).execute();
  }

  /** The phone's newest unspent code of a purpose. */
  async latestOpen(phone: string, purpose: string) {
    return this.db
      .selectFrom('sms_code')
      .select(['id', 'code_hash', 'expires_at'])
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** Takes one of a code's tries, in one statement, unless `max` are taken; answers the tries taken, or undefined. */
  async takeTry(id: number, max: number): Promise<number | undefined> {
    const tried = await this.db
      .updateTable('sms_code')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', max)
      .returning('attempts')
      .executeTakeFirst();
    return tried?.attempts;
  }

  /** Spends a code unless it was spent; answers whether this call did. */
  async consume(trx: Kysely<Database>, id: number, at: string): Promise<boolean> {
    const spent = await trx
      .updateTable('sms_code')
      .set({ consumed_at: at })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return spent.numUpdatedRows > 0n;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    smsCodeRepository: SmsCodeRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('smsCodeRepository', new SmsCodeRepository(app.database.db, app.database.dialect));
  },
  { name: 'sms-code-repository' },
);
