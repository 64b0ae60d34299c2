import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { createTestDatabase, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('database on %s', (dialect) => {
  it('migrates an empty database, and migrating again is a no-op', async () => {
    const t = await createTestDatabase(dialect, {}, { seed: false });
    try {
      expect(await migrateToLatest(t.database.db, t.database.dialect)).toEqual([]);
      const count = await t.database.db
        .selectFrom('nav_item')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    } finally {
      await t.drop();
    }
  });

  it('seeds demo data once, even when two seeders race', async () => {
    const t = await createTestDatabase(dialect, {}, { seed: false });
    try {
      const { seedDemoData } = await import('../../../seed/index.js');
      const results = await Promise.allSettled([seedDemoData(t.database.db, t.config), seedDemoData(t.database.db, t.config)]);
      const seededBy = results.filter((r) => r.status === 'fulfilled' && r.value.includes('site'));
      expect(seededBy).toHaveLength(1);
      const links = await t.database.db
        .selectFrom('footer_link')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(links.n)).toBe(9);
    } finally {
      await t.drop();
    }
  });

  it('shows a row written with INSERT … RETURNING to reads started in the same turn as its answer, and to concurrent ones', async () => {
    const t = await createTestDatabase(dialect, {}, { seed: false });
    try {
      const { db } = t.database;
      const byKey = (key: string) => db.selectFrom('nav_item').select('title').where('key', '=', key).executeTakeFirst();
      // Reads queued before and around the write, then reads started synchronously when its answer arrives.
      const earlier = byKey('home');
      const seenAtOnce = db
        .insertInto('nav_item')
        .values({ key: 'home', title: '首页', sort: 1, enabled: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then(() => Promise.all([byKey('home'), byKey('home')]));
      const [before, after] = await Promise.all([earlier, seenAtOnce]);
      expect(before).toBeUndefined();
      expect(after).toEqual([{ title: '首页' }, { title: '首页' }]);
    } finally {
      await t.drop();
    }
  });

  it('answers many concurrent queries around a transaction; a rolled-back transaction leaves nothing', async () => {
    const t = await createTestDatabase(dialect, {}, { seed: false });
    try {
      const { db } = t.database;
      const count = async () =>
        Number(
          (
            await db
              .selectFrom('nav_item')
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const failed = db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('nav_item').values({ key: 'news', title: '新闻', sort: 2, enabled: 1 }).execute();
          throw new Error('roll back');
        })
        .then(
          () => 'committed',
          (err: Error) => err.message,
        );
      const counts = await Promise.all(Array.from({ length: 200 }, count));
      expect(await failed).toBe('roll back');
      expect(counts.every((n) => n === 0)).toBe(true);
      expect(await count()).toBe(0);
      await db
        .transaction()
        .execute((trx) => trx.insertInto('nav_item').values({ key: 'news', title: '新闻', sort: 2, enabled: 1 }).execute());
      expect(await count()).toBe(1);
    } finally {
      await t.drop();
    }
  });
});

describe('SQLite pragmas', () => {
  it('enforces foreign keys and uses WAL on SQLite', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.database.db);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
    } finally {
      await t.drop();
    }
  });
});
