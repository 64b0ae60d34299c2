import type { Kysely } from 'kysely';
import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Enterprise profile and certification: 企业信息's fields, certification applications with
 * their private materials and the reviewer's decision, the console's notifications (消息中心), the
 * browsers an account has signed in from (for new-sign-in alerts) and requests for identifier prefixes.
 * An enterprise that never applied is now 'none' (未认证) rather than 'pending' (待审核).
 */
export const enterpriseCertificationMigration: PortalMigration = {
  async up(db, dialect) {
    const columns: [string, `varchar(${number})`, boolean][] = [
      // 统一社会信用代码 (GB 32100-2015); null until given, unique among enterprises.
      ['credit_code', 'varchar(18)', false],
      ['legal_representative', 'varchar(32)', true],
      ['address', 'varchar(200)', true],
      // GB/T 4754-2017 大类 code (two digits; the 门类 follows from it).
      ['industry_code', 'varchar(2)', true],
      // City code of the administrative divisions (GB/T 2260, six digits).
      ['region_code', 'varchar(6)', true],
      ['contact_name', 'varchar(32)', true],
      ['contact_phone', 'varchar(20)', true],
      ['introduction', 'varchar(2000)', true],
      // Path under /files.
      ['logo', 'varchar(200)', true],
      ['certified_at', 'varchar(32)', false],
      ['updated_at', 'varchar(32)', false],
    ];
    for (const [name, type, emptyDefault] of columns) {
      await db.schema
        .alterTable('enterprise')
        .addColumn(name, type, (c) => (emptyDefault ? c.notNull().defaultTo('') : c))
        .execute();
    }
    await db.schema.createIndex('enterprise_credit_code').unique().on('enterprise').column('credit_code').execute();
    await (db as Kysely<{ enterprise: { certification_status: string } }>)
      .updateTable('enterprise')
      .set({ certification_status: 'none' })
      .where('certification_status', '=', 'pending')
      .execute();

    // Materials of certification applications: never under /files; served only to the enterprise's
    // administrators and to reviewers (PRIVATE_FILES_DIR).
    await withId(db.schema.createTable('private_file'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      // licence | authorization
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      // Path under PRIVATE_FILES_DIR: yyyy/mm/<uuid>.<ext>.
      .addColumn('storage_key', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('mime', 'varchar(64)', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('original_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('private_file_enterprise').on('private_file').columns(['enterprise_id', 'created_at']).execute();

    await withId(db.schema.createTable('certification_application'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('applicant_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      // pending | approved | rejected
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      // What was submitted (the profile may change later).
      .addColumn('enterprise_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('credit_code', 'varchar(18)', (c) => c.notNull())
      .addColumn('legal_representative', 'varchar(32)', (c) => c.notNull())
      // legal | agent
      .addColumn('applicant_role', 'varchar(16)', (c) => c.notNull())
      .addColumn('licence_file_id', 'integer', (c) => c.notNull().references('private_file.id'))
      .addColumn('authorization_file_id', 'integer', (c) => c.references('private_file.id'))
      .addColumn('submitted_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('reviewer_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('decided_at', 'varchar(32)')
      // Rejection reason codes, comma-separated (CERTIFICATION_REJECT_REASONS).
      .addColumn('reasons', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('comment', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createIndex('certification_application_queue')
      .on('certification_application')
      .columns(['status', 'submitted_at'])
      .execute();
    await db.schema
      .createIndex('certification_application_enterprise')
      .on('certification_application')
      .columns(['enterprise_id', 'submitted_at'])
      .execute();

    // 消息中心: one account's messages.
    await withId(db.schema.createTable('notification'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      // certification | join | security | identifier
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('title', 'varchar(100)', (c) => c.notNull())
      .addColumn('content', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // A console path ('' for none).
      .addColumn('link', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('read_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notification_account_time').on('notification').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('notification_account_unread').on('notification').columns(['account_id', 'read_at']).execute();

    // Browsers (name, system, device type) each account signed in from: a new one is a security message.
    await db.schema
      .createTable('known_browser')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      // HMAC of browser name, operating system and device type (no versions: updates are not new browsers).
      .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
      .addColumn('first_seen_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('known_browser_pk', ['account_id', 'fingerprint'])
      .execute();

    // 申请标识前缀: a certified enterprise asks, an operator approves in 标识管理 (the prefix is then created).
    await withId(db.schema.createTable('idf_prefix_request'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('applicant_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('prefix', 'varchar(64)', (c) => c.notNull())
      .addColumn('purpose', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // pending | approved | rejected
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reviewer_id', 'integer', (c) => c.references('account.id').onDelete('set null'))
      .addColumn('reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('decided_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('idf_prefix_request_queue').on('idf_prefix_request').columns(['status', 'created_at']).execute();
    await db.schema
      .createIndex('idf_prefix_request_enterprise')
      .on('idf_prefix_request')
      .columns(['enterprise_id', 'created_at'])
      .execute();
  },
  async down(db) {
    for (const table of ['idf_prefix_request', 'known_browser', 'notification', 'certification_application', 'private_file']) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('enterprise_credit_code').execute();
    await (db as Kysely<{ enterprise: { certification_status: string } }>)
      .updateTable('enterprise')
      .set({ certification_status: 'pending' })
      .where('certification_status', '=', 'none')
      .execute();
  },
};
