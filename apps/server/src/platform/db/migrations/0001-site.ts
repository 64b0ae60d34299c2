import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

// Migrations take Kysely<unknown>: they describe the schema at their own point in time.
export const siteMigration: PortalMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('site_setting')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('nav_item'), dialect)
      .addColumn('key', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('title', 'varchar(32)', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await withId(db.schema.createTable('footer_link'), dialect)
      .addColumn('group_title', 'varchar(32)', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('url', 'varchar(512)', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('footer_link').execute();
    await db.schema.dropTable('nav_item').execute();
    await db.schema.dropTable('site_setting').execute();
  },
};
