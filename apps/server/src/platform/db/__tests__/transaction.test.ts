import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { createTestDatabase, type TestDatabase, testDialects } from '../../../testing/test-app.js';
import { inTransaction } from '../transaction.js';

/** A promise and the function that settles it. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe.each(testDialects())('the transaction helper on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect, {}, { seed: false });
    const now = new Date().toISOString();
    await t.database.db
      .insertInto('site_setting')
      .values(['a', 'b', 'c'].map((key) => ({ key, value: '', updated_at: now })))
      .execute();
  });
  afterAll(() => t.drop());

  const valueOf = async (key: string) =>
    (await t.database.db.selectFrom('site_setting').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;

  it('answers 503 系统繁忙 when the database keeps breaking the transaction off, having rolled back every attempt', async () => {
    let attempts = 0;
    const outcome = inTransaction(t.database.db, async (trx) => {
      attempts++;
      await trx
        .updateTable('site_setting')
        .set({ value: `attempt ${attempts}` })
        .where('key', '=', 'c')
        .execute();
      throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
    });
    await expect(outcome).rejects.toEqual(new AppError('系统繁忙，请稍后重试', 503));
    expect(await outcome.catch((err: AppError) => err.statusCode)).toBe(503);
    expect(attempts).toBe(5);
    expect(await valueOf('c')).toBe('');
  });

  it('runs other failures once and passes them on (a unique violation stays one, for its 409)', async () => {
    let attempts = 0;
    const outcome = inTransaction(t.database.db, async (trx) => {
      attempts++;
      await trx.insertInto('site_setting').values({ key: 'a', value: 'twin', updated_at: '' }).execute();
    });
    await expect(outcome).rejects.toSatisfy((err: { code?: string; message?: string }) =>
      dialect === 'postgres' ? err.code === '23505' : String(err.message).includes('UNIQUE constraint failed'),
    );
    expect(attempts).toBe(1);
  });

  // SQLite runs one write transaction at a time: two can never hold one row each.
  if (dialect === 'postgres') {
    it('runs a deadlock victim again after the other commits: both writes end, whole', async () => {
      const attempts = [0, 0];
      const holding = [signal(), signal()];
      const side = (me: 0 | 1, first: string, second: string) =>
        inTransaction(t.database.db, async (trx) => {
          attempts[me]!++;
          await sql`update site_setting set value = ${`side ${me}`} where key = ${first}`.execute(trx);
          // The first time, each waits until the other holds its first row: then each wants the other's.
          if (attempts[me] === 1) {
            holding[me]!.resolve();
            await holding[1 - me]!.promise;
          }
          await sql`update site_setting set value = ${`side ${me}`} where key = ${second}`.execute(trx);
          return me;
        });
      expect(await Promise.all([side(0, 'a', 'b'), side(1, 'b', 'a')])).toEqual([0, 1]);
      // One ran once; the victim twice, and committed last: both rows hold its value.
      expect([...attempts].sort()).toEqual([1, 2]);
      const victim = attempts[0] === 2 ? 'side 0' : 'side 1';
      expect([await valueOf('a'), await valueOf('b')]).toEqual([victim, victim]);
    });
  }
});
