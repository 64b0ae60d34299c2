import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * SAML 2.0 认证源 (the portal as a service provider of an enterprise's own IdP): the assertion IDs it took
 * (each once, until it expires) and each federated sign-in's NameID and SessionIndex for single logout both ways.
 */
export const samlSourcesMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('saml_source_message'), dialect)
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      // assertion: an assertion taken (a replay is refused until it expires); the kind leaves room for others.
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('message_id', 'varchar(256)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('saml_source_message_once', ['source_id', 'kind', 'message_id'])
      .execute();
    await db.schema.createIndex('saml_source_message_expires').on('saml_source_message').column('expires_at').execute();

    await withId(db.schema.createTable('saml_source_session'), dialect)
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('name_id', 'varchar(256)', (c) => c.notNull())
      .addColumn('name_id_format', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('session_index', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saml_source_session_account').on('saml_source_session').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('saml_source_session_name').on('saml_source_session').columns(['source_id', 'name_id']).execute();
    await db.schema.createIndex('saml_source_session_expires').on('saml_source_session').column('expires_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('saml_source_session').execute();
    await db.schema.dropTable('saml_source_message').execute();
  },
};
