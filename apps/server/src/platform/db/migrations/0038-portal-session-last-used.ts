import type { PortalMigration } from './helpers.js';

/**
 * When a portal session was last used: the console's session ends when idle for longer than its
 * enterprise's 会话空闲超时 (等保 2.0 8.1.4.1 b). Sessions open before this migration count from their
 * opening.
 */
export const portalSessionLastUsedMigration: PortalMigration = {
  async up(db) {
    await db.schema.alterTable('portal_session').addColumn('last_used_at', 'varchar(32)').execute();
  },
  async down(db) {
    await db.schema.alterTable('portal_session').dropColumn('last_used_at').execute();
  },
};
