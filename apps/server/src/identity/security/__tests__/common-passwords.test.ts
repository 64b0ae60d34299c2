import { PasswordMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { verifyPassword } from '../../accounts/passwords.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';
import { isCommonPassword } from '../common-passwords.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const TOO_COMMON = { code: 1, msg: PasswordMessage.tooCommon };

describe('the common-password list', () => {
  it('holds the most used passwords of both lists, in any case, past the top 10 000', () => {
    for (const p of ['123456', 'password', 'qwerty123', '1q2w3e4r', 'iloveyou', 'Password1', 'P@ssw0rd', 'Aa123456']) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    expect(isCommonPassword('QWERTY123')).toBe(true);
    expect(isCommonPassword('IloveYou')).toBe(true);
    // SecLists' top 10 000 has the repeats and sequences zxcvbn's list leaves to its pattern matchers.
    for (const p of ['00000000', '0123456789', '987654321']) expect(isCommonPassword(p), p).toBe(true);
    // Beyond the first 10 000 of zxcvbn's list.
    expect(isCommonPassword('abc123456')).toBe(true);
    for (const p of [DEMO_PASSWORD, 'Hengyue#2027', 'Tianyu#2026', 'Init@2026']) expect(isCommonPassword(p), p).toBe(false);
  });
});

/**
 * 该密码过于常见: every place a password is set refuses a common one with the same message and
 * changes nothing (导入 is in the account-import tests).
 */
describe.each(testDialects())('common passwords refused wherever a password is set on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const passwordIs = async (username: string, password: string) =>
    verifyPassword((await t.app.accountRepository.findForLogin(username))?.password_hash, password);
  /** The 修改初始密码 / 密码已过期 form of the central login. */
  const changeForm = (browser: TestBrowser, page: BrowserResponse, password: string) =>
    browser.fetch(`/cas/login/password?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        change: field(page.text, 'change'),
        execution: field(page.text, 'execution'),
        password,
        confirm: password,
      }).toString(),
    });

  it('注册 refuses one before the SMS code is spent; the same code registers with another password', async () => {
    const phone = '13912340401';
    expect((await t.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${phone}`, headers: XHR })).statusCode).toBe(200);
    const smsCode = (await outbox(t, phone))[0]?.params.code ?? '';
    const register = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/web-api/register/v1/user',
        headers: XHR,
        payload: { username: 'commonreg', email: '', enterpriseName: '', password, phone, smsCode },
      });
    for (const password of ['123456', 'QWERTY123']) {
      const refused = await register(password);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(TOO_COMMON);
    }
    expect(await t.app.accountRepository.findForLogin('commonreg')).toBeUndefined();
    const done = await register('Tianyu#2026');
    expect(done.statusCode, done.body).toBe(200);
  });

  it('修改密码 refuses one and keeps the current password', async () => {
    const token = await tokenFor(t, 'staff');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/web/portal/account/password',
      headers: { ...XHR, authorization: token },
      payload: {
        oldPassword: await c.encoded(DEMO_PASSWORD),
        newPassword: await c.encoded('Password1'),
        confirmPassword: await c.encoded('Password1'),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(TOO_COMMON);
    expect(await passwordIs('staff', DEMO_PASSWORD)).toBe(true);
  });

  it('an administrator’s 新增 and 重置密码 refuse one; nothing is written', async () => {
    const staffRole = (await c.options(admin)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.id ?? -1;
    const created = await c.call(admin, 'POST', '/account', {
      username: 'commonnew',
      name: '常见密码',
      phone: '13900000401',
      groupIds: [],
      roleIds: [staffRole],
      passwordMode: 'manual',
      password: await c.encoded('qwerty123'),
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual(TOO_COMMON);
    expect(await c.row(admin, 'commonnew')).toBeUndefined();

    const reset = await c.call(admin, 'POST', `/account/${(await c.row(admin, 'zhoujie'))?.id}/password`, {
      passwordMode: 'manual',
      password: await c.encoded('1q2w3e4r'),
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toEqual(TOO_COMMON);
    expect(await passwordIs('zhoujie', DEMO_PASSWORD)).toBe(true);
    expect((await t.app.accountRepository.findForLogin('zhoujie'))?.mustChangePassword).toBe(false);
  });

  it('修改初始密码 at the first login refuses one; no ticket until another is chosen', async () => {
    await t.database.db.updateTable('account').set({ must_change_password: 1 }).where('username', '=', 'liuyang').execute();
    const browser = new TestBrowser(base);
    const [page] = await browser.casLogin('liuyang', DEMO_PASSWORD, service);
    expect(page?.text).toContain('修改初始密码');
    const refused = await changeForm(browser, page as BrowserResponse, '1234567890');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(PasswordMessage.tooCommon);
    expect(browser.cookies.has('TGC')).toBe(false);
    expect(await passwordIs('liuyang', DEMO_PASSWORD)).toBe(true);
    const done = await changeForm(browser, refused, 'Liuyang#2026');
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/ticket=ST-/);
  });

  it('忘记密码 refuses one after the code is checked; the password stays', async () => {
    const browser = new TestBrowser(base);
    const post = (path: string, page: BrowserResponse, fields: Record<string, string>) =>
      browser.fetch(`/cas/forgot-password${path}?service=${encodeURIComponent(service)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ execution: field(page.text, 'execution'), ...fields }).toString(),
      });
    const start = await browser.fetch(`/cas/forgot-password?service=${encodeURIComponent(service)}`);
    const sent = await post('', start, { phone: '13800000013' });
    expect(sent.status).toBe(200);
    const code = (await outbox(t, '13800000013'))[0]?.params.code ?? '';
    const refused = await post('/reset', sent, { phone: '13800000013', code, password: 'abc123456', confirm: 'abc123456' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(PasswordMessage.tooCommon);
    expect(await passwordIs('zhoujie', DEMO_PASSWORD)).toBe(true);
  });

  it('密码已过期 refuses one', async () => {
    const policy = { ...t.app.config.securityDefaults, passwordExpiryDays: 30 };
    expect((await c.call(admin, 'PUT', '/security/policy', policy)).statusCode).toBe(200);
    await t.database.db
      .updateTable('account')
      .set({ password_changed_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('username', '=', 'wangfang')
      .execute();
    const browser = new TestBrowser(base);
    const [page] = await browser.casLogin('wangfang', DEMO_PASSWORD, service);
    expect(page?.text).toContain('<h1>密码已过期</h1>');
    const refused = await changeForm(browser, page as BrowserResponse, 'Password123');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(PasswordMessage.tooCommon);
    expect(browser.cookies.has('TGC')).toBe(false);
    expect(await passwordIs('wangfang', DEMO_PASSWORD)).toBe(true);
  });
});
