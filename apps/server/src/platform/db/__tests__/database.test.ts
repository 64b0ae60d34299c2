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

describe.each(testDialects().filter((d) => d === 'postgres'))('statements on %s', (dialect) => {
  it('runs each statement prepared once per connection, and one reading * unprepared across a column another instance adds', async () => {
    const t = await createTestDatabase(dialect, {}, { seed: false });
    const other = await t.connectAgain();
    try {
      const { db } = t.database;
      await db.insertInto('nav_item').values({ key: 'news', title: '新闻', sort: 2, enabled: 1 }).execute();
      const titled = () => db.selectFrom('nav_item').select(['key', 'title']).where('key', '=', 'news').executeTakeFirst();
      const whole = () => db.selectFrom('nav_item').selectAll().where('key', '=', 'news').executeTakeFirst();
      // A transaction holds one connection: everything in it runs there.
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) {
          await trx.selectFrom('nav_item').select(['key', 'title']).where('key', '=', 'news').executeTakeFirst();
          await trx.selectFrom('nav_item').selectAll().where('key', '=', 'news').executeTakeFirst();
        }
        const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
        const statements = prepared.rows.map((r) => r.statement);
        expect(statements.filter((s) => s.includes('"title" from "nav_item"'))).toHaveLength(1);
        expect(statements.filter((s) => s.includes('* from "nav_item"'))).toEqual([]);
      });
      expect(await titled()).toEqual({ key: 'news', title: '新闻' });
      // A newer instance's migration adds a column while this one runs: every statement still answers.
      await sql`alter table nav_item add column note varchar(20)`.execute(other.db);
      expect(await titled()).toEqual({ key: 'news', title: '新闻' });
      expect(await whole()).toMatchObject({ key: 'news', title: '新闻', note: null });
    } finally {
      await other.destroy();
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
