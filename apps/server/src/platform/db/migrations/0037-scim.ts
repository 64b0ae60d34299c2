import { withId, type PortalMigration } from './helpers.js';

/**
 * SCIM 2.0 provisioning: the enterprise's bearer tokens (only a SHA-256 of each is kept), and what
 * SCIM knows of an account or 账号组 beyond its own columns (the client's externalId, the name's parts,
 * the enterprise extension's department and manager).
 */
export const scimMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('scim_token'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('hint', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('last_used_ip', 'varchar(64)')
      .addUniqueConstraint('scim_token_name', ['enterprise_id', 'name'])
      .execute();
    await db.schema
      .createTable('scim_user')
      .addColumn('account_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
      .addColumn('enterprise_id', 'integer', (c) => c.notNull())
      .addColumn('external_id', 'varchar(255)')
      .addColumn('family_name', 'varchar(64)')
      .addColumn('given_name', 'varchar(64)')
      .addColumn('department', 'varchar(128)')
      .addColumn('manager_id', 'integer')
      .execute();
    await db.schema.createIndex('scim_user_external').on('scim_user').columns(['enterprise_id', 'external_id']).execute();
    await db.schema
      .createTable('scim_group')
      .addColumn('group_id', 'integer', (c) => c.primaryKey().references('account_group.id').onDelete('cascade'))
      .addColumn('enterprise_id', 'integer', (c) => c.notNull())
      .addColumn('external_id', 'varchar(255)')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('scim_group_external').on('scim_group').columns(['enterprise_id', 'external_id']).execute();
  },
  async down(db) {
    await db.schema.dropTable('scim_group').execute();
    await db.schema.dropTable('scim_user').execute();
    await db.schema.dropTable('scim_token').execute();
  },
};
