import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DialectName } from './database.js';
import type { PortalMigration } from './migrations/helpers.js';
import type { Database } from './schema.js';
import { syncAccessStructure } from './structure/access-structure.js';
import { ensureOpenServiceTools } from './structure/open-service-structure.js';
import { siteMigration } from './migrations/0001-site.js';
import { contentMigration } from './migrations/0002-content.js';
import { accountsMigration } from './migrations/0003-accounts.js';
import { identifiersMigration } from './migrations/0004-identifiers.js';
import { consoleContentMigration } from './migrations/0005-console-content.js';
import { uploadQuotaMigration } from './migrations/0006-upload-quota.js';
import { finiteIntegersMigration } from './migrations/0007-finite-integers.js';
import { tenantAdminMigration } from './migrations/0008-tenant-admin.js';
import { identifierLookupsMigration } from './migrations/0009-identifier-lookups.js';
import { ssoSecurityMigration } from './migrations/0010-sso-security.js';
import { enterpriseCertificationMigration } from './migrations/0011-enterprise-certification.js';
import { authSourcesMigration } from './migrations/0012-auth-sources.js';
import { openServiceMigration } from './migrations/0013-open-service.js';
import { identifierAnalyticsMigration } from './migrations/0014-identifier-analytics.js';
import { sealedTotpMigration } from './migrations/0015-sealed-totp.js';
import { oidcMigration } from './migrations/0016-oidc.js';
import { oidcClientIdsMigration } from './migrations/0017-oidc-client-ids.js';
import { oidcSignInMigration } from './migrations/0018-oidc-sign-in.js';
import { logoutDeliveryMigration } from './migrations/0021-logout-delivery.js';
import { oidcGrantLookupMigration } from './migrations/0022-oidc-grant-lookup.js';
import { logoutLogMigration } from './migrations/0025-logout-log.js';
import { articleSearchMigration } from './migrations/0026-article-search.js';
import { auditRequestIdMigration } from './migrations/0027-audit-request-id.js';
import { retentionLimitsMigration } from './migrations/0028-retention-limits.js';
import { sessionCapMigration } from './migrations/0029-session-cap.js';
import { consoleIpRulesMigration } from './migrations/0030-console-ip-rules.js';
import { reauthMigration } from './migrations/0031-reauth.js';
import { passkeysMigration } from './migrations/0032-passkeys.js';
import { mfaPolicyMigration } from './migrations/0033-mfa-policy.js';
import { auditChainMigration } from './migrations/0035-audit-chain.js';
import { samlMigration } from './migrations/0036-saml.js';
import { scimMigration } from './migrations/0037-scim.js';
import { portalSessionLastUsedMigration } from './migrations/0038-portal-session-last-used.js';
import { samlPassiveMigration } from './migrations/0039-saml-passive.js';
import { ssoSessionAuthnMigration } from './migrations/0040-sso-session-authn.js';
import { federationMigration } from './migrations/0041-federation.js';
import { samlSourcesMigration } from './migrations/0042-saml-sources.js';
import { accountEmailLowerMigration } from './migrations/0043-account-email-lower.js';
import { federationDomainReviewMigration } from './migrations/0046-federation-domain-review.js';

/** Every migration, in order. Add new ones here; names sort in application order. */
const migrations: Record<string, PortalMigration> = {
  '0001-site': siteMigration,
  '0002-content': contentMigration,
  '0003-accounts': accountsMigration,
  '0004-identifiers': identifiersMigration,
  '0005-console-content': consoleContentMigration,
  '0006-upload-quota': uploadQuotaMigration,
  '0007-finite-integers': finiteIntegersMigration,
  '0008-tenant-admin': tenantAdminMigration,
  '0009-identifier-lookups': identifierLookupsMigration,
  '0010-sso-security': ssoSecurityMigration,
  '0011-enterprise-certification': enterpriseCertificationMigration,
  '0012-auth-sources': authSourcesMigration,
  '0013-open-service': openServiceMigration,
  '0014-identifier-analytics': identifierAnalyticsMigration,
  '0015-sealed-totp': sealedTotpMigration,
  '0016-oidc': oidcMigration,
  '0017-oidc-client-ids': oidcClientIdsMigration,
  '0018-oidc-sign-in': oidcSignInMigration,
  '0021-logout-delivery': logoutDeliveryMigration,
  '0022-oidc-grant-lookup': oidcGrantLookupMigration,
  '0025-logout-log': logoutLogMigration,
  '0026-article-search': articleSearchMigration,
  '0027-audit-request-id': auditRequestIdMigration,
  '0028-retention-limits': retentionLimitsMigration,
  '0029-session-cap': sessionCapMigration,
  '0030-console-ip-rules': consoleIpRulesMigration,
  '0031-reauth': reauthMigration,
  '0032-passkeys': passkeysMigration,
  '0033-mfa-policy': mfaPolicyMigration,
  '0035-audit-chain': auditChainMigration,
  '0036-saml': samlMigration,
  '0037-scim': scimMigration,
  '0038-portal-session-last-used': portalSessionLastUsedMigration,
  '0039-saml-passive': samlPassiveMigration,
  '0040-sso-session-authn': ssoSessionAuthnMigration,
  '0041-federation': federationMigration,
  '0042-saml-sources': samlSourcesMigration,
  '0043-account-email-lower': accountEmailLowerMigration,
  '0046-federation-domain-review': federationDomainReviewMigration,
};

/**
 * The migrations this code expects applied, in order: a database behind the code is not ready (503), and a
 * backup naming others comes from a newer version.
 */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/** Every migration bound to `dialect`, for Kysely's Migrator. */
export class PortalMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}

  getMigrations(): Promise<Record<string, Migration>> {
    const bound: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(migrations)) {
      bound[name] = { up: (db) => m.up(db, this.dialect), down: (db) => m.down(db, this.dialect) };
    }
    return Promise.resolve(bound);
  }
}

/** Brings the schema, the system roles and the menus up to date, and adds missing open-service tools; safe at every start and from several instances at once. */
export async function migrateToLatest<T>(db: Kysely<T>, dialect: DialectName): Promise<string[]> {
  // On PostgreSQL, pin the bookkeeping tables to the connection's schema: Kysely otherwise finds them
  // in any schema of the database (another app's, or a parallel test's) and skips creating its own.
  const schema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db,
    provider: new PortalMigrationProvider(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  let outcome = await migrator.migrateToLatest();
  // Kysely looks for its table by reading every schema's tables and naming each by text; a schema
  // dropped in that moment (a finished test's, an operator's) fails the read with undefined_table
  // (42P01) or invalid_schema_name (3F000) before anything has run. The catalog read again no longer holds it.
  const schemaDropped = (error: unknown) => ['42P01', '3F000'].includes(String((error as { code?: unknown } | undefined)?.code));
  for (let retry = 0; retry < 3 && schemaDropped(outcome.error); retry++) {
    outcome = await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  // System roles and console menus are code: they follow the schema (db/structure/access-structure.ts).
  // The open-service centre's six tools always exist; operators' edits stay (open-service-structure.ts).
  await syncAccessStructure(db as unknown as Kysely<Database>);
  await ensureOpenServiceTools(db as unknown as Kysely<Database>);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
