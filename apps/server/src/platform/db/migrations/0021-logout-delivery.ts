import { withId, type PortalMigration } from './helpers.js';

/**
 * Single-logout deliveries: one row per message to an application when a sign-on session ends (a CAS
 * logoutRequest or an OpenID Connect back-channel logout_token), with its outcome, the reason of a
 * failure and when it is tried again. The row keeps what a retry needs to send the same message.
 */
export const logoutDeliveryMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('logout_delivery'), dialect)
      .addColumn('enterprise_id', 'integer')
      .addColumn('account_id', 'integer', (c) => c.notNull())
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      // The 在线会话 handle of the ended session (account id and a MAC of the SSO session's id).
      .addColumn('session_handle', 'varchar(64)', (c) => c.notNull())
      .addColumn('application_id', 'integer')
      .addColumn('application_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
      .addColumn('target', 'varchar(2048)', (c) => c.notNull())
      // Sent through the outbound rules (an address an enterprise typed) or not (configured services).
      .addColumn('guarded', 'integer', (c) => c.notNull())
      .addColumn('ticket_id', 'varchar(64)')
      .addColumn('client_id', 'varchar(64)')
      .addColumn('sid', 'varchar(64)')
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('logout_delivery_due').on('logout_delivery').column('next_at').execute();
    await db.schema.createIndex('logout_delivery_enterprise').on('logout_delivery').columns(['enterprise_id', 'id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('logout_delivery').execute();
  },
};
