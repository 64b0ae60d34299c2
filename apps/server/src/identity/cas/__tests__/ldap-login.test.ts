import { AuthSourceMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { HENGYUE_PEOPLE, HENGYUE_PEOPLE_LIST, HENGYUE_SUFFIX, hengyueDirectory, personDn } from '../../../testing/ldap-fixture.js';
import { type SlapdServer, startSlapd } from '../../../testing/slapd.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { asDirectoryManager, closedPort, linkHengyueDirectory } from '../../auth-sources/__tests__/ldap-test-source.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';

const person = (uid: string) => {
  const p = HENGYUE_PEOPLE_LIST.find((x) => x.uid === uid);
  if (!p) throw new Error(uid);
  return p;
};

/**
 * LDAP / AD 登录: accounts linked to 恒岳's LDAP source sign in at the central login with their
 * directory passwords (a bind against a real slapd), under the enterprise's lockout.
 */
describe.each(testDialects())('LDAP sign-in at the central login on %s', (dialect) => {
  let slapd: SlapdServer;
  let t: TestApp;
  let base: string;
  let service: string;
  let directory: Awaited<ReturnType<typeof linkHengyueDirectory>>;
  beforeAll(async () => {
    slapd = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
    t = await createTestApp(dialect, {
      SMS_OUTBOX: '1',
      SMS_IP_DAILY_LIMIT: '1000',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
      LDAP_TIMEOUT_MS: '3000',
    });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    // 恒岳's 安全设置: three wrong passwords lock for 10 minutes; passwords expire after 30 days.
    const admin = await tokenFor(t, 'admin');
    const policy = { ...t.app.config.securityDefaults, lockMaxFailures: 3, lockMinutes: 10, passwordExpiryDays: 30 };
    expect((await consoleClient(t).call(admin, 'PUT', '/security/policy', policy)).statusCode).toBe(200);
    directory = await linkHengyueDirectory(t, slapd, DEMO_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    await slapd.stop();
  });

  const db = () => t.database.db;
  const login = async (username: string, password: string): Promise<BrowserResponse> => {
    const [first] = await new TestBrowser(base).casLogin(username, password, service);
    if (!first) throw new Error('no answer');
    return first;
  };
  const signedIn = (answer: BrowserResponse) => {
    expect(answer.status, answer.text).toBe(303);
    expect(answer.location).toMatch(/ticket=ST-/);
  };
  const loginLog = (username: string) =>
    db().selectFrom('login_log').select(['result', 'reason']).where('username', '=', username).orderBy('id').execute();

  it('signs in with the directory password, by username or phone; the local password is not the account’s', async () => {
    // The portal's own password steps (an initial or expired password) are not for a directory's password.
    await db()
      .updateTable('account')
      .set({ must_change_password: 1, password_changed_at: new Date(Date.now() - 400 * 86_400_000).toISOString() })
      .where('username', '=', 'lixin')
      .execute();
    signedIn(await login('lixin', person('lixin').password));
    signedIn(await login('13910000002', person('zhaomin').password));

    const local = await login('lixin', DEMO_PASSWORD);
    expect(local.status).toBe(401);
    expect(local.text).toContain('用户名或密码错误，还可尝试 2 次');
    expect(await loginLog('lixin')).toEqual([
      { result: 'success', reason: '' },
      { result: 'failure', reason: 'bad-password' },
    ]);
  });

  it('wrong directory passwords count toward the enterprise’s lockout', async () => {
    const zhaomin = person('zhaomin');
    expect((await login('zhaomin', 'Ldap@Wrong1')).text).toContain('用户名或密码错误，还可尝试 2 次');
    expect((await login('zhaomin', 'Ldap@Wrong2')).text).toContain('用户名或密码错误，还可尝试 1 次');
    const locked = await login('zhaomin', 'Ldap@Wrong3');
    expect(locked.status).toBe(423);
    expect(locked.text).toContain('密码错误次数过多，账号已锁定，请 10 分钟后再试');
    // Locked: not even the directory's right password gets through.
    expect((await login('zhaomin', zhaomin.password)).status).toBe(423);
    expect((await loginLog('zhaomin')).map((r) => r.reason)).toEqual(['', 'bad-password', 'bad-password', 'bad-password', 'locked']);
  });

  it('an unreachable directory is a clear message, logged, and never a wrong password', async () => {
    await directory.configure({ url: `ldap://127.0.0.1:${await closedPort()}` });
    try {
      for (let i = 0; i < 4; i += 1) {
        const answer = await login('qianlei', i % 2 ? person('qianlei').password : 'Ldap@Wrong1');
        expect(answer.status).toBe(503);
        expect(answer.text).toContain(AuthSourceMessage.sourceUnavailable);
        expect(answer.text).not.toContain('用户名或密码错误');
      }
    } finally {
      await directory.configure({});
    }
    expect((await loginLog('qianlei')).map((r) => r.reason)).toEqual(Array(4).fill('source-unavailable'));
    // None of them counted: a wrong password now has every try left, and the right one signs in.
    expect((await login('qianlei', 'Ldap@Wrong1')).text).toContain('用户名或密码错误，还可尝试 2 次');
    signedIn(await login('qianlei', person('qianlei').password));
  });

  it('a moved or renamed entry still signs in as its account; a newcomer with the old name does not', async () => {
    const lixin = person('lixin');
    const sunli = person('sunli');
    await asDirectoryManager(slapd, async (client) => {
      await client.modifyDN(personDn(lixin), `uid=lixin,ou=sales,${HENGYUE_PEOPLE}`);
      await client.modifyDN(personDn(sunli), 'uid=sunli.zhang');
      // Someone else now holds the name sunli in the directory.
      await client.add(personDn(sunli), {
        objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
        uid: 'sunli',
        cn: '孙立',
        sn: '孙',
        mobile: '13910000009',
        userPassword: 'Ldap@Newcomer1',
      });
    });
    signedIn(await login('lixin', lixin.password));
    signedIn(await login('lixin', lixin.password));
    signedIn(await login('sunli', sunli.password));
    // The account sunli is the person it was linked to, not whoever has the name now.
    expect((await login('sunli', 'Ldap@Newcomer1')).status).toBe(401);
  });

  it('with AD 域 set, user@域 names the account', async () => {
    await directory.configure({ adDomain: 'hengyue.com' });
    try {
      signedIn(await login('zhoutao@hengyue.com', person('zhoutao').password));
      expect((await login('zhoutao@other.com', person('zhoutao').password)).status).toBe(401);
    } finally {
      await directory.configure({});
    }
  });

  it('修改密码 and 忘记密码 send a directory account to its directory', async () => {
    const c = consoleClient(t);
    const token = await tokenFor(t, 'zhoutao');
    const change = await t.app.inject({
      method: 'PUT',
      url: '/web/portal/account/password',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      payload: {
        oldPassword: await c.encoded(DEMO_PASSWORD),
        newPassword: await c.encoded('Newpass2026'),
        confirmPassword: await c.encoded('Newpass2026'),
      },
    });
    expect([change.statusCode, change.json().msg]).toEqual([403, AuthSourceMessage.directoryPassword]);

    // 忘记密码 tells it only to whoever proved the phone with its code.
    const browser = new TestBrowser(base);
    const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
    const post = (path: string, page: BrowserResponse, fields: Record<string, string>) =>
      browser.fetch(`/cas/forgot-password${path}?service=${encodeURIComponent(service)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ execution: field(page.text, 'execution'), ...fields }).toString(),
      });
    const start = await browser.fetch(`/cas/forgot-password?service=${encodeURIComponent(service)}`);
    const sent = await post('', start, { phone: '13910000005' });
    expect(sent.text).toContain('如该手机号已绑定账号，验证码已发送');
    const code = (await outbox(t, '13910000005'))[0]?.params.code ?? '';
    const reset = await post('/reset', sent, { phone: '13910000005', code, password: 'Newpass2026', confirm: 'Newpass2026' });
    expect(reset.status).toBe(403);
    expect(reset.text).toContain(AuthSourceMessage.directoryPassword);
    expect((await login('zhoutao', 'Newpass2026')).status).toBe(401);
    signedIn(await login('zhoutao', person('zhoutao').password));

    // 账号管理's 重置密码 would set a password nobody can use: the administrator is told why, nothing changes.
    const admin = await tokenFor(t, 'admin');
    const { id } = await t.database.db.selectFrom('account').select('id').where('username', '=', 'zhoutao').executeTakeFirstOrThrow();
    const reset2 = await c.call(admin, 'POST', `/account/${id}/password`, {
      passwordMode: 'manual',
      password: await c.encoded('Reset#2026'),
    });
    expect([reset2.statusCode, reset2.json().msg]).toEqual([400, AuthSourceMessage.directoryPassword]);
    expect((await login('zhoutao', 'Reset#2026')).status).toBe(401);
    signedIn(await login('zhoutao', person('zhoutao').password));
  });

  it('the directory stopped: sign-in says so clearly, and 登录日志 records why', async () => {
    await slapd.stop();
    const answer = await login('zhoutao', person('zhoutao').password);
    expect(answer.status).toBe(503);
    expect(answer.text).toContain('认证源暂时无法连接，请稍后再试或联系企业管理员');
    expect((await loginLog('zhoutao')).at(-1)).toEqual({ result: 'failure', reason: 'source-unavailable' });
  });
});
