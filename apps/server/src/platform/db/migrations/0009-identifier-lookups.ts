import type { PortalMigration } from './helpers.js';

/**
 * Identifier lookups per prefix and China date (工作台: an enterprise's identifier lookups):
 * the public resolution counts the local records it answers in memory and adds them here once a
 * second, so a lookup never waits for a write.
 */
export const identifierLookupsMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .createTable('idf_lookup_day')
      .addColumn('prefix_id', 'integer', (c) => c.notNull().references('idf_prefix.id').onDelete('cascade'))
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('lookups', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_lookup_day_pk', ['prefix_id', 'day'])
      .execute();
  },
  async down(db) {
    await db.schema.dropTable('idf_lookup_day').execute();
  },
};
