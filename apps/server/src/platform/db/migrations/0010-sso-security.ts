import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Tenant administration II: an enterprise's own applications on single sign-on with their
 * service addresses and who may use them, its security policy, two-factor login, password history
 * and expiry, the SSO sessions' client (IP and browser) and the applications they reached, and a login
 * log of every sign-in attempt.
 */
export const ssoSecurityMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('sso_application'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('icon', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('category', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // cas3 (CAS 2.0 and 1.0 validation answer too).
      .addColumn('protocol', 'varchar(16)', (c) => c.notNull().defaultTo('cas3'))
      // Back-channel single logout address; empty: the service address that received the ticket.
      .addColumn('logout_url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
      // Released attribute names, comma-separated (name, telephone, email, enterpriseName, number, groups, roles).
      .addColumn('attributes', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      // 1: 企业全员 may sign in.
      .addColumn('all_members', 'integer', (c) => c.notNull().defaultTo(0))
      // enabled | disabled
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('sso_application_name', ['enterprise_id', 'name'])
      .execute();

    // 服务地址: URL prefixes; the CAS looks a service up by its host, then compares scheme, port and path.
    await withId(db.schema.createTable('sso_application_service'), dialect)
      .addColumn('application_id', 'integer', (c) => c.notNull().references('sso_application.id').onDelete('cascade'))
      .addColumn('enterprise_id', 'integer', (c) => c.notNull())
      .addColumn('prefix', 'varchar(2000)', (c) => c.notNull())
      .addColumn('host', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sso_application_service_host').on('sso_application_service').column('host').execute();
    await db.schema.createIndex('sso_application_service_app').on('sso_application_service').column('application_id').execute();

    // 应用授权: account groups, roles and single accounts that may sign in to an application.
    await db.schema
      .createTable('sso_app_grant')
      .addColumn('application_id', 'integer', (c) => c.notNull().references('sso_application.id').onDelete('cascade'))
      // group | role | account
      .addColumn('subject_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('sso_app_grant_pk', ['application_id', 'subject_type', 'subject_id'])
      .execute();
    await db.schema.createIndex('sso_app_grant_subject').on('sso_app_grant').columns(['subject_type', 'subject_id']).execute();

    // 安全设置 of an enterprise; an enterprise without a row follows the platform defaults (configuration).
    await db.schema
      .createTable('security_policy')
      .addColumn('enterprise_id', 'integer', (c) => c.primaryKey().references('enterprise.id').onDelete('cascade'))
      .addColumn('password_min_length', 'integer', (c) => c.notNull())
      // Required character classes, comma-separated: lower, upper, digit, symbol.
      .addColumn('password_classes', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('password_no_username', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_history', 'integer', (c) => c.notNull().defaultTo(0))
      // 0: never expires.
      .addColumn('password_expiry_days', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lock_max_failures', 'integer', (c) => c.notNull())
      .addColumn('lock_minutes', 'integer', (c) => c.notNull())
      .addColumn('session_idle_minutes', 'integer', (c) => c.notNull())
      .addColumn('session_max_hours', 'integer', (c) => c.notNull())
      // off | admins | all
      .addColumn('two_factor', 'varchar(16)', (c) => c.notNull().defaultTo('off'))
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('account').addColumn('password_changed_at', 'varchar(32)').execute();
    // TOTP (RFC 6238): the base32 secret once enrolled, and the last time step accepted (a code works once).
    await db.schema.alterTable('account').addColumn('totp_secret', 'varchar(64)').execute();
    await db.schema.alterTable('account').addColumn('totp_enabled_at', 'varchar(32)').execute();
    await db.schema.alterTable('account').addColumn('totp_last_step', 'bigint').execute();

    await db.schema
      .createTable('account_recovery_code')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .addPrimaryKeyConstraint('account_recovery_code_pk', ['account_id', 'code_hash'])
      .execute();

    await withId(db.schema.createTable('password_history'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_history_account').on('password_history').columns(['account_id', 'created_at']).execute();

    // 在线会话: where an SSO session was opened and which applications it reached.
    await db.schema
      .alterTable('cas_tgt')
      .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('cas_tgt')
      .addColumn('user_agent', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('cas_st').addColumn('application_id', 'integer').execute();

    // 登录日志: every sign-in attempt of an enterprise's accounts (success or failure with its reason).
    await withId(db.schema.createTable('login_log'), dialect)
      .addColumn('enterprise_id', 'integer')
      .addColumn('account_id', 'integer')
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      // success | failure
      .addColumn('result', 'varchar(16)', (c) => c.notNull())
      // A LOGIN_FAILURE_REASONS code (packages/shared) on failure, '' on success.
      .addColumn('reason', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('application_id', 'integer')
      .addColumn('application_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('user_agent', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_log_enterprise_time').on('login_log').columns(['enterprise_id', 'created_at']).execute();
    await db.schema.createIndex('login_log_account_time').on('login_log').columns(['account_id', 'created_at']).execute();
  },
  async down(db) {
    for (const table of [
      'login_log',
      'password_history',
      'account_recovery_code',
      'security_policy',
      'sso_app_grant',
      'sso_application_service',
      'sso_application',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
