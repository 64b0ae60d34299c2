import type { PortalMigration } from './helpers.js';

/**
 * A SAML sign-in remembers whether its AuthnRequest was passive (SAML Core §3.4.1 IsPassive): without a
 * sign-on session the central login shows nothing and the SP gets a NoPassive answer.
 */
export const samlPassiveMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .alterTable('saml_sign_in')
      .addColumn('is_passive', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('saml_sign_in').dropColumn('is_passive').execute();
  },
};
