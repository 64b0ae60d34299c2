import { sql } from 'kysely';
import { withId, type PortalMigration } from './helpers.js';

/**
 * 安全设置's second factor: 按角色 (the roles whose holders need one), 允许的验证方式 (saved policies keep
 * today's: the authenticator app, and passkeys where an account has one) and 信任此设备's days (0: off);
 * and the trusted devices themselves, a browser's random token kept only as its SHA-256.
 */
export const mfaPolicyMigration: PortalMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('security_policy')
      .addColumn('two_factor_methods', 'varchar(64)', (c) => c.notNull().defaultTo(sql`'totp,passkey'`))
      .execute();
    await db.schema
      .alterTable('security_policy')
      .addColumn('trust_device_days', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('security_policy_role')
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('security_policy.enterprise_id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('security_policy_role_pk', ['enterprise_id', 'role_id'])
      .execute();
    await withId(db.schema.createTable('trusted_device'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_agent', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trusted_device_account').on('trusted_device').columns(['account_id', 'expires_at']).execute();
  },
  async down(db) {
    await db.schema.dropTable('trusted_device').execute();
    await db.schema.dropTable('security_policy_role').execute();
    await db.schema.alterTable('security_policy').dropColumn('trust_device_days').execute();
    await db.schema.alterTable('security_policy').dropColumn('two_factor_methods').execute();
  },
};
