import type { PortalMigration } from './helpers.js';

/**
 * 操作日志 rows carry the id of the request that wrote them (the `X-Request-Id` its answer returned and
 * its log lines name), so a complaint can be followed from the answer to the log and back. Rows
 * written before have none ('').
 */
export const auditRequestIdMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .alterTable('audit_log')
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('audit_log_request_id').on('audit_log').column('request_id').execute();
  },
  async down(db) {
    await db.schema.dropIndex('audit_log_request_id').execute();
    await db.schema.alterTable('audit_log').dropColumn('request_id').execute();
  },
};
