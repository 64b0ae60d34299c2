import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { ResponseCode } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../testing/test-app.js';
import { listen } from '../testing/test-browser.js';

const BASE = '/web-api/console/v1';
const BURST = 20;
const HEADER = '账号,姓名,手机号,邮箱,账号组,角色,初始密码';
const POLICY = {
  passwordMinLength: 8,
  passwordClasses: ['lower', 'digit'],
  passwordNoUsername: true,
  passwordHistory: 0,
  passwordExpiryDays: 0,
  lockMaxFailures: 5,
  lockMinutes: 15,
  sessionIdleMinutes: 30,
  sessionMaxHours: 8,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'end-oldest',
  twoFactor: 'off',
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

interface Answer {
  status: number;
  code: number;
  msg: string;
  data: unknown[];
}

/**
 * Console writes of one enterprise made at the same moment over real connections (the server
 * listening on a port, each request on its own socket; on PostgreSQL the pool's ten connections run
 * their transactions side by side): every one is made or refused with a clean Chinese 409, never a
 * 500, and what is stored agrees with what was answered.
 */
describe.each(testDialects())('concurrent console writes in one enterprise on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let hengyue: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    base = await listen(t.app);
    admin = await tokenFor(t, 'admin');
    hengyue = (
      await t.database.db.selectFrom('enterprise').select('id').where('name', '=', '徐州恒岳重工机械有限公司').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const send = async (method: 'POST' | 'PUT', url: string, body: object | FormData): Promise<Answer> => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}${BASE}${url}`, {
      method,
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        authorization: admin,
        ...(form ? {} : { 'content-type': 'application/json' }),
      },
      body: form ? body : JSON.stringify(body),
    });
    const answer = (await res.json()) as Omit<Answer, 'status'>;
    return { status: res.status, ...answer };
  };

  /** `BURST` writes started together; answers them once all have ended. */
  const burst = (write: (i: number) => Promise<Answer>) => Promise.all(Array.from({ length: BURST }, (_, i) => write(i)));

  /** Every answer a success or a clean Chinese conflict; answers the indexes that succeeded. */
  const settled = (answers: Answer[], conflict?: string): number[] => {
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.code).toBe(ResponseCode.Success);
      else expect({ status: answer.status, code: answer.code, msg: answer.msg }).toEqual({ status: 409, code: 1, msg: conflict });
    }
    return answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
  };

  const audited = async (action: string, outcome: 'success' | 'failure' = 'success') =>
    (
      await t.database.db
        .selectFrom('audit_log')
        .select('target')
        .where('action', '=', action)
        .where('outcome', '=', outcome)
        .where('enterprise_id', '=', hengyue)
        .execute()
    ).map((r) => r.target);

  it('creates account groups at once: each name once, its twin a 409 账号组名称已存在', async () => {
    // Two requests per name: one wins, the other is told the name is taken.
    const answers = await burst((i) => send('POST', '/account-group', { name: `并发组${i % 10}`, roleIds: [] }));
    const made = settled(answers, '账号组名称已存在');
    expect(made).toHaveLength(10);
    const stored = await t.database.db.selectFrom('account_group').select('name').where('name', 'like', '并发组%').execute();
    expect(stored.map((g) => g.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `并发组${i}`));
    expect((await audited('group.create')).filter((n) => n.startsWith('并发组')).sort()).toEqual(stored.map((g) => g.name).sort());
  });

  it('creates roles at once: a name has no unique index, yet is taken once; its twin a 409 角色名称已存在', async () => {
    const answers = await burst((i) =>
      send('POST', '/role', { code: `ROLE_PARALLEL_${i}`, name: `并发角色${i % 10}`, authorities: ['org:account'] }),
    );
    expect(settled(answers, '角色名称已存在')).toHaveLength(10);
    const stored = await t.database.db.selectFrom('role').select('name').where('code', 'like', 'ROLE_PARALLEL_%').execute();
    expect(stored.map((r) => r.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `并发角色${i}`));
    expect((await audited('role.create')).filter((n) => n.startsWith('ROLE_PARALLEL_'))).toHaveLength(10);
  });

  it('creates accounts at once', async () => {
    const key = await publicKey();
    const answers = await burst((i) =>
      send('POST', '/account', {
        username: `parallel${i}`,
        name: `并发${i}`,
        phone: `1390000${String(2000 + i)}`,
        groupIds: [],
        roleIds: [],
        passwordMode: 'manual',
        password: encrypt(key, 'Parallel@2026'),
      }),
    );
    expect(settled(answers)).toHaveLength(BURST);
    const stored = await t.database.db.selectFrom('account').select('username').where('username', 'like', 'parallel%').execute();
    expect(stored).toHaveLength(BURST);
    expect((await audited('account.create')).filter((n) => n.startsWith('parallel'))).toHaveLength(BURST);
  });

  it('imports accounts at once', async () => {
    const answers = await burst((i) => {
      const form = new FormData();
      const row = `imported${i},导入${i},1390000${String(3000 + i)},,,,Parallel@2026`;
      form.append('file', new Blob([`${HEADER}\r\n${row}\r\n`], { type: 'text/csv' }), `并发${i}.csv`);
      return send('POST', '/account/import', form);
    });
    expect(settled(answers)).toHaveLength(BURST);
    const stored = await t.database.db.selectFrom('account').select('username').where('username', 'like', 'imported%').execute();
    expect(stored).toHaveLength(BURST);
    expect((await audited('account.import')).filter((n) => n.startsWith('并发'))).toHaveLength(BURST);
  });

  it('saves the security settings at once: the last one stands, every save audited', async () => {
    const answers = await burst((i) => send('PUT', '/security/policy', { ...POLICY, passwordMinLength: 6 + (i % 13) }));
    expect(settled(answers)).toHaveLength(BURST);
    const saved = await t.database.db.selectFrom('security_policy').selectAll().where('enterprise_id', '=', hengyue).execute();
    expect(saved).toHaveLength(1);
    const saves = await t.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'security.policy')
      .where('enterprise_id', '=', hengyue)
      .orderBy('id')
      .execute();
    expect(saves).toHaveLength(BURST);
    // The saves ran one after the other: the one audited last is the one stored.
    expect(saves.at(-1)?.detail).toMatch(new RegExp(`^密码最短${saved[0]?.password_min_length}位，`));
  });

  it('creates single sign-on applications and saves their grants at once', async () => {
    const answers = await burst((i) =>
      send('POST', '/sso-app', {
        name: `并发应用${i}`,
        protocol: 'cas3',
        servicePrefixes: [`https://parallel${i}.hengyue.example.cn/`],
        attributes: ['name'],
        status: 'enabled',
      }),
    );
    expect(settled(answers)).toHaveLength(BURST);
    const apps = await t.database.db.selectFrom('sso_application').select('id').where('name', 'like', '并发应用%').execute();
    expect(apps).toHaveLength(BURST);
    const group = await t.database.db.selectFrom('account_group').select('id').where('name', '=', '并发组0').executeTakeFirstOrThrow();
    const role = await t.database.db.selectFrom('role').select('id').where('code', 'like', 'ROLE_PARALLEL_%').executeTakeFirstOrThrow();
    // Every application granted twice at once, with different sets: one of them stands, whole.
    const grants = (i: number) => ({
      allMembers: false,
      groupIds: i % 2 ? [group.id] : [],
      roleIds: i % 2 ? [] : [role.id],
      accountIds: [],
    });
    const granted = await burst((i) => send('PUT', `/sso-app/${apps[i % 10]!.id}/grants`, grants(i)));
    expect(settled(granted)).toHaveLength(BURST);
    for (const { id } of apps.slice(0, 10)) {
      const stored = await t.database.db
        .selectFrom('sso_app_grant')
        .select(['subject_type', 'subject_id'])
        .where('application_id', '=', id)
        .execute();
      expect([[{ subject_type: 'group', subject_id: group.id }], [{ subject_type: 'role', subject_id: role.id }]]).toContainEqual(stored);
    }
  });

  it('edits accounts, roles and group members at once, each checked by the guard rails, beside new groups', async () => {
    const idsOf = async (table: 'account' | 'role' | 'account_group', column: 'username' | 'code' | 'name', prefix: string) => {
      const rows = await t.database.db
        .selectFrom(table)
        .select(['id', `${column} as key`])
        .where(column, 'like', `${prefix}%`)
        .execute();
      return new Map(rows.map((r) => [String(r.key), r.id]));
    };
    const [accounts, roleIds, groups] = await Promise.all([
      idsOf('account', 'username', 'parallel'),
      idsOf('role', 'code', 'ROLE_PARALLEL_').then((ids) => [...ids.values()]),
      idsOf('account_group', 'name', '并发组'),
    ]);
    const roleOf = (i: number) => roleIds[i % roleIds.length]!;
    const answers = await Promise.all([
      burst((i) =>
        send('PUT', `/account/${accounts.get(`parallel${i}`)}`, {
          name: `改名${i}`,
          phone: `1390000${String(2000 + i)}`,
          // The form states the whole membership: the group it is being added to at the same moment.
          groupIds: [groups.get(`并发组${i % 10}`)!],
          roleIds: [roleOf(i)],
        }),
      ),
      burst((i) => send('PUT', `/role/${roleOf(i)}`, { name: `改名角色${i}`, authorities: ['org:group'] })),
      burst((i) =>
        send('POST', `/account-group/${groups.get(`并发组${i % 10}`)}/members`, { accountIds: [accounts.get(`parallel${i}`)!] }),
      ),
      burst((i) => send('POST', '/account-group', { name: `并发新组${i}`, roleIds: [roleOf(i)] })),
    ]);
    for (const kind of answers) expect(settled(kind)).toHaveLength(BURST);
    const edited = await t.database.db.selectFrom('account').select('name').where('username', 'like', 'parallel%').execute();
    expect(edited.map((a) => a.name).sort()).toEqual(Array.from({ length: BURST }, (_, i) => `改名${i}`).sort());
    const members = await t.database.db
      .selectFrom('account_group_member')
      .select('account_id')
      .where('group_id', 'in', [...groups.values()])
      .execute();
    expect(members.map((m) => m.account_id).sort()).toEqual([...accounts.values()].sort());
    expect(await t.database.db.selectFrom('account_group').select('id').where('name', 'like', '并发新组%').execute()).toHaveLength(BURST);
    expect((await audited('account.update')).filter((n) => n.startsWith('parallel'))).toHaveLength(BURST);
  });

  async function publicKey() {
    const res = await fetch(`${base}/web/portal/account/public-key`);
    const { data } = (await res.json()) as { data: { publicKey: string }[] };
    return createPublicKey({ key: Buffer.from(data[0]?.publicKey ?? '', 'base64'), format: 'der', type: 'spki' });
  }
  const encrypt = (key: ReturnType<typeof createPublicKey>, password: string) =>
    publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
});
