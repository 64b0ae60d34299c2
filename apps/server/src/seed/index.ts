import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema.js';
import { seedAccounts, seedOrganisation } from './accounts-seed.js';
import { seedAppCenter } from './app-center-seed.js';
import { type CertificationSeedOptions, seedCertification } from './certification-seed.js';
import { seedContent, upgradeContentBodies } from './content-seed.js';
import { seedIdentifierStats } from './identifier-stats-seed.js';
import { seedIdentifiers } from './identifiers-seed.js';
import { seedMachineClients } from './machine-clients-seed.js';
import { seedSite } from './site-seed.js';
import { seedOidcApplications, seedSsoApplications } from './sso-apps-seed.js';
import { seedSamlApplications } from './saml-apps-seed.js';

export type SeedOptions = CertificationSeedOptions;

/** Seeds the demo data each module owns; every step is idempotent, so it runs at every start. */
export async function seedDemoData(db: Kysely<Database>, options: SeedOptions): Promise<string[]> {
  const now = new Date();
  const seeded: string[] = [];
  if (await seedSite(db, now.toISOString())) seeded.push('site');
  if (await seedContent(db, now)) seeded.push('content');
  if (await upgradeContentBodies(db, now)) seeded.push('content-bodies');
  if (await seedAccounts(db, now.toISOString())) seeded.push('accounts');
  if (await seedOrganisation(db, now.toISOString())) seeded.push('organisation');
  // After the accounts: the demo prefixes belong to the demo enterprises.
  if (await seedIdentifiers(db, now.toISOString())) seeded.push('identifiers');
  // After the identifiers: a month of 标识统计 for the demo prefixes.
  if (await seedIdentifierStats(db, now)) seeded.push('identifier-stats');
  // After the organisation: 质量部 is granted one of the demo applications.
  if (await seedSsoApplications(db, now.toISOString())) seeded.push('sso-apps');
  if (await seedOidcApplications(db, now.toISOString())) seeded.push('oidc-apps');
  if (await seedSamlApplications(db, now.toISOString())) seeded.push('saml-apps');
  // After the organisation: the demo enterprises' administrators applied for their certification.
  if (await seedCertification(db, now, options)) seeded.push('certification');
  // After the applications, 恒岳's own 应用列表 and its certification: its subscriptions.
  if (await seedAppCenter(db, now)) seeded.push('app-center');
  // After the organisation: 恒岳's MES registers its identifiers.
  if (await seedMachineClients(db, now.toISOString())) seeded.push('machine-clients');
  return seeded;
}
