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

/**
 * A `@fastify/rate-limit` store whose counters live in the database (`rate_limit_hit`), so every
 * instance of the portal adds to the same window: two instances allow what one does. One statement
 * per counted request (an upsert); windows are fixed, like the plugin's own stores.
 */
class DatabaseStore implements FastifyRateLimitStore {
  constructor(
    private readonly repo: RateLimitRepository,
    private readonly name: string,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    this.repo.hit(`${this.name}|${key}`, now, timeWindow).then(
      (count) => callback(null, { current: count.hits, ttl: Math.max(0, count.expiresAt - now) }),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }

  read(key: string, callback: Callback): void {
    const now = Date.now();
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
