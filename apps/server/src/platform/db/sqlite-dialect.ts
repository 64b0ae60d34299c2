import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  type TransactionSettings,
} from 'kysely';

/**
 * Prepared statements kept per SQL text, least recently used first out: the app's queries are a
 * small fixed set, but lists (`in (?, ?, …)`) make new texts, so the cache has a bound.
 */
const STATEMENT_CACHE_SIZE = 200;

/**
 * SQLite has one connection. Kysely's own driver guards it with a mutex whose waiters all wake on
 * every release and race for it again (quadratic in the number of queued queries). This one hands
 * the connection to the next waiter in FIFO order and reuses prepared statements.
 */
class SqliteConnection implements DatabaseConnection {
  readonly #db: SqliteDatabase;
  readonly #statements = new Map<string, Statement>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  #prepare(sql: string): Statement {
    let stmt = this.#statements.get(sql);
    if (stmt) {
      // Refresh its place in the LRU order.
      this.#statements.delete(sql);
    } else {
      stmt = this.#db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
    }
    this.#statements.set(sql, stmt);
    return stmt;
  }

  /** Drops the cached statements, so none outlives the database when it closes. */
  clear(): void {
    this.#statements.clear();
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#prepare(compiledQuery.sql);
    const params = compiledQuery.parameters as unknown[];
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(...params) as R[] });
    const { changes, lastInsertRowid } = stmt.run(...params);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error('SQLite streams only select queries');
    const stmt = this.#prepare(compiledQuery.sql);
    for (const row of stmt.iterate(...(compiledQuery.parameters as unknown[]))) yield { rows: [row as R] };
  }
}

class FifoMutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

class QueuedSqliteDriver implements Driver {
  readonly #db: SqliteDatabase;
  readonly #mutex = new FifoMutex();
  readonly #connection: SqliteConnection;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#connection = new SqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    // IMMEDIATE takes the write lock up front, so two processes never deadlock upgrading a read.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#connection.clear();
    this.#db.close();
  }
}

/** Kysely's SQLite dialect with the queued driver above. */
export class PortalSqliteDialect extends SqliteDialect {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    super({ database: db });
    this.#db = db;
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.#db);
  }
}
