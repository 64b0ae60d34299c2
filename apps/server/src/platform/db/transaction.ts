import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, PostgresAdapter } from 'kysely';
import { isRetryableConflict } from '../lib/db-errors.js';
import { AppError } from '../lib/errors.js';
import type { Database } from './schema.js';

/** Attempts of a transaction PostgreSQL broke off (a deadlock or a serialization failure) before the caller is told. */
const ATTEMPTS = 5;
/** The first retry's wait (ms); each one after doubles it, every wait jittered to between half and all of it. */
const BACKOFF_MS = 15;

const busy = () => new AppError('系统繁忙，请稍后重试', 503);

/**
 * Runs `work` in a new transaction of `db`, or in the transaction `db` already is: a repository's
 * multi-statement write then joins its caller's transaction (a console write and its audit row).
 *
 * A new transaction that PostgreSQL aborts as a deadlock victim (40P01) or a serialization failure
 * (40001) has been rolled back whole, so `work` runs again in a fresh one after a short jittered
 * wait. Only `work` is repeated: what the caller does after the commit (an SMS, single logout) runs
 * once. `work` must therefore touch nothing but the transaction. A joined transaction is not retried
 * here: its owner retries it whole.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      if (!isRetryableConflict(err)) throw err;
      if (attempt >= ATTEMPTS) throw busy();
      const wait = BACKOFF_MS * 2 ** (attempt - 1);
      await sleep(wait / 2 + Math.random() * (wait / 2));
    }
  }
}

/**
 * Locks an enterprise's row until the transaction ends: the first lock of every console write of
 * that enterprise, so its writes take their locks in one order (the enterprise, then its rows) and
 * queue instead of deadlocking. FOR NO KEY UPDATE, as an UPDATE of the row takes: it does not block
 * the key-share locks that inserts of the enterprise's rows take on it through their foreign keys,
 * so holding those first never has to be upgraded. SQLite runs one write transaction at a time.
 */
export async function lockEnterprise(trx: Kysely<Database>, enterpriseId: number): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  // Transaction infrastructure, not a table's data: the lock every repository's write queues behind.
  await trx.selectFrom('enterprise').select('id').where('id', '=', enterpriseId).forNoKeyUpdate().execute();
}

/** A console write of an enterprise: {@link inTransaction} with the enterprise's row locked first. */
export function inEnterpriseTransaction<T>(
  db: Kysely<Database>,
  enterpriseId: number,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    await lockEnterprise(trx, enterpriseId);
    return work(trx);
  });
}
