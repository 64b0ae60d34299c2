import type { PortalMigration } from './helpers.js';

/**
 * A claimed email domain routes sign-ins to the enterprise's provider only once a platform operator
 * has approved it (待审核 → 已批准 or 已驳回), so an enterprise cannot take another's people to its own
 * provider by claiming their domain. Claims made before this review existed wait for it too.
 */
export const federationDomainReviewMigration: PortalMigration = {
  async up(db) {
    // pending | approved | refused
    await db.schema
      .alterTable('federation_domain')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('federation_domain').dropColumn('status').execute();
  },
};
