import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * 开放服务 and application subscription: the six developer tools of the open-service centre
 * (fixed ids 01–06, spec section 9), the single sign-on settings of the application center's
 * applications, and the enterprises' subscriptions to them. An approved subscription is an
 * `sso_application` row of the enterprise that points at its platform application.
 */
export const openServiceMigration: PortalMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('open_service_tool')
      // '01'..'06' (spec: fixed ids); operators edit the six, never add or remove one.
      .addColumn('id', 'varchar(2)', (c) => c.primaryKey())
      .addColumn('title', 'varchar(32)', (c) => c.notNull())
      .addColumn('summary', 'varchar(200)', (c) => c.notNull())
      // Sanitised HTML (the article sanitiser): what it is, capabilities, how to start, documents.
      .addColumn('body', 'text', (c) => c.notNull())
      // An icon name of OPEN_SERVICE_ICONS.
      .addColumn('icon', 'varchar(32)', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      // online | offline
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('online'))
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    // A platform application's single sign-on settings (set by operators; '' = not on single sign-on).
    for (const [name, size] of [
      ['service_url', 500],
      ['service_host', 255],
      ['logout_url', 500],
      ['attributes', 200],
    ] as const) {
      await db.schema
        .alterTable('app_application')
        .addColumn(name, `varchar(${size})`, (c) => c.notNull().defaultTo(''))
        .execute();
    }
    await db.schema.createIndex('app_application_service_host').on('app_application').column('service_host').execute();

    // The enterprise's copy of a subscribed platform application (null: the enterprise's own).
    await db.schema
      .alterTable('sso_application')
      .addColumn('platform_app_id', 'integer', (c) => c.references('app_application.id').onDelete('cascade'))
      .execute();
    await db.schema
      .createIndex('sso_application_platform')
      .unique()
      .on('sso_application')
      .columns(['platform_app_id', 'enterprise_id'])
      .execute();

    await withId(db.schema.createTable('app_subscription'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('application_id', 'integer', (c) => c.notNull().references('app_application.id').onDelete('cascade'))
      // pending | approved | rejected | revoked
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      // 申请说明 (the applicant's purpose).
      .addColumn('purpose', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // The operator's reason when rejecting or revoking.
      .addColumn('decision_note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('applicant_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('decided_by', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('decided_at', 'varchar(32)')
      .execute();
    // One live (pending or approved) subscription per enterprise and application; a concurrent twin fails here.
    await db.schema
      .createIndex('app_subscription_live')
      .unique()
      .on('app_subscription')
      .columns(['enterprise_id', 'application_id'])
      .where(sql.ref('status'), 'in', ['pending', 'approved'])
      .execute();
    await db.schema.createIndex('app_subscription_queue').on('app_subscription').columns(['status', 'id']).execute();
  },

  async down(db) {
    await db.schema.dropTable('app_subscription').execute();
    await db.schema.dropIndex('sso_application_platform').execute();
    await db.schema.alterTable('sso_application').dropColumn('platform_app_id').execute();
    await db.schema.dropIndex('app_application_service_host').execute();
    for (const name of ['service_url', 'service_host', 'logout_url', 'attributes']) {
      await db.schema.alterTable('app_application').dropColumn(name).execute();
    }
    await db.schema.dropTable('open_service_tool').execute();
  },
};
