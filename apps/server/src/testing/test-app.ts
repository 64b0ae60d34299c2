import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp, type PortalApp } from '../app.js';
import type { Caller } from '../identity/portal-auth/auth.js';
import { type ServerConfig, loadConfig } from '../platform/config.js';
import { createDatabase, type DatabaseHandle, type DialectName } from '../platform/db/database.js';
import type { CacheClock } from '../platform/lib/cache.js';
import { adminQuery, dropSchema } from './pg-admin.js';
import { template, testRun } from './test-templates.js';

/**
 * Loopback, where the tests' stand-ins listen (CAS client applications, slapd, chat platforms): the
 * networks tenants' addresses may reach in tests (OUTBOUND_ALLOW_NETWORKS). A test that proves a
 * refusal sets it to ''.
 */
export const TEST_OUTBOUND_ALLOW = '127.0.0.0/8,::1/128';

/**
 * The databases API tests run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set; TEST_DIALECTS
 * (`sqlite` or `postgres`) keeps one of them, so `npm test` can time each database's pass.
 */
export function testDialects(): DialectName[] {
  const available: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const only = process.env.TEST_DIALECTS?.split(',').map((d) => d.trim());
  return only ? available.filter((d) => only.includes(d)) : available;
}

export interface TestDatabase {
  database: DatabaseHandle;
  config: ServerConfig;
  /** A connection of its own to the same database, as another instance of the server opens one (the caller destroys it). */
  connectAgain(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database (demo-seeded unless `seed: false`): a temporary SQLite file, or a
 * throw-away PostgreSQL schema, copied from this worker's template (testing/test-templates.ts).
 */
export async function createTestDatabase(
  dialect: DialectName,
  env: Record<string, string> = {},
  options: { seed?: boolean } = {},
): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const databaseUrl = dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (dialect === 'postgres' && !databaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const from = await template(dialect, options.seed !== false);
  const config = loadConfig({
    // fastify.inject sends `Host: localhost:80`: the loopback host the server answers for by default.
    PORT: '80',
    SQLITE_FILE: path.join(dir, 'portal.sqlite'),
    WEB_DIST: path.join(dir, 'no-web'),
    FILES_DIR: path.join(dir, 'files'),
    PRIVATE_FILES_DIR: path.join(dir, 'private'),
    AUDIT_ARCHIVE_DIR: path.join(dir, 'audit-archive'),
    LOG_LEVEL: 'silent',
    // Scheduled syncs run only when a test calls app.syncScheduleService.tick().
    SYNC_SCHEDULER: '0',
    // Counted identifier lookups reach 标识统计 and 工作台 within a second.
    IDENTIFIER_STATS_FLUSH_SECONDS: '1',
    OUTBOUND_ALLOW_NETWORKS: TEST_OUTBOUND_ALLOW,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  // Named after the run, so that its teardown finds the schema of a file that crashed.
  const schema = `t_${testRun().tag}_${randomBytes(6).toString('hex')}`;
  if (databaseUrl && from.pgScript) await adminQuery(databaseUrl, from.pgScript(schema));
  if (from.sqliteFile) {
    fs.mkdirSync(path.dirname(config.sqliteFile), { recursive: true });
    fs.copyFileSync(from.sqliteFile, config.sqliteFile);
  }
  if (fs.existsSync(from.privateDir)) fs.cpSync(from.privateDir, config.privateFilesDir, { recursive: true });
  const connect = () =>
    createDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: config.sqliteFile,
      ...(dialect === 'postgres' ? { pgSchema: schema } : {}),
    });
  const database = await connect();
  return {
    database,
    config,
    connectAgain: connect,
    async drop() {
      await database.destroy();
      if (databaseUrl) await dropSchema(databaseUrl, schema);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestApp extends TestDatabase {
  app: PortalApp;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh database (fastify/demo style: tests call `app.inject`). `clock`: what its
 * caches' time to live runs on (see `testClock`), for tests of what a cache keeps and for how long.
 */
export async function createTestApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  options: { clock?: CacheClock } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase(dialect, env);
  const app = await buildApp({ config: testDb.config, database: testDb.database, logger: false, clock: options.clock });
  return {
    ...testDb,
    app,
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
}

/** A clock a test moves by hand (`advance`), for the app's caches: time passes only when the test says so. */
export function testClock(): CacheClock & { advance(ms: number): void } {
  let now = performance.now();
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** A token for a seeded account, through a session opened directly (no CAS round trip). */
export async function tokenFor(t: TestApp, username: string): Promise<string> {
  const account = await t.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  const cookie = await t.app.portalSessionService.open(account.id, `ST-test-${randomBytes(8).toString('hex')}`);
  const session = await t.app.portalSessionService.fromCookie(cookie);
  if (!session) throw new Error('session did not open');
  return `Bearer ${t.app.accessTokenService.issue(session.key, account.id)}`;
}

/** A seeded account as the caller of a service, for tests that call services without HTTP. */
export async function callerFor(t: TestApp, username: string, ip = '192.0.2.10'): Promise<Caller> {
  const account = await t.app.accountRepository.findForLogin(username);
  const profile = account && (await t.app.accountRepository.profile(account.id));
  if (!profile) throw new Error(`no account ${username}`);
  const { id: accountId, enterpriseId, authorities } = profile;
  return { accountId, username, enterpriseId, authorities, ip, origin: 'http://portal.test', log: t.app.log, serviceTicket: '', profile };
}

/** Another instance of the portal on the same database (same SQLite file, same PostgreSQL schema). */
export async function secondInstance(t: TestApp) {
  let pgSchema: string | undefined;
  if (t.database.dialect === 'postgres') {
    const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db);
    pgSchema = result.rows[0]?.schema;
  }
  const database = await createDatabase({
    databaseUrl: t.config.databaseUrl,
    sqliteFile: t.config.sqliteFile,
    ...(pgSchema ? { pgSchema } : {}),
  });
  const app = await buildApp({ config: t.config, database, logger: false });
  return {
    app,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}
