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
