import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Passkeys (WebAuthn Level 3): an account's registered credentials, with the enterprise they were
 * registered under (the tenant scope a sign-in checks), and the ceremonies' challenges, kept in the
 * database so that any instance can finish a ceremony another one began; each is spent once. 登录日志
 * rows name how the sign-in was made (`password`, `passkey`; empty for rows before this migration).
 */
export const passkeysMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('webauthn_credential'), dialect)
      .addColumn('account_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
      .addColumn('enterprise_id', 'integer', (c) => c.references('enterprise.id').onDelete('cascade'))
      // base64url of the authenticator's credential id (at most 1023 bytes, WebAuthn §5.8.3).
      .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('webauthn_credential_account').on('webauthn_credential').column('account_id').execute();

    await db.schema
      .createTable('webauthn_challenge')
      .addColumn('challenge', 'varchar(64)', (c) => c.primaryKey())
      // register | sign-in | second-factor
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('account_id', 'integer', (c) => c.references('account.id').onDelete('cascade'))
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webauthn_challenge_expiry').on('webauthn_challenge').column('expires_at').execute();

    await db.schema
      .alterTable('login_log')
      .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db) {
    await db.schema.alterTable('login_log').dropColumn('method').execute();
    await db.schema.dropTable('webauthn_challenge').execute();
    await db.schema.dropTable('webauthn_credential').execute();
  },
};
