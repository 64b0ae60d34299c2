import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Article views are counted in memory and added to the database once a second
 * (`view_count = view_count + n`), so a read never waits for a write lock. Several instances
 * each add their own increments; on shutdown the last ones are flushed.
 */
export class ViewCounter {
  #pending = new Map<number, number>();
  /** Views counted by this instance since it started, per article (written or not). */
  #total = new Map<number, number>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
    intervalMs = 1000,
  ) {
    this.#timer = setInterval(() => void this.flush(), intervalMs);
    this.#timer.unref();
  }

  /** Counts one view; returns how many are not yet written for this article. */
  add(articleId: number): number {
    const n = (this.#pending.get(articleId) ?? 0) + 1;
    this.#pending.set(articleId, n);
    this.#total.set(articleId, (this.#total.get(articleId) ?? 0) + 1);
    return n;
  }

  /** Views of an article counted by this instance so far. */
  counted(articleId: number): number {
    return this.#total.get(articleId) ?? 0;
  }

  /** Counted here but not yet in the database. */
  pending(articleId: number): number {
    return this.#pending.get(articleId) ?? 0;
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [id, n] of batch) {
          await trx
            .updateTable('cms_article')
            .set((eb) => ({ view_count: eb('view_count', '+', n) }))
            .where('id', '=', id)
            .execute();
        }
      });
    } catch (err) {
      // Keep the counts for the next try.
      for (const [id, n] of batch) this.#pending.set(id, (this.#pending.get(id) ?? 0) + n);
      this.onError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
