import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { addLdapSource } from '../../directory-sync/__tests__/sync-test-kit.js';

describe.each(testDialects())('a directory identity belongs to one account on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('linking it to a second account is refused and leaves it where it was; the same account may refresh its DN', async () => {
    const { db } = t.database;
    const sourceId = await addLdapSource(t, '徐州恒岳重工机械有限公司', 'ldap://127.0.0.1:1');
    const idOf = async (username: string) =>
      (await db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const [liuyang, zhoujie] = [await idOf('liuyang'), await idOf('zhoujie')];
    const repo = t.app.authSourceRepository;
    expect(await repo.link(db, liuyang, sourceId, 'uuid-1', 'uid=liuyang,ou=rd,dc=hengyue,dc=com')).toBe(true);
    expect(await repo.link(db, zhoujie, sourceId, 'uuid-1', 'uid=zhoujie,ou=rd,dc=hengyue,dc=com')).toBe(false);
    expect(await repo.accountOf(sourceId, 'uuid-1')).toBe(liuyang);
    expect(await repo.link(db, liuyang, sourceId, 'uuid-1', 'uid=liuyang,ou=sales,dc=hengyue,dc=com')).toBe(true);
    const row = await db
      .selectFrom('account_identity')
      .select(['account_id', 'dn'])
      .where('external_id', '=', 'uuid-1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ account_id: liuyang, dn: 'uid=liuyang,ou=sales,dc=hengyue,dc=com' });
  });
});
