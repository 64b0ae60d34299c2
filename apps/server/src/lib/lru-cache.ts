/**
 * A small LRU map with a time to live, for micro-caching answers that every visitor shares
 * (the published lists). Concurrent misses for one key share one load; failures are not kept.
 */
export class TtlLruCache<T> {
  readonly #entries = new Map<string, { value: T; until: number }>();
  readonly #loading = new Map<string, Promise<T>>();
  /** The most recently used entry (last in `#entries`' order): a run of hits on it moves nothing. */
  #newest: { value: T; until: number } | undefined;
  /** Bumped by clear(): a load that began before it must not store what it read. */
  #generation = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A value still fresh, without waiting (a hit answered synchronously), or undefined. */
  peek(key: string): T | undefined {
    const hit = this.#entries.get(key);
    if (!hit || hit.until <= this.now()) return undefined;
    if (hit !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      this.#newest = hit;
    }
    return hit.value;
  }

  /** `ttlOf` overrides the cache's TTL per loaded value (0 or less: answered but not kept). */
  get(key: string, load: () => Promise<T>, ttlOf?: (value: T) => number): Promise<T> {
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    const loading = load()
      .then((value) => {
        if (generation !== this.#generation) return value;
        this.#entries.delete(key);
        const ttl = ttlOf ? ttlOf(value) : this.ttlMs;
        if (ttl <= 0) return value;
        const entry = { value, until: this.now() + ttl };
        this.#entries.set(key, entry);
        this.#newest = entry;
        if (this.#entries.size > this.maxEntries) {
          const oldest = this.#entries.keys().next().value;
          if (oldest !== undefined) this.#entries.delete(oldest);
        }
        return value;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, loading);
    return loading;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
    this.#loading.clear();
    this.#generation += 1;
  }

  get size(): number {
    return this.#entries.size;
  }
}
