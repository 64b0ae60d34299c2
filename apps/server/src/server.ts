import { buildApp, type PortalApp } from './app.js';
import type { ServerConfig } from './platform/config.js';
import { createDatabase, type DatabaseHandle } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { seedDemoData } from './seed/index.js';

export interface PortalServer {
  app: PortalApp;
  database: DatabaseHandle;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  stop(): Promise<void>;
}

/** Opens the database, migrates it, seeds an empty one and builds the app (not yet listening). */
export async function createPortalServer(config: ServerConfig, overrides: { logger?: boolean } = {}): Promise<PortalServer> {
  const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  try {
    const applied = await migrateToLatest(database.db, database.dialect);
    const seeded = config.seedDemo ? await seedDemoData(database.db, config) : [];
    const app = await buildApp({ config, database, ...(overrides.logger === undefined ? {} : { logger: overrides.logger }) });
    app.log.info({ database: database.describe, migrations: applied, seeded }, 'database ready');
    let stopping: Promise<void> | undefined;
    return {
      app,
      database,
      stop() {
        stopping ??= (async () => {
          try {
            await app.close();
          } finally {
            await database.destroy();
          }
        })();
        return stopping;
      },
    };
  } catch (err) {
    await database.destroy();
    throw err;
  }
}
