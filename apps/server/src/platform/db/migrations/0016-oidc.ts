import type { PortalMigration } from './helpers.js';
import { withId } from './helpers.js';

/** The OpenID Connect settings an application gets beside its CAS ones (all unused while protocol is cas3). */
const SSO_APPLICATION_OIDC_COLUMNS = [
  'oidc_client_id',
  'oidc_secret_hash',
  'oidc_client_type',
  'oidc_redirect_uris',
  'oidc_post_logout_uris',
  'oidc_backchannel_logout_uri',
  'oidc_initiate_login_uri',
  'oidc_scopes',
  'oidc_access_token_seconds',
  'oidc_id_token_seconds',
  'oidc_refresh_token_seconds',
] as const;

/**
 * OpenID Connect and OAuth 2.1 beside CAS: the provider's state (grants, sessions, codes, tokens) shared by
 * every instance, its signing keys, an application's OIDC settings and the enterprises' machine clients.
 */
export const oidcMigration: PortalMigration = {
  async up(db, dialect) {
    // What the provider keeps (its adapter interface): one row per model instance, the payload as JSON.
    await db.schema
      .createTable('oidc_model')
      // The provider's model name: Session, Grant, AuthorizationCode, AccessToken, RefreshToken, Interaction…
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('id', 'varchar(255)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      // Lookups the adapter answers besides the id: revokeByGrantId, findByUid (sessions), findByUserCode.
      .addColumn('grant_id', 'varchar(255)')
      .addColumn('uid', 'varchar(255)')
      .addColumn('user_code', 'varchar(255)')
      // null: kept until destroyed; past rows are never answered and are purged.
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('consumed_at', 'varchar(32)')
      .addPrimaryKeyConstraint('oidc_model_pk', ['kind', 'id'])
      .execute();
    await db.schema.createIndex('oidc_model_grant').on('oidc_model').column('grant_id').execute();
    await db.schema.createIndex('oidc_model_uid').on('oidc_model').columns(['kind', 'uid']).execute();
    await db.schema.createIndex('oidc_model_user_code').on('oidc_model').columns(['kind', 'user_code']).execute();
    await db.schema.createIndex('oidc_model_expires').on('oidc_model').column('expires_at').execute();

    // Signing keys: one per algorithm and generation; the highest generation signs, older ones stay
    // published (JWKS) until retire_at, when nothing they signed is still valid.
    await withId(db.schema.createTable('oidc_signing_key'), dialect)
      .addColumn('generation', 'integer', (c) => c.notNull())
      // RS256 | ES256
      .addColumn('alg', 'varchar(16)', (c) => c.notNull())
      .addColumn('kid', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      // The private JWK, sealed with AES-256-GCM (lib/sealed-secret.ts).
      .addColumn('private_jwk', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('retire_at', 'varchar(32)')
      // Two instances generating at once: one key per algorithm and generation wins, both read it.
      .addUniqueConstraint('oidc_signing_key_generation', ['generation', 'alg'])
      .execute();

    // An application's OpenID Connect settings (protocol 'oidc'); JSON arrays for the address lists.
    const columns: [(typeof SSO_APPLICATION_OIDC_COLUMNS)[number], 'integer' | 'text' | `varchar(${number})`, string | number | null][] = [
      ['oidc_client_id', 'varchar(64)', null],
      // sha256 of the secret (a random 256-bit value shown once); '' for a public client.
      ['oidc_secret_hash', 'varchar(128)', ''],
      // confidential | public
      ['oidc_client_type', 'varchar(16)', 'confidential'],
      ['oidc_redirect_uris', 'text', '[]'],
      ['oidc_post_logout_uris', 'text', '[]'],
      ['oidc_backchannel_logout_uri', 'varchar(2000)', ''],
      ['oidc_initiate_login_uri', 'varchar(2000)', ''],
      // Space-separated, as OAuth writes scopes.
      ['oidc_scopes', 'varchar(500)', 'openid profile'],
      ['oidc_access_token_seconds', 'integer', 3600],
      ['oidc_id_token_seconds', 'integer', 3600],
      ['oidc_refresh_token_seconds', 'integer', 14 * 86_400],
    ];
    for (const [name, type, fallback] of columns) {
      await db.schema
        .alterTable('sso_application')
        .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
        .execute();
    }
    await db.schema.createIndex('sso_application_oidc_client').unique().on('sso_application').column('oidc_client_id').execute();

    // 机器客户端: an enterprise's own systems calling its APIs with client_credentials.
    await withId(db.schema.createTable('machine_client'), dialect)
      .addColumn('enterprise_id', 'integer', (c) => c.notNull().references('enterprise.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
      // sha256 of the secret (a random 256-bit value shown once).
      .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull())
      // Space-separated scopes over the enterprise's own APIs.
      .addColumn('scopes', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      // enabled | disabled
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('machine_client_name', ['enterprise_id', 'name'])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable('machine_client').execute();
    await db.schema.dropIndex('sso_application_oidc_client').execute();
    for (const name of SSO_APPLICATION_OIDC_COLUMNS) await db.schema.alterTable('sso_application').dropColumn(name).execute();
    await db.schema.dropTable('oidc_signing_key').execute();
    await db.schema.dropTable('oidc_model').execute();
  },
};
