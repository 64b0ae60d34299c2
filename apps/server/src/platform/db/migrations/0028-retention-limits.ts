import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/** Indexes the retention job's deletes read (docs/architecture.md, "Retention"): each prunes by one column. */
const PRUNE_INDEXES: [name: string, table: string, column: string][] = [
  ['login_log_time', 'login_log', 'created_at'],
  ['cas_tgt_expires', 'cas_tgt', 'expires_at'],
  ['portal_session_expires', 'portal_session', 'expires_at'],
  ['sms_code_time', 'sms_code', 'created_at'],
  ['login_failure_time', 'login_failure', 'last_failed_at'],
];

/**
 * Limits counted in the database, so several instances allow what one does (docs/architecture.md,
 * "Limits"): one row per limit and key, its hits in the window that ends at `expires_at` (epoch ms).
 * Work that one instance of several does per interval (retention) takes a lease on its row in
 * `scheduled_task`, as a scheduled sync job does on its own.
 */
export const retentionLimitsMigration: PortalMigration = {
  async up(db) {
    await db.schema
      .createTable('rate_limit_hit')
      .addColumn('bucket', 'varchar(300)', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_hit_expires').on('rate_limit_hit').column('expires_at').execute();

    await db.schema
      .createTable('scheduled_task')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('next_run_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('lease_holder', 'varchar(80)')
      .addColumn('lease_expires_at', 'varchar(32)')
      .execute();
    await sql`insert into scheduled_task (name, next_run_at) values ('retention', '1970-01-01T00:00:00.000Z')`.execute(db);

    for (const [name, table, column] of PRUNE_INDEXES) await db.schema.createIndex(name).on(table).column(column).execute();
  },
  async down(db) {
    for (const [name] of PRUNE_INDEXES) await db.schema.dropIndex(name).execute();
    await db.schema.dropTable('scheduled_task').execute();
    await db.schema.dropTable('rate_limit_hit').execute();
  },
};
