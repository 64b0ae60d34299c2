import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Per-enterprise upload quota (UPLOAD_QUOTA_MB): each uploaded file with its enterprise and size, and
 * each enterprise's running total, which one conditional update raises (concurrent uploads queue on
 * the total's row). Accounts without an enterprise share the total of enterprise 0. Files uploaded
 * before this migration are not counted.
 */
export const uploadQuotaMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('uploaded_file'), dialect)
      .addColumn('enterprise_id', 'integer')
      .addColumn('account_id', 'integer')
      .addColumn('path', 'varchar(200)', (c) => c.notNull().unique())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('uploaded_file_enterprise').on('uploaded_file').column('enterprise_id').execute();
    await db.schema
      .createTable('upload_usage')
      .addColumn('enterprise_id', 'integer', (c) => c.primaryKey())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('upload_usage').execute();
    await db.schema.dropTable('uploaded_file').execute();
  },
};
