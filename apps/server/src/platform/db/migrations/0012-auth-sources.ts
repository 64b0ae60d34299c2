import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * 认证与同步: an enterprise's authentication sources, the directory identities its accounts
 * and groups are linked to, sync jobs with their schedule and database lease, and every run's log
 * (a preview lists the items; executing the preview records each item's result).
 */
export const authSourcesMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('auth_source'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      // ldap | wecom | dingtalk | feishu
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      // enabled | disabled
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
      // The non-secret settings as JSON (LdapSourceConfig, WecomSourceConfig…).
      .addColumn('config', 'text', (c) => c.notNull())
      // The bind password or app secret, sealed with AES-256-GCM (lib/sealed-secret.ts); '' when none.
      .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('auth_source_name', ['enterprise_id', 'name'])
      .execute();
    await db.schema.createIndex('auth_source_type').on('auth_source').columns(['type', 'status']).execute();

    // An account's identity in a source: the directory's stable id (entryUUID, objectGUID, the platform's
    // user id), so a renamed or moved user stays the same account.
    await withId(db.schema.createTable('account_identity'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
      // LDAP: the entry's DN as last seen (the bind at sign-in searches again when it moved).
      .addColumn('dn', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('account_identity_external', ['source_id', 'external_id'])
      .addUniqueConstraint('account_identity_account', ['account_id', 'source_id'])
      .execute();

    // A 账号组 that a source's department or directory group fills.
    await withId(db.schema.createTable('group_identity'), dialect)
      .addColumn('group_id', 'integer', (c) => c.notNull().references('account_group.id').onDelete('cascade'))
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('group_identity_external', ['source_id', 'external_id'])
      .addUniqueConstraint('group_identity_group', ['group_id'])
      .execute();

    await withId(db.schema.createTable('sync_job'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      // SyncMapping as JSON.
      .addColumn('mapping', 'text', (c) => c.notNull())
      // Five-field cron in China time; '' = manual only.
      .addColumn('cron', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      // disable | keep
      .addColumn('leaver_rule', 'varchar(16)', (c) => c.notNull().defaultTo('disable'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('next_run_at', 'varchar(32)')
      // The database lease: one instance runs a job at a time (scheduled or manual).
      .addColumn('lease_holder', 'varchar(64)')
      .addColumn('lease_expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('sync_job_name', ['enterprise_id', 'name'])
      .execute();
    await db.schema.createIndex('sync_job_due').on('sync_job').columns(['status', 'next_run_at']).execute();

    await withId(db.schema.createTable('sync_run'), dialect)
      .addColumn('job_id', 'integer', (c) => c.notNull().references('sync_job.id').onDelete('cascade'))
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      // preview | running | succeeded | partial | failed | expired
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      // manual | schedule
      .addColumn('origin', 'varchar(16)', (c) => c.notNull())
      // A hash of the directory data the preview was computed from (executing checks it again).
      .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('count_create', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('count_update', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('count_disable', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('count_move', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('count_failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
      .addColumn('operator_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('sync_run_job').on('sync_run').columns(['job_id', 'id']).execute();
    await db.schema.createIndex('sync_run_enterprise').on('sync_run').columns(['enterprise_id', 'id']).execute();

    await withId(db.schema.createTable('sync_run_item'), dialect)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('sync_run.id').onDelete('cascade'))
      // user | group
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      // create | update | disable | move
      .addColumn('action', 'varchar(8)', (c) => c.notNull())
      .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
      .addColumn('name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('username', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      // The account or group it concerns (null until created).
      .addColumn('target_id', 'integer')
      // SyncChange[] as JSON; plus what executing needs (the directory values) under "values".
      .addColumn('detail', 'text', (c) => c.notNull())
      // planned | succeeded | failed
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('planned'))
      .addColumn('error', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('sync_run_item_run').on('sync_run_item').columns(['run_id', 'action', 'id']).execute();
  },

  async down(db) {
    for (const table of ['sync_run_item', 'sync_run', 'sync_job', 'group_identity', 'account_identity', 'auth_source']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
