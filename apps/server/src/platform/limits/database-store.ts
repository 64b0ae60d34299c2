import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitRepository } from './rate-limit-repository.js';

declare module '@fastify/rate-limit' {
  interface CreateRateLimitOptions {
    /**
     * The limit's name, which its counters in the database carry (`cas-login`): limits with the same
     * key (a client address) count apart. Every limit names itself; the store refuses one that does not.
     */
    limit?: string;
  }
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Keys over their limit that one store answers from memory at most (a flood from many addresses). */
const OVER_LIMIT_KEYS = 10_000;

/**
 * A `@fastify/rate-limit` store whose counters live in the database (`rate_limit_hit`), so every
 * instance of the portal adds to the same window: two instances allow what one does. One statement
 * per counted request (an upsert); windows are fixed, like the plugin's own stores. A key already
 * over its limit is counted in memory until its window ends: a flood of refused requests writes
 * nothing (the database's count is past the limit already, so other instances refuse it too).
 */
class DatabaseStore implements FastifyRateLimitStore {
  /** Keys over their limit in a running window: their count and the window's end (epoch ms). */
  readonly #over = new Map<string, { hits: number; expiresAt: number }>();

  constructor(
    private readonly repo: RateLimitRepository,
    private readonly name: string,
  ) {}

  /** The in-memory count of a key over its limit, while its window runs. */
  #overLimit(bucket: string, now: number) {
    const over = this.#over.get(bucket);
    if (over && over.expiresAt <= now) this.#over.delete(bucket);
    return over && over.expiresAt > now ? over : undefined;
  }

  incr(key: string, callback: Callback, timeWindow: number, max?: number): void {
    const now = Date.now();
    const bucket = `${this.name}|${key}`;
    const over = this.#overLimit(bucket, now);
    if (over) {
      over.hits++;
      callback(null, { current: over.hits, ttl: over.expiresAt - now });
      return;
    }
    this.repo.hit(bucket, now, timeWindow).then(
      (count) => {
        if (max !== undefined && count.hits > max && count.expiresAt > now) {
          if (this.#over.size >= OVER_LIMIT_KEYS) this.#over.delete(this.#over.keys().next().value ?? '');
          this.#over.set(bucket, { ...count });
        }
        callback(null, { current: count.hits, ttl: Math.max(0, count.expiresAt - now) });
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }

  read(key: string, callback: Callback): void {
    const now = Date.now();
    const over = this.#overLimit(`${this.name}|${key}`, now);
    if (over) {
      callback(null, { current: over.hits, ttl: over.expiresAt - now });
      return;
    }
    this.repo.read(`${this.name}|${key}`, now).then(
      (count) => callback(null, count ? { current: count.hits, ttl: Math.max(0, count.expiresAt - now) } : { current: 0, ttl: 0 }),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** The store of one limit: the plugin passes the limit's options (with the route's, for a route's limit). */
  child(options: object): FastifyRateLimitStore {
    const name = 'limit' in options ? options.limit : undefined;
    if (typeof name !== 'string' || !/^[a-z0-9-]+$/.test(name)) {
      throw new Error('every rate limit names itself (limit: "cas-login"): its counters are shared by name');
    }
    return new DatabaseStore(this.repo, name);
  }
}

/** The store class the plugin builds (it passes only its options), bound to the counters' repository. */
export function databaseStore(repo: RateLimitRepository): FastifyRateLimitStoreCtor {
  return class extends DatabaseStore {
    constructor() {
      super(repo, '');
    }
  };
}
