import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PreparingPool } from './postgres-prepared.js';
import type { Database } from './schema.js';
import { PortalSqliteDialect } from './sqlite-dialect.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** A short description for logs, without credentials. */
  describe: string;
  /** Hears every query's end (its duration, whether it failed): the metrics' query latency. Answers how to stop. */
  observeQueries(listener: QueryListener): () => void;
  /** PostgreSQL: the pool's connections now (SQLite has one connection and no pool). */
  poolState?: () => PoolState;
  destroy(): Promise<void>;
}

export type QueryListener = (durationMs: number, failed: boolean) => void;

export interface PoolState {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

/** Kysely's log hook, the documented place to time its queries, passed on to whoever observes. */
function queryLog() {
  const listeners = new Set<QueryListener>();
  return {
    log: (event: LogEvent) => {
      for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
    },
    observe: (listener: QueryListener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  sqliteFile: string;
  /** PostgreSQL only: a schema to work in (tests use one per file); created when missing. */
  pgSchema?: string;
}

function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** Hides the password of a connection URL. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable url)';
  }
}

export async function createDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (isPostgresUrl(options.databaseUrl)) {
    const schema = options.pgSchema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
    if (schema) {
      const admin = new pg.Client({ connectionString: options.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    });
    // Fail fast with a clear message when the server cannot be reached.
    const client = await pool.connect();
    client.release();
    const queries = queryLog();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PreparingPool(pool) }), log: queries.log });
    return {
      db,
      dialect: 'postgres',
      describe: redactUrl(options.databaseUrl) + (schema ? ` (schema ${schema})` : ''),
      observeQueries: queries.observe,
      poolState: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      destroy: () => db.destroy(),
    };
  }
  if (options.databaseUrl) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // No memory map (SQLite's default): mapped pages count in the process's RSS up to the map's size
  // (750 MiB over a million identifiers), while read(2) from the OS page cache costs an identifier
  // lookup a few microseconds more of the quarter millisecond its request takes.
  const queries = queryLog();
  const db = new Kysely<Database>({ dialect: new PortalSqliteDialect(sqlite), log: queries.log });
  return {
    db,
    dialect: 'sqlite',
    describe: `sqlite ${options.sqliteFile}`,
    observeQueries: queries.observe,
    destroy: () => db.destroy(),
  };
}
