import { passwordProblem, type SecurityPolicy } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const DAY = 86_400_000;

/** 恒岳's policy in these tests (the platform defaults stay as configured for 瑞驰). */
const hengyuePolicy: SecurityPolicy = {
  passwordMinLength: 8,
  passwordClasses: ['lower', 'upper', 'digit'],
  passwordNoUsername: true,
  passwordHistory: 3,
  passwordExpiryDays: 30,
  lockMaxFailures: 3,
  lockMinutes: 10,
  sessionIdleMinutes: 5,
  sessionMaxHours: 2,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'end-oldest',
  twoFactor: 'off',
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

/** 安全设置: the enterprise's policy decides at the central login and wherever a password is set. */
describe.each(testDialects())('security policy at the central login on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', LOGIN_ATTEMPTS_PER_MINUTE: '1000', PASSWORD_NO_USERNAME: '1' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
    const saved = await c.call(admin, 'PUT', '/security/policy', hengyuePolicy);
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const changeForm = (browser: TestBrowser, fields: Record<string, string>) =>
    browser.fetch(`/cas/login/password?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  /** Moves the account's password back in time (a test clock for the expiry). */
  const passwordAge = (username: string, days: number) =>
    db()
      .updateTable('account')
      .set({ password_changed_at: new Date(Date.now() - days * DAY).toISOString() })
      .where('username', '=', username)
      .execute();
  const portalChange = async (token: string, oldPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/web/portal/account/password',
      headers: { ...XHR, authorization: token },
      payload: {
        oldPassword: await c.encoded(oldPassword),
        newPassword: await c.encoded(newPassword),
        confirmPassword: await c.encoded(newPassword),
      },
    });

  it('an expired password leads to 密码已过期 before any ticket, checked against the policy, then logs in', async () => {
    await passwordAge('wangfang', 31);
    const browser = new TestBrowser(base);
    const [first] = await browser.casLogin('wangfang', DEMO_PASSWORD, service);
    expect(first?.status).toBe(200);
    expect(first?.text).toContain('<h1>密码已过期</h1>');
    expect(first?.text).toContain('8-18位，须包含小写字母、大写字母、数字，不能包含账号');
    expect(browser.cookies.has('TGC')).toBe(false);
    const logged = await db().selectFrom('login_log').select(['result', 'reason']).where('username', '=', 'wangfang').execute();
    expect(logged).toEqual([{ result: 'failure', reason: 'password-expired' }]);

    const change = field(first?.text ?? '', 'change');
    const execution = field(first?.text ?? '', 'execution');
    const attempt = async (password: string) => (await changeForm(browser, { change, execution, password, confirm: password })).text;
    expect(await attempt('hengyue2027')).toContain('密码须包含小写字母、大写字母、数字');
    expect(await attempt('Hy2027')).toContain('密码至少8位');
    expect(await attempt('Wangfang2027')).toContain('密码不能包含账号');
    expect(await attempt(DEMO_PASSWORD)).toContain('新密码不能与当前密码相同');
    const done = await changeForm(browser, { change, execution, password: 'Hengyue2027', confirm: 'Hengyue2027' });
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.has('TGC')).toBe(true);

    // The new password is fresh: the next login goes straight through.
    const [again] = await new TestBrowser(base).casLogin('wangfang', 'Hengyue2027', service);
    expect(again?.status).toBe(303);
    expect((await c.audit(admin, 'password-change'))[0]).toMatchObject({ username: 'wangfang', outcome: 'success', detail: '密码已过期' });
  });

  it('a password within its days, or an enterprise without expiry, is not asked to change', async () => {
    await passwordAge('zhoujie', 29);
    expect((await new TestBrowser(base).casLogin('zhoujie', DEMO_PASSWORD, service))[0]?.status).toBe(303);
    // 瑞驰 follows the platform defaults: no expiry.
    await passwordAge('rcadmin', 400);
    expect((await new TestBrowser(base).casLogin('rcadmin', DEMO_PASSWORD, service))[0]?.status).toBe(303);
  });

  it('修改密码 refuses the last N passwords and the policy’s rules', async () => {
    const token = await tokenFor(t, 'wangfang');
    const weak = await portalChange(token, 'Hengyue2027', 'hengyue2028');
    expect([weak.statusCode, weak.json().msg]).toEqual([400, '密码须包含小写字母、大写字母、数字']);
    const next = await portalChange(token, 'Hengyue2027', 'Hengyue2028');
    expect(next.statusCode, next.body).toBe(200);
    const back = await portalChange(token, 'Hengyue2028', 'Hengyue2027');
    expect([back.statusCode, back.json().msg]).toEqual([400, '新密码不能与最近3次使用过的密码相同']);
    const other = await portalChange(token, 'Hengyue2028', 'Hengyue2029');
    expect(other.statusCode, other.body).toBe(200);
  });

  it('locks after the enterprise’s number of failures for its minutes; another enterprise keeps the platform’s', async () => {
    const browser = new TestBrowser(base);
    expect((await browser.casLogin('staff', 'wrong-1'))[0]?.text).toContain('用户名或密码错误，还可尝试 2 次');
    expect((await browser.casLogin('staff', 'wrong-2'))[0]?.text).toContain('还可尝试 1 次');
    const locked = (await browser.casLogin('staff', 'wrong-3'))[0];
    expect(locked?.status).toBe(423);
    expect(locked?.text).toContain('请 10 分钟后再试');
    expect((await browser.casLogin('service', 'wrong-1'))[0]?.text).toContain('用户名或密码错误，还可尝试 4 次');
  });

  it('ends an SSO session after the enterprise’s idle minutes and maximum hours', async () => {
    const login = async (username: string) => {
      const browser = new TestBrowser(base);
      expect((await browser.casLogin(username, DEMO_PASSWORD, service))[0]?.status).toBe(303);
      return browser;
    };
    const accountId = async (username: string) =>
      (await db().selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    /** A test clock: the account's SSO sessions as if `ms` had passed (`idle`: without use). */
    const elapse = async (username: string, ms: number, idle: boolean) => {
      const rows = await db()
        .selectFrom('cas_tgt')
        .selectAll()
        .where('account_id', '=', await accountId(username))
        .execute();
      for (const r of rows) {
        const back = (iso: string) => new Date(new Date(iso).getTime() - ms).toISOString();
        await db()
          .updateTable('cas_tgt')
          .set({
            created_at: back(r.created_at),
            expires_at: back(r.expires_at),
            last_used_at: idle ? back(r.last_used_at) : new Date().toISOString(),
          })
          .where('id', '=', r.id)
          .execute();
      }
    };
    const sso = async (browser: TestBrowser) => (await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).status;

    const [hengyue, ruichi] = [await login('liuyang'), await login('service')];
    await elapse('liuyang', 6 * 60_000, true);
    await elapse('service', 6 * 60_000, true);
    // Housekeeping ends each session by its own enterprise's idle limit.
    await t.app.retentionService.prune();
    expect(await sso(hengyue)).toBe(200);
    expect(await sso(ruichi)).toBe(303);

    const [hengyue2, ruichi2] = [await login('liuyang'), await login('service')];
    await elapse('liuyang', 3 * 3_600_000, false);
    await elapse('service', 3 * 3_600_000, false);
    expect(await sso(hengyue2)).toBe(200);
    expect(await sso(ruichi2)).toBe(303);
  });

  it('新增 and 导入 check the enterprise’s rules; random passwords meet them', async () => {
    const staffRole = (await c.options(admin)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.id ?? -1;
    const body = { username: 'policyuser', name: '策略用户', phone: '13900000401', groupIds: [], roleIds: [staffRole] };
    const weak = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'manual', password: await c.encoded('abcdefgh1') });
    expect([weak.statusCode, weak.json().msg]).toEqual([400, '密码须包含小写字母、大写字母、数字']);
    const named = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'manual', password: await c.encoded('Policyuser1') });
    expect(named.json().msg).toBe('密码不能包含账号');
    const csv = '账号,姓名,手机号,初始密码\r\nimported,导入用户,13900000402,abcdefgh1\r\n';
    const imported = await c.upload(admin, 'a.csv', csv);
    expect(imported.json<{ data: { errors: { line: number; message: string }[] }[] }>().data[0]?.errors).toEqual([
      { line: 2, message: '密码须包含小写字母、大写字母、数字' },
    ]);

    // 瑞驰 requires 12 characters with a symbol: its random passwords have them.
    const rcadmin = await tokenFor(t, 'rcadmin');
    const saved = await c.call(rcadmin, 'PUT', '/security/policy', {
      ...t.app.config.securityDefaults,
      passwordMinLength: 12,
      passwordClasses: ['symbol', 'digit'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const rcStaff = (await c.options(rcadmin)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.id ?? -1;
    const created = await c.call(rcadmin, 'POST', '/account', {
      username: 'rcrandom',
      name: '随机',
      phone: '13900000403',
      groupIds: [],
      roleIds: [rcStaff],
      passwordMode: 'sms',
    });
    expect(created.statusCode, created.body).toBe(200);
    const password = (await outbox(t, '13900000403'))[0]?.params.password ?? '';
    expect(password.length).toBe(12);
    expect(
      passwordProblem(password, { passwordMinLength: 12, passwordClasses: ['symbol', 'digit'], passwordNoUsername: true }, 'rcrandom'),
    ).toBe(undefined);
  });

  it('registration follows the platform’s defaults', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web-api/register/v1/user',
      headers: XHR,
      payload: { username: 'zhaolei', password: 'zhaolei2026', phone: '13912345678', smsCode: '123456' },
    });
    expect([res.statusCode, res.json().msg]).toEqual([400, '密码不能包含账号']);
  });
});
