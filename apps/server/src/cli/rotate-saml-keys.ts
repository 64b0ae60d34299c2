import { SAML_KEY_SECRET, SamlKeys } from '../identity/saml/saml-keys.js';
import { SamlRepository } from '../identity/saml/saml-repository.js';
import { loadConfig, publicSiteUrl } from '../platform/config.js';
import { createDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { SecretBox } from '../platform/lib/sealed-secret.js';
import { createSystemRepository } from '../platform/system/system-repository.js';

// `npm run saml:rotate-keys`: a new SAML signing key and certificate, in the IdP metadata at once and
// signing a day later, when service providers that refresh the metadata daily trust it; the replaced
// certificate stays in the metadata a week after that. Nothing needs a restart (keys are read per message).
const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  await migrateToLatest(database.db, database.dialect);
  const box = new SecretBox(await createSystemRepository(database.db).sharedKey(SAML_KEY_SECRET));
  const keys = new SamlKeys(new SamlRepository(database.db), box, new URL(publicSiteUrl(config)).host);
  await keys.ensure();
  const { generation, signsFrom } = await keys.rotate();
  console.log(
    `new SAML signing certificate (generation ${generation}, ${database.describe}): in the metadata now, signing from ${signsFrom.toISOString()}`,
  );
} finally {
  await database.destroy();
}
