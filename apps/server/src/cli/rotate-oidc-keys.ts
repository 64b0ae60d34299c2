import { KEY_CHECK_MS, OIDC_KEY_SECRET, SigningKeys } from '../identity/oidc/signing-keys.js';
import { OidcRepository } from '../identity/oidc/oidc-repository.js';
import { loadConfig } from '../platform/config.js';
import { createDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { SecretBox } from '../platform/lib/sealed-secret.js';
import { createSystemRepository } from '../platform/system/system-repository.js';

// `npm run oidc:rotate-keys`: a new generation of OpenID signing keys, published at once (running
// instances take it up within their key check) and signing from two key checks later, so relying
// parties can fetch it from any instance before they see it; the keys it replaces stay published until
// what they signed has expired. Nothing needs a restart.
const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  await migrateToLatest(database.db, database.dialect);
  const box = new SecretBox(await createSystemRepository(database.db).sharedKey(OIDC_KEY_SECRET));
  const keys = new SigningKeys(new OidcRepository(database.db), box);
  await keys.ensure();
  const { kids, signsFrom } = await keys.rotate();
  console.log(
    `new signing keys: ${kids.join(', ')} (${database.describe}); published within ${KEY_CHECK_MS / 1000} s, signing from ${signsFrom.toISOString()} (within ${KEY_CHECK_MS / 1000} s after)`,
  );
} finally {
  await database.destroy();
}
