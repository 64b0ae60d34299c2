import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

/** How a sign-in's browser relates to the account's earlier ones. */
export type BrowserSighting = 'first' | 'known' | 'new';

/**
 * The browsers (fingerprints of name, system and device type) each account signed in from:
 * a sign-in from one it never used is a security message.
 */
export class KnownBrowserRepository {
  /**
   * Records a sign-in from `fingerprint` inside the login's transaction (first seen once, last seen
   * every time) and answers whether the account had used it: 'first' when it had used no browser yet.
   */
  async sighted(trx: Kysely<Database>, accountId: number, fingerprint: string, at: Date): Promise<BrowserSighting> {
    // One row: this browser's when the account used it, else any other's, else none.
    const seen = await trx
      .selectFrom('known_browser')
      .select('fingerprint')
      .where('account_id', '=', accountId)
      .orderBy((eb) => eb.case().when('fingerprint', '=', fingerprint).then(0).else(1).end())
      .limit(1)
      .executeTakeFirst();
    const now = at.toISOString();
    // Two sign-ins at once from the same new browser: the second updates the row the first inserted.
    await trx
      .insertInto('known_browser')
      .values({ account_id: accountId, fingerprint, first_seen_at: now, last_seen_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'fingerprint']).doUpdateSet({ last_seen_at: now }))
      .execute();
    if (!seen) return 'first';
    return seen.fingerprint === fingerprint ? 'known' : 'new';
  }
}
