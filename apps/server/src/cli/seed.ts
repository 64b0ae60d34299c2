import { loadConfig } from '../platform/config.js';
import { createDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { seedDemoData } from '../seed/index.js';

// `npm run seed`: migrate, then add the demo data that is missing. Safe to run again.
const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  await migrateToLatest(database.db, database.dialect);
  const seeded = await seedDemoData(database.db, config);
  console.log(
    seeded.length ? `seeded: ${seeded.join(', ')} (${database.describe})` : `nothing to seed: demo data present (${database.describe})`,
  );
} finally {
  await database.destroy();
}
