import type { PortalMigration } from './helpers.js';

/**
 * How an SSO session was authenticated, for the SAML assertion's AuthnContextClassRef: 'password', 'mfa'
 * (a passkey, or a password with a second factor at that login), or '' (another way, or not known).
 */
export const ssoSessionAuthnMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .alterTable('cas_tgt')
      .addColumn('authn', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('cas_tgt').dropColumn('authn').execute();
  },
};
