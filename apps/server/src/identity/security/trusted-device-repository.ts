import fp from 'fastify-plugin';
import type { Insertable, Kysely } from 'kysely';
import type { Database, TrustedDeviceTable } from '../../platform/db/schema.js';

/** A trusted device's row as 个人信息 and 账号管理 list it. */
export interface TrustedDeviceRecord {
  id: number;
  userAgent: string;
  ip: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}

/** 信任此设备 (`trusted_device`): browsers that may skip an account's second factor, by the SHA-256 of their cookie's token. */
export class TrustedDeviceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a device; the account's expired ones go with it, so the table holds live trust only. */
  async insert(trx: Kysely<Database>, row: Insertable<TrustedDeviceTable>): Promise<void> {
    await trx.deleteFrom('trusted_device').where('account_id', '=', row.account_id).where('expires_at', '<=', row.created_at).execute();
    await trx.insertInto('trusted_device').values(row).execute();
  }

  /**
   * Marks the account's device with this token hash used, if it is unexpired and trusted after
   * `notBefore` (the policy's days now, which may be fewer than when it was trusted); answers whether it did.
   */
  async use(accountId: number, tokenHash: string, now: string, notBefore: string): Promise<boolean> {
    const used = await this.db
      .updateTable('trusted_device')
      .set({ last_used_at: now })
      .where('account_id', '=', accountId)
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .where('created_at', '>', notBefore)
      .executeTakeFirst();
    return used.numUpdatedRows > 0n;
  }

  /** The account's unexpired devices, newest first. */
  async list(accountId: number, now: string): Promise<TrustedDeviceRecord[]> {
    const rows = await this.db
      .selectFrom('trusted_device')
      .select(['id', 'user_agent', 'ip', 'created_at', 'last_used_at', 'expires_at'])
      .where('account_id', '=', accountId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      userAgent: r.user_agent,
      ip: r.ip,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      expiresAt: r.expires_at,
    }));
  }

  /** Removes one of the account's devices inside the caller's transaction; answers whether it was there. */
  async remove(trx: Kysely<Database>, accountId: number, deviceId: number): Promise<boolean> {
    const removed = await trx
      .deleteFrom('trusted_device')
      .where('account_id', '=', accountId)
      .where('id', '=', deviceId)
      .executeTakeFirst();
    return removed.numDeletedRows > 0n;
  }

  /** Every device of the account goes (a new password, a reset second factor), inside the caller's transaction. */
  async removeAll(trx: Kysely<Database>, accountId: number): Promise<number> {
    const removed = await trx.deleteFrom('trusted_device').where('account_id', '=', accountId).executeTakeFirst();
    return Number(removed.numDeletedRows);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    trustedDeviceRepository: TrustedDeviceRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('trustedDeviceRepository', new TrustedDeviceRepository(app.database.db));
  },
  { name: 'trusted-device-repository' },
);
