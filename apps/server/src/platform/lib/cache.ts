import { LRUCache, type Perf } from 'lru-cache';

/** What a cache's time to live is measured on: `performance` unless a test passes a clock it moves. */
export type CacheClock = Perf;

/**
 * What a write may make stale: writes clear every cache of their group (`CacheRegistry.clear`); `keys`: signing keys;
 * `console-access`: enterprises' console IP rules; `security-policy`: enterprises' 安全设置 as the console's sessions read it.
 */
export type CacheGroup = 'site' | 'content' | 'identifiers' | 'keys' | 'console-access' | 'security-policy';

export interface LoadingCacheOptions<V> {
  /** Most entries kept. */
  max: number;
  /** Milliseconds an entry is kept; 0: until evicted or cleared. */
  ttl: number;
  /** Reads a missing value; `undefined` is answered but not kept. `setTtl` overrides `ttl` for this value. */
  load: (key: string, setTtl: (ms: number) => void) => Promise<V | undefined>;
  /** Bounds the cache by the sum of `sizeOf` over its entries instead of only by count. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
}

export interface LoadingCache<V> {
  get(key: string): Promise<V | undefined>;
  /** Whether `get` would answer from memory: a fresh entry, not a load in flight. */
  has(key: string): boolean;
}

/**
 * The server's in-process caches (lru-cache): bounded, with a time to live, concurrent misses of one
 * key share one load, and a clear drops what a load still in flight would have stored. Public answers
 * are cached over HTTP (plugins/http-cache.ts); these hold what the server itself reads often.
 */
export class CacheRegistry {
  readonly #groups = new Map<CacheGroup, { clear(): void }[]>();
  readonly #clock: Perf | undefined;

  /** `clock`: what the TTLs are measured on (`performance` by default); a test moves its own. */
  constructor(options: { clock?: Perf } = {}) {
    this.#clock = options.clock;
  }

  create<V extends object>(group: CacheGroup, options: LoadingCacheOptions<V>): LoadingCache<V> {
    const cache = new LRUCache<string, V>({
      max: options.max,
      ttl: options.ttl,
      // lru-cache reads a clock once per millisecond (ttlResolution); an injected one is read every time.
      ...(this.#clock ? { perf: this.#clock, ttlResolution: 0 } : {}),
      ...(options.maxSize && options.sizeOf ? { maxSize: options.maxSize, sizeCalculation: options.sizeOf } : {}),
      fetchMethod: async (key, _stale, { options: fetchOptions }) =>
        options.load(key, (ms) => {
          fetchOptions.ttl = ms;
        }),
    });
    const members = this.#groups.get(group) ?? [];
    members.push(cache);
    this.#groups.set(group, members);
    return { get: (key) => cache.fetch(key), has: (key) => cache.has(key) };
  }

  /** Adds a cache kept elsewhere (the rendered pages) to the groups whose writes make it stale. */
  register(groups: readonly CacheGroup[], cache: { clear(): void }): void {
    for (const group of groups) this.#groups.set(group, [...(this.#groups.get(group) ?? []), cache]);
  }

  /** Drops every entry of the group's caches on this instance (others see the write within their TTL). */
  clear(group: CacheGroup): void {
    for (const cache of this.#groups.get(group) ?? []) cache.clear();
  }
}
