/**
 * Counts (article views, identifier lookups) are kept in memory and added to the database once a
 * second (`n = n + k`), so a read never waits for a write lock. Several instances each add their own
 * increments; on shutdown the last ones are flushed.
 */
export class BatchedCounter<K = number> {
  /** Counts not yet written, and the batch being written now: both still missing from the database. */
  #pending = new Map<K, number>();
  #writing = new Map<K, number>();
  #flushing: Promise<void> | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly write: (batch: ReadonlyMap<K, number>) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    intervalMs = 1000,
  ) {
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** Counts one for `key`; answers how many of its counts the database does not have yet. */
  add(key: K): number {
    const n = (this.#pending.get(key) ?? 0) + 1;
    this.#pending.set(key, n);
    return n + (this.#writing.get(key) ?? 0);
  }

  /** Writes the counts so far (one batch at a time). */
  flush(): Promise<void> {
    this.#flushing ??= this.#writeBatch().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async #writeBatch(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#writing = batch;
    this.#pending = new Map();
    try {
      await this.write(batch);
    } catch (err) {
      // Keep the counts for the next try.
      for (const [id, n] of batch) this.#pending.set(id, (this.#pending.get(id) ?? 0) + n);
      this.onError(err);
    }
    this.#writing = new Map();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#flushing;
    await this.flush();
  }
}
