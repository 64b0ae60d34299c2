import type { PortalMigration } from './helpers.js';

const COLUMNS = ['oidc_client_id', 'oidc_sid', 'oidc_grant_id', 'oidc_session_uid'] as const;

/**
 * OpenID Connect sign-in through the central login: each sign-in leaves the CAS service ticket of its
 * callback, and these columns tie it to what the provider issued (the client, its `sid` for
 * back-channel logout, the grant whose tokens end with the SSO session, the provider session). The
 * SSO session (cas_tgt) stays the one source of truth; its end reaches these rows by the existing cascade.
 */
export const oidcSignInMigration: PortalMigration = {
  async up(db) {
    // One column per statement: SQLite adds one at a time.
    for (const column of COLUMNS) await db.schema.alterTable('cas_st').addColumn(column, 'varchar(64)').execute();
    await db.schema.createIndex('cas_st_oidc_session').on('cas_st').column('oidc_session_uid').execute();
  },
  async down(db) {
    await db.schema.dropIndex('cas_st_oidc_session').execute();
    for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('cas_st').dropColumn(column).execute();
  },
};
