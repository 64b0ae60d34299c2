import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/**
 * SAML 2.0 beside CAS and OpenID Connect: the identity provider's signing keys and certificates, a SAML
 * application's service-provider settings (its own table: an entity ID is one namespace over every
 * enterprise) and the sign-ins it answers (request ids once each, the NameID single logout names).
 */
export const samlMigration: PortalMigration = {
  async up(db, dialect) {
    // One key and certificate per generation; the newest published one signs, older ones stay in the
    // metadata until retire_at, so a service provider that refreshes its copy late still verifies.
    await withId(db.schema.createTable('saml_signing_key'), dialect)
      .addColumn('generation', 'integer', (c) => c.notNull().unique())
      .addColumn('certificate', 'text', (c) => c.notNull())
      // The private key (PKCS#8 PEM), sealed with AES-256-GCM (lib/sealed-secret.ts).
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('retire_at', 'varchar(32)')
      .execute();

    await db.schema
      .createTable('saml_service_provider')
      .addColumn('application_id', 'integer', (c) => c.primaryKey().references('sso_application.id').onDelete('cascade'))
      .addColumn('entity_id', 'varchar(500)', (c) => c.notNull().unique())
      .addColumn('acs_url', 'varchar(500)', (c) => c.notNull())
      .addColumn('slo_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // The SP's signing certificate (PEM); '' when it signs nothing.
      .addColumn('certificate', 'text', (c) => c.notNull().defaultTo(''))
      // persistent | email | unspecified
      .addColumn('name_id_format', 'varchar(16)', (c) => c.notNull().defaultTo('persistent'))
      .addColumn('sign_response', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('sign_assertion', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('want_requests_signed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    // A sign-in between the SP's request and the response (and, once answered, what single logout names).
    await db.schema
      .createTable('saml_sign_in')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('application_id', 'integer', (c) => c.notNull())
      // The AuthnRequest's ID (InResponseTo); null for an IdP-initiated sign-in.
      .addColumn('request_id', 'varchar(256)')
      .addColumn('relay_state', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
      .addColumn('force_authn', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('answered_at', 'varchar(32)')
      .addColumn('account_id', 'integer')
      .addColumn('name_id', 'varchar(500)')
      // The service ticket the central login answered it with: its SSO session, for the SP's logout.
      .addColumn('ticket_id', 'varchar(300)')
      // A replayed AuthnRequest (same SP, same ID) is refused by this key on any instance.
      .addUniqueConstraint('saml_sign_in_request', ['application_id', 'request_id'])
      .execute();
    await db.schema.createIndex('saml_sign_in_expires').on('saml_sign_in').column('expires_at').execute();
  },
  async down(db) {
    await db.schema.dropTable('saml_sign_in').execute();
    await db.schema.dropTable('saml_service_provider').execute();
    await db.schema.dropTable('saml_signing_key').execute();
  },
};
