import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { createTestDatabase, testDialects } from '../../testing/test-app.js';

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
      const { seedDemoData } = await import('../seed/index.js');
      const results = await Promise.allSettled([seedDemoData(t.database.db), seedDemoData(t.database.db)]);
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

describe('SQLite row reader (the read-only connection of point lookups)', () => {
  it('reads committed rows, never a transaction still open on the writer, and cannot write', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const { db, rowReader } = t.database;
      if (!rowReader) throw new Error('SQLite has a row reader');
      const byKey = rowReader<{ title: string }>('select title from nav_item where key = ?');
      expect(byKey(['home'])).toBeUndefined();
      await db.insertInto('nav_item').values({ key: 'home', title: '首页', sort: 1, enabled: 1 }).execute();
      expect(byKey(['home'])).toEqual({ title: '首页' });

      let seenDuringTransaction: unknown = 'not read';
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('nav_item').values({ key: 'news', title: '新闻', sort: 2, enabled: 1 }).execute();
          seenDuringTransaction = byKey(['news']);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(seenDuringTransaction).toBeUndefined();
      expect(byKey(['news'])).toBeUndefined();

      const write = rowReader(`insert into nav_item (key, title) values ('x', 'x') returning id`);
      expect(() => write([])).toThrow(/readonly/);
    } finally {
      await t.drop();
    }
  });

  it("shares one snapshot per event-loop turn: another process's commit is seen from the next turn", async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    const other = new SQLite(t.config.sqliteFile);
    try {
      const { rowReader } = t.database;
      if (!rowReader) throw new Error('SQLite has a row reader');
      const byKey = rowReader<{ title: string }>('select title from nav_item where key = ?');
      expect(byKey(['about'])).toBeUndefined();
      other.prepare(`insert into nav_item (key, title, sort, enabled) values ('about', '关于我们', 3, 1)`).run();
      // The same turn still reads its snapshot; the next one reads the commit.
      expect(byKey(['about'])).toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(byKey(['about'])).toEqual({ title: '关于我们' });
      // A snapshot held until the turn ends does not stop the writer from checkpointing afterwards.
      await new Promise((resolve) => setImmediate(resolve));
      expect(other.pragma('wal_checkpoint(TRUNCATE)', { simple: true })).toBe(0);
    } finally {
      other.close();
      await t.drop();
    }
  });

  it.skipIf(!testDialects().includes('postgres'))('is SQLite only: on PostgreSQL callers use Kysely', async () => {
    const t = await createTestDatabase('postgres', {}, { seed: false });
    try {
      expect(t.database.rowReader).toBeUndefined();
    } finally {
      await t.drop();
    }
  });
});
