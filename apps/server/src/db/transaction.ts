import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `work` in a new transaction of `db`, or in the transaction `db` already is: a repository's
 * multi-statement write then joins its caller's transaction (a console write and its audit row).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
