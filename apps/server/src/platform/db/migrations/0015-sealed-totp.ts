import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * TOTP secrets are kept sealed (AES-256-GCM, `lib/sealed-secret.ts`): the sealed form of a 32-character
 * base32 secret is 83 characters. SQLite does not enforce varchar lengths; PostgreSQL needs the room.
 * Secrets stored in the clear are sealed by the two-factor plugin at start (it holds the key).
 */
export const sealedTotpMigration: PortalMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await db.schema
      .alterTable('account')
      .alterColumn('totp_secret', (c) => c.setDataType('varchar(160)'))
      .execute();
  },
  async down(db, dialect) {
    if (dialect !== 'postgres') return;
    // Sealed secrets do not fit the old width: enrolments start over.
    await sql`update account set totp_secret = null, totp_enabled_at = null, totp_last_step = null`.execute(db);
    await db.schema
      .alterTable('account')
      .alterColumn('totp_secret', (c) => c.setDataType('varchar(64)'))
      .execute();
  },
};
