import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A key's hits in its current window and the window's end (epoch ms). */
export interface WindowCount {
  hits: number;
  expiresAt: number;
}

/** The counters of the limits every instance shares (`rate_limit_hit`). */
export class RateLimitRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds a hit to `bucket` in one statement (an upsert, atomic on both databases, so parallel posts to
   * several instances are all counted): a window that has ended at `now` starts again with this hit.
   */
  async hit(bucket: string, now: number, windowMs: number): Promise<WindowCount> {
    const ends = now + windowMs;
    const row = await this.db
      .insertInto('rate_limit_hit')
      .values({ bucket, hits: 1, expires_at: ends })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet((eb) => {
          const ended = eb('rate_limit_hit.expires_at', '<=', now);
          return {
            hits: eb
              .case()
              .when(ended)
              .then(1)
              .else(eb('rate_limit_hit.hits', '+', 1))
              .end(),
            // eb.val: a bare number in CASE … THEN is written into the SQL as a literal, a new statement text
            // (prepared again, crowding the statement cache) on every hit.
            expires_at: eb.case().when(ended).then(eb.val(ends)).else(eb.ref('rate_limit_hit.expires_at')).end(),
          };
        }),
      )
      .returning(['hits', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { hits: row.hits, expiresAt: Number(row.expires_at) };
  }

  /** The bucket's count without adding to it; undefined when it has none in a running window. */
  async read(bucket: string, now: number): Promise<WindowCount | undefined> {
    const row = await this.db
      .selectFrom('rate_limit_hit')
      .select(['hits', 'expires_at'])
      .where('bucket', '=', bucket)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { hits: row.hits, expiresAt: Number(row.expires_at) } : undefined;
  }
}
