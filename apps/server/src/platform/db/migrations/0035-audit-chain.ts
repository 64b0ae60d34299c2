import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/** The two logs that are hash-chained (docs/architecture.md, "Tamper-evident audit"). */
const LOGS = ['login_log', 'audit_log'] as const;

/**
 * Tamper-evident audit: every 登录日志 and 操作日志 row written from now on holds its place in its
 * enterprise's chain (`chain_seq`), the previous row's hash and its own; `audit_chain` is each chain's
 * head (locked by every append, so appends of one chain queue across instances) and its anchor (the
 * last archived row, which the first remaining row links to). Rows written before this migration are
 * outside every chain: `audit_chain_start` keeps the last id each log had, so a row without a place
 * that comes after it (or that claims a time after `started_at`) was put in directly. Each enterprise keeps
 * both logs `audit_retention_days` (null: the platform default).
 */
export const auditChainMigration: PortalMigration = {
  async up(db) {
    for (const table of LOGS) {
      await db.schema.alterTable(table).addColumn('chain_seq', 'integer').execute();
      await db.schema.alterTable(table).addColumn('prev_hash', 'varchar(64)').execute();
      await db.schema.alterTable(table).addColumn('row_hash', 'varchar(64)').execute();
      await db.schema.createIndex(`${table}_chain`).on(table).columns(['enterprise_id', 'chain_seq']).execute();
    }
    await db.schema
      .createTable('audit_chain')
      .addColumn('log', 'varchar(16)', (c) => c.notNull())
      .addColumn('enterprise_key', 'integer', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('last_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('anchor_seq', 'integer', (c) => c.notNull())
      .addColumn('anchor_hash', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('audit_chain_pk', ['log', 'enterprise_key'])
      .execute();
    await db.schema
      .createTable('audit_chain_start')
      .addColumn('log', 'varchar(16)', (c) => c.primaryKey())
      .addColumn('first_id', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    const now = new Date().toISOString();
    await sql`insert into audit_chain_start (log, first_id, started_at) select 'login', coalesce(max(id), 0) + 1, ${now} from login_log`.execute(
      db,
    );
    await sql`insert into audit_chain_start (log, first_id, started_at) select 'audit', coalesce(max(id), 0) + 1, ${now} from audit_log`.execute(
      db,
    );
    // Null: the platform default (AUDIT_RETENTION_DAYS), so existing enterprises keep what the platform keeps.
    await db.schema.alterTable('security_policy').addColumn('audit_retention_days', 'integer').execute();
  },
  async down(db) {
    await db.schema.alterTable('security_policy').dropColumn('audit_retention_days').execute();
    await db.schema.dropTable('audit_chain_start').execute();
    await db.schema.dropTable('audit_chain').execute();
    for (const table of LOGS) {
      await db.schema.dropIndex(`${table}_chain`).execute();
      for (const column of ['row_hash', 'prev_hash', 'chain_seq']) await db.schema.alterTable(table).dropColumn(column).execute();
    }
  },
};
