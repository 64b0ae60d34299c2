import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../testing/test-app.js';
import { finiteIntegersMigration } from '../migrations/0007-finite-integers.js';

describe('repair of non-integer values in integer columns (SQLite)', () => {
  it('turns a stored "Infinity" back into a value the public detail and the console can answer', async () => {
    const t = await createTestApp('sqlite');
    try {
      const { db } = t.database;
      const article = await db.selectFrom('cms_article').select(['id', 'uuid']).where('status', '=', 'published').executeTakeFirstOrThrow();
      await sql`update cms_article set expiration_day = 'Infinity' where id = ${article.id}`.execute(db);
      await sql`update home_block set sort = '-Infinity' where id = (select min(id) from home_block)`.execute(db);
      const broken = await t.app.inject({ url: `/open-api/cms/v1/article/${article.uuid}/detail` });
      expect(broken.statusCode).toBe(500);

      // Migrations work on an untyped database (they describe the schema); the app's handle is one.
      await finiteIntegersMigration.up(db as unknown as Kysely<unknown>, 'sqlite');
      const detail = await t.app.inject({ url: `/open-api/cms/v1/article/${article.uuid}/detail` });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data[0].expirationDay).toBeNull();
      const home = await t.app.inject({ url: '/web-api/portal/v1/home' });
      expect(home.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
