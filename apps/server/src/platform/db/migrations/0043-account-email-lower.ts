import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * Accounts by email, case-insensitively: an email-format SAML NameID is refused when another account
 * holds the same address, and that check runs at every such sign-in over millions of accounts.
 */
export const accountEmailLowerMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .createIndex('account_email_lower_idx')
      .on('account')
      .expression(sql`lower(email)`)
      .execute();
  },
  async down(db) {
    await db.schema.dropIndex('account_email_lower_idx').execute();
  },
};
