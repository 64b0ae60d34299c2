import type { PortalMigration } from './helpers.js';

/**
 * When a portal session's user last proved who they are (the CAS login behind it, or 验证身份 since):
 * sensitive changes ask again when it is older than REAUTH_MINUTES. Sessions open before this
 * migration have none and count from their opening.
 */
export const reauthMigration: PortalMigration = {
  async up(db) {
    await db.schema.alterTable('portal_session').addColumn('authenticated_at', 'varchar(32)').execute();
  },
  async down(db) {
    await db.schema.alterTable('portal_session').dropColumn('authenticated_at').execute();
  },
};
