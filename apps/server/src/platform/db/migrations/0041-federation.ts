import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * Federated sign-in (企业身份提供方, OpenID Connect and the like): the email domains each source claims,
 * unique across every enterprise (identity-first login sends an address to exactly one provider), and
 * the pending sign-ins between the redirect to a provider and its answer (state, PKCE verifier, nonce).
 */
export const federationMigration: PortalMigration = {
  async up(db, dialect) {
    await withId(db.schema.createTable('federation_domain'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      // Lower case, without a leading @.
      .addColumn('domain', 'varchar(253)', (c) => c.notNull())
      .addUniqueConstraint('federation_domain_domain', ['domain'])
      .execute();
    await db.schema.createIndex('federation_domain_source').on('federation_domain').column('source_id').execute();

    // One row per redirect to a provider, taken (deleted) by its answer: single use, and bound to the
    // browser by the hash of a cookie only that browser holds.
    await withId(db.schema.createTable('federation_sign_in'), dialect)
      // SHA-256 of the state sent to the provider (hex).
      .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
      // SHA-256 of the browser's binding cookie (hex).
      .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('source_id', 'integer', (c) => c.notNull().references('auth_source.id').onDelete('cascade'))
      // login | test (测试连接's popup: shows the claims, signs no one in)
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      // Where the login goes afterwards: the CAS service ('' for the portal) and renew.
      .addColumn('service', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
      .addColumn('renew', 'integer', (c) => c.notNull().defaultTo(0))
      // What the kind needs to check the answer (PKCE verifier, nonce; SAML's request id), as JSON.
      .addColumn('pending', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('federation_sign_in_expires').on('federation_sign_in').column('expires_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('federation_sign_in').execute();
    await db.schema.dropTable('federation_domain').execute();
  },
};
