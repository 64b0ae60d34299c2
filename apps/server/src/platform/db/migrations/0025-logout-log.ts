import type { PortalMigration } from './helpers.js';

/**
 * 登录日志 records the end of an SSO session (a 登出 row) with the session's handle, which its
 * single-logout deliveries carry too, so the row can show what each application was told.
 */
export const logoutLogMigration: PortalMigration = {
  async up(db) {
    await db.schema.alterTable('login_log').addColumn('session_handle', 'varchar(64)').execute();
    await db.schema.createIndex('logout_delivery_session').on('logout_delivery').column('session_handle').execute();
  },
  async down(db) {
    await db.schema.dropIndex('logout_delivery_session').execute();
    await db.schema.alterTable('login_log').dropColumn('session_handle').execute();
  },
};
