import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Accounts and login: enterprises, users, roles and authority codes, console menus, the embedded
 * CAS server's tickets, portal sessions, login failures, SMS codes, server secrets and the audit log.
 * Every piece of login state lives here, so several server instances can share one PostgreSQL.
 * Times are ISO-8601 UTC strings (they sort as text on both engines).
 */
export const accountsMigration: PortalMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('system_secret')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('enterprise'), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
      // pending | certified | rejected (spec: step 2 of /settled is enterprise certification).
      .addColumn('certification_status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('account'), dialect)
      .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      .addColumn('phone', 'varchar(11)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('number', 'varchar(32)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
      .addColumn('enterprise_id', 'integer', (c) => c.references('enterprise.id').onDelete('set null'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('account_enterprise').on('account').column('enterprise_id').execute();

    await withId(db.schema.createTable('role'), dialect)
      .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('role_authority')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addColumn('authority', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('role_authority_pk', ['role_id', 'authority'])
      .execute();
    await db.schema
      .createTable('account_role')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('account_role_pk', ['account_id', 'role_id'])
      .execute();

    // Console menus (spec section 4): shown when the user holds `auth_code`.
    await withId(db.schema.createTable('portal_menu'), dialect)
      .addColumn('parent_id', 'integer', (c) => c.references('portal_menu.id').onDelete('cascade'))
      .addColumn('auth_code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('path', 'varchar(200)', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('icon', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    // Embedded CAS: ticket-granting tickets (the SSO session) and service tickets.
    await db.schema
      .createTable('cas_tgt')
      .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cas_tgt_account').on('cas_tgt').column('account_id').execute();
    await db.schema
      .createTable('cas_st')
      .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
      .addColumn('tgt_id', 'varchar(80)', (c) => c.notNull().references('cas_tgt.id').onDelete('cascade'))
      .addColumn('service', 'varchar(2000)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      // 1 when issued right after the user typed credentials (answers `renew=true`).
      .addColumn('from_login', 'integer', (c) => c.notNull().defaultTo(0))
      // Set at the first validation attempt, whatever its outcome (CAS 3.0: single use).
      .addColumn('validated_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('cas_st_tgt').on('cas_st').column('tgt_id').execute();

    await db.schema
      .createTable('login_failure')
      .addColumn('username', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('last_failed_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('locked_until', 'varchar(32)')
      .execute();

    // Portal sessions: the cookie holds a random id, the table its SHA-256.
    await db.schema
      .createTable('portal_session')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      // The service ticket that opened it: CAS single logout names it.
      .addColumn('service_ticket', 'varchar(80)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('portal_session_account').on('portal_session').column('account_id').execute();
    await db.schema.createIndex('portal_session_ticket').on('portal_session').column('service_ticket').execute();

    await withId(db.schema.createTable('sms_code'), dialect)
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('phone', 'varchar(11)', (c) => c.notNull())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('consumed_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('sms_code_phone').on('sms_code').columns(['phone', 'created_at']).execute();
    await db.schema.createIndex('sms_code_ip').on('sms_code').columns(['ip', 'created_at']).execute();

    await withId(db.schema.createTable('audit_log'), dialect)
      .addColumn('account_id', 'integer')
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('enterprise_id', 'integer')
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('target', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_time').on('audit_log').columns(['created_at', 'id']).execute();
  },
  async down(db) {
    for (const table of [
      'audit_log',
      'sms_code',
      'portal_session',
      'login_failure',
      'cas_st',
      'cas_tgt',
      'portal_menu',
      'account_role',
      'role_authority',
      'role',
      'account',
      'enterprise',
      'system_secret',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
