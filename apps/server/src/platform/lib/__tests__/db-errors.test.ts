import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase, testDialects } from '../../../testing/test-app.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db-errors.js';

describe.each(testDialects())('database constraint errors on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(() => t.drop());

  const caught = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (err) {
      return err;
    }
    throw new Error('the write was expected to fail');
  };

  it('recognises a unique violation, and only that', async () => {
    const category = { code: 'dup-check', name: '重复', channel: 'news', parent_id: null, sort: 0, created_at: new Date().toISOString() };
    await t.database.db.insertInto('cms_category').values(category).execute();
    const err = await caught(() => t.database.db.insertInto('cms_category').values(category).execute());
    expect(isUniqueViolation(err)).toBe(true);
    expect(isForeignKeyViolation(err)).toBe(false);
  });

  it('recognises a foreign key violation, and only that', async () => {
    const now = new Date().toISOString();
    const err = await caught(() =>
      t.database.db
        .insertInto('idf_prefix')
        .values({ prefix: '88.999.1', name: '无主前缀', enterprise_id: 999_999, created_at: now, updated_at: now })
        .execute(),
    );
    expect(isForeignKeyViolation(err)).toBe(true);
    expect(isUniqueViolation(err)).toBe(false);
  });
});
