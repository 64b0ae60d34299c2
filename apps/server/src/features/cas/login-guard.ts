import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface LockPolicy {
  maxFailures: number;
  lockMinutes: number;
}

/**
 * Account lockout after repeated wrong passwords (OWASP authentication cheat sheet): the counter
 * lives in the database so every server instance sees it; a success or the end of a lock resets it.
 */
export class LoginGuard {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly policy: LockPolicy,
  ) {}

  /** Minutes left on a lock of `key` (a lower-cased login), or 0. */
  async lockedMinutes(key: string, now = new Date()): Promise<number> {
    const row = await this.db.selectFrom('login_failure').select('locked_until').where('username', '=', key).executeTakeFirst();
    if (!row?.locked_until) return 0;
    const left = new Date(row.locked_until).getTime() - now.getTime();
    return left > 0 ? Math.ceil(left / 60_000) : 0;
  }

  /** Records a failure; answers the attempts left before a lock (0 = locked now). */
  async recordFailure(key: string, now = new Date()): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('login_failure').select(['failures', 'locked_until']).where('username', '=', key).executeTakeFirst();
      // A lock that has run out starts a fresh count.
      const previous = row && !(row.locked_until && row.locked_until <= now.toISOString()) ? row.failures : 0;
      const failures = previous + 1;
      const lockedUntil =
        failures >= this.policy.maxFailures ? new Date(now.getTime() + this.policy.lockMinutes * 60_000).toISOString() : null;
      await trx
        .insertInto('login_failure')
        .values({ username: key, failures, last_failed_at: now.toISOString(), locked_until: lockedUntil })
        .onConflict((oc) => oc.column('username').doUpdateSet({ failures, last_failed_at: now.toISOString(), locked_until: lockedUntil }))
        .execute();
      return Math.max(0, this.policy.maxFailures - failures);
    });
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('login_failure').where('username', '=', key).execute();
  }
}

/** Per-client-IP attempt window for the login form (in memory: a burst limiter in front of the lock). */
export class AttemptWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Records an attempt; answers the seconds to wait, or 0 when allowed. */
  hit(key: string, now = Date.now()): number {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= this.perMinute) {
      this.hits.set(key, recent);
      return Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.hits.delete(key);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
    return 0;
  }
}
