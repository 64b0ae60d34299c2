import type { PortalMigration } from './helpers.js';

/** A refresh finds the SSO sessions behind its grant by the grant id (identity/oidc: a refresh lives as long as its SSO session). */
export const oidcGrantLookupMigration: PortalMigration = {
  async up(db) {
    await db.schema.createIndex('cas_st_oidc_grant').on('cas_st').column('oidc_grant_id').execute();
  },
  async down(db) {
    await db.schema.dropIndex('cas_st_oidc_grant').execute();
  },
};
