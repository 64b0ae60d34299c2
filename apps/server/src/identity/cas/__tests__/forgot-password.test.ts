import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';

/** 忘记密码 at the central login, by SMS code, never telling whether a phone is registered. */
describe.each(testDialects())('忘记密码 at the central login on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    const admin = await tokenFor(t, 'admin');
    const policy = { ...t.app.config.securityDefaults, passwordMinLength: 8, passwordClasses: ['upper', 'digit'], passwordHistory: 2 };
    expect((await c.call(admin, 'PUT', '/security/policy', policy)).statusCode).toBe(200);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('sms_code').execute();
  });

  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const form = (browser: TestBrowser, path: string, page: BrowserResponse, fields: Record<string, string>) =>
    browser.fetch(`/cas/forgot-password${path}?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ execution: field(page.text, 'execution'), ...fields }).toString(),
    });
  /** Opens 忘记密码 from the login page's link and asks for a code for `phone`. */
  const askCode = async (phone: string) => {
    const browser = new TestBrowser(base);
    const login = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    const link = /href="([^"]*\/cas\/forgot-password[^"]*)">忘记密码？<\/a>/.exec(login.text)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(link).toBe(`${base}/cas/forgot-password?service=${encodeURIComponent(service)}`);
    const start = await browser.fetch(link);
    expect(start.status).toBe(200);
    expect(start.text).toContain('<h1>忘记密码</h1>');
    const sent = await form(browser, '', start, { phone });
    return { browser, sent };
  };
  const smsCode = async (phone: string) => (await outbox(t, phone))[0]?.params.code ?? '';
  /** The page with the phone-specific parts taken out. */
  const shape = (html: string, phone: string) => html.replaceAll(phone, 'PHONE').replace(/value="[a-f0-9]{32}"/g, 'value="EXEC"');

  it('sends a code to a registered phone and resets the password under the account’s policy; every session ends', async () => {
    const portal = await tokenFor(t, 'staff');
    expect((await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: portal } })).statusCode).toBe(200);
    const signedIn = new TestBrowser(base);
    expect((await signedIn.casLogin('staff', DEMO_PASSWORD, service))[0]?.status).toBe(303);

    const { browser, sent } = await askCode('13800000002');
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('如该手机号已绑定账号，验证码已发送，5 分钟内有效。');
    const [sms] = await outbox(t, '13800000002');
    expect(sms?.templateKey).toBe('reset');
    const code = sms?.params.code ?? '';
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await form(browser, '/reset', sent, {
      phone: '13800000002',
      code: wrongCode,
      password: 'Newpass2026',
      confirm: 'Newpass2026',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('验证码错误，还可尝试 4 次');
    const mismatch = await form(browser, '/reset', wrong, { phone: '13800000002', code, password: 'Newpass2026', confirm: 'Newpass2027' });
    expect(mismatch.text).toContain('两次输入密码不一致');
    // The right code with a password the policy refuses: the code is spent, the form asks for the password alone.
    const weak = await form(browser, '/reset', mismatch, { phone: '13800000002', code, password: 'newpass2026', confirm: 'newpass2026' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('密码须包含大写字母、数字');
    expect(weak.text).toContain('验证码已验证，请设置新密码。');
    const proof = field(weak.text, 'proof');
    expect(proof).not.toBe('');
    const same = await form(browser, '/reset', weak, { phone: '13800000002', proof, password: DEMO_PASSWORD, confirm: DEMO_PASSWORD });
    expect(same.text).toContain('新密码不能与当前密码相同');
    const done = await form(browser, '/reset', same, { phone: '13800000002', proof, password: 'Newpass2026', confirm: 'Newpass2026' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1>密码已重置</h1>');

    // The proof is spent with the old password; the old password and every session are gone.
    const replay = await form(browser, '/reset', same, { phone: '13800000002', proof, password: 'Other2026X', confirm: 'Other2026X' });
    expect(replay.text).toContain('重置密码页面已过期');
    expect((await signedIn.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).status).toBe(200);
    const tokenWorks = async () =>
      (await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: portal } })).statusCode === 200;
    expect(await tokenWorks()).toBe(false);
    expect((await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service))[0]?.status).toBe(401);
    expect((await new TestBrowser(base).casLogin('staff', 'Newpass2026', service))[0]?.status).toBe(303);
    const admin = await tokenFor(t, 'admin');
    expect((await c.audit(admin, 'password-reset'))[0]).toMatchObject({ username: 'staff', target: '138****0002', outcome: 'success' });
  });

  it('answers an unknown phone exactly as a registered one, and sends nothing', async () => {
    const known = await askCode('13800000011');
    const unknown = await askCode('13912345678');
    expect(unknown.sent.status).toBe(known.sent.status);
    expect(shape(unknown.sent.text, '13912345678')).toBe(shape(known.sent.text, '13800000011'));
    expect(await outbox(t, '13912345678')).toEqual([]);
    expect(await smsCode('13800000011')).toMatch(/^\d{6}$/);

    // The limits answer alike too: a second code within the minute.
    const [knownAgain, unknownAgain] = [await askCode('13800000011'), await askCode('13912345678')];
    expect(unknownAgain.sent.status).toBe(429);
    expect(knownAgain.sent.status).toBe(429);
    expect(shape(unknownAgain.sent.text, '13912345678').replace(/\d+ 秒/, 'N 秒')).toBe(
      shape(knownAgain.sent.text, '13800000011').replace(/\d+ 秒/, 'N 秒'),
    );

    // And a guessed code: the same refusal, the same tries left.
    const fields = { code: '123456', password: 'Newpass2026', confirm: 'Newpass2026' };
    const knownCode = await smsCode('13800000011');
    const guess = knownCode === '123456' ? '654321' : '123456';
    const a = await form(known.browser, '/reset', known.sent, { ...fields, code: guess, phone: '13800000011' });
    const b = await form(unknown.browser, '/reset', unknown.sent, { ...fields, code: guess, phone: '13912345678' });
    expect([b.status, shape(b.text, '13912345678')]).toEqual([a.status, shape(a.text, '13800000011')]);
    expect(a.text).toContain('验证码错误，还可尝试 4 次');
  });

  it('refuses malformed phones and forms from another page', async () => {
    const { sent } = await askCode('12345');
    expect(sent.status).toBe(400);
    expect(sent.text).toContain('请输入正确的手机号');
    const browser = new TestBrowser(base);
    const forged = await browser.fetch('/cas/forgot-password', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'phone=13800000001',
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('页面已过期');
    expect(await outbox(t, '13800000001')).toEqual([]);
    const unregistered = await browser.fetch(`/cas/forgot-password?service=${encodeURIComponent('https://evil.example/')}`);
    expect(unregistered.status).toBe(403);
  });
});
