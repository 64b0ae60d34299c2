import type { PortalMigration } from './helpers.js';

/**
 * Console content management: home blocks can be switched off without deleting them (the public
 * home shows enabled blocks only). Existing blocks stay enabled.
 */
export const consoleContentMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .alterTable('home_block')
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('home_block').dropColumn('enabled').execute();
  },
};
