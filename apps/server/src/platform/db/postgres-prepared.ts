import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** Statements one connection prepares at most: the portal's are a fixed set, but lists (`in (?, ?, …)`) make new texts. */
export const PREPARED_PER_CONNECTION = 256;

/**
 * Whether a statement may stay prepared on a connection. One that reads or returns `*` may not: a
 * column another instance's migration adds (a rolling upgrade) would change its result, and PostgreSQL
 * refuses to run such a prepared statement again ("cached plan must not change result type").
 * Statements without parameters (DDL, BEGIN, COMMIT) run once or cost nothing to parse.
 */
function preparable(text: string, parameters: ReadonlyArray<unknown>): boolean {
  return parameters.length > 0 && !text.replaceAll('count(*)', '').includes('*');
}

/**
 * A pooled connection whose statements are prepared once and then only bound and run (the extended
 * protocol's named statements): PostgreSQL parses and plans an unnamed statement on every run, which
 * was about half of its CPU per sign-in; a named one is parsed once, and after five runs it may keep a
 * generic plan (PostgreSQL's plan_cache_mode). Others run unnamed, as node-postgres sends them.
 */
class PreparingClient implements PostgresPoolClient {
  /** Statement texts prepared on this connection, by name. */
  readonly #names = new Map<string, string>();

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    input: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // node-postgres's client is what Kysely's dialect takes as it is; only the statement's name is added here.
    const plain: PostgresPoolClient = this.client;
    if (typeof input !== 'string') return plain.query(input);
    const name = this.#nameOf(input, parameters);
    if (name === undefined) return plain.query<R>(input, parameters);
    // The answer has the shape Kysely reads from node-postgres's (command, rowCount, rows).
    return this.client.query({ name, text: input, values: [...parameters] }) as unknown as Promise<PostgresQueryResult<R>>;
  }

  #nameOf(text: string, parameters: ReadonlyArray<unknown>): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined || !preparable(text, parameters) || this.#names.size >= PREPARED_PER_CONNECTION) return known;
    const name = `p_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    this.#names.set(text, name);
    return name;
  }

  release(): void {
    this.client.release();
  }
}

/** A node-postgres pool for Kysely whose connections prepare their statements (PreparingClient). */
export class PreparingPool implements PostgresPool {
  /** One wrapper per pooled connection, so its prepared names live as long as the connection does. */
  readonly #clients = new WeakMap<pg.PoolClient, PreparingClient>();

  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let preparing = this.#clients.get(client);
    if (!preparing) {
      preparing = new PreparingClient(client);
      this.#clients.set(client, preparing);
    }
    return preparing;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
