import type { SecurityPolicy, TrustedDeviceRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { type SoftwarePasskey, SoftwareAuthenticator } from '../../../testing/webauthn-authenticator.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';

/**
 * 安全设置's second factor beyond the authenticator: 按角色, 允许的验证方式 (a passkey among them),
 * 短信验证码 through the development outbox, and 信任此设备 (after any factor; skipped step, expiry,
 * removal by the user, the administrator, a new password and a reset second factor).
 */
describe.each(testDialects())('MFA policy, SMS second factor and trusted devices on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  /** 质检员, the custom role 恒岳's 质量部 (wangfang, zhoujie) holds through the group. */
  let qualityRole: number;
  let wangfangId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', SMS_OUTBOX: '1' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
    qualityRole = (await c.options(admin)).roles.find((r) => r.name === '质检员')?.id ?? 0;
    wangfangId = (await c.row(admin, 'wangfang'))?.id ?? 0;
    expect(qualityRole).toBeGreaterThan(0);
  });
  afterAll(() => t.close());

  const policyOf = async (): Promise<SecurityPolicy> => {
    const res = await c.call(admin, 'GET', '/security/policy');
    return res.json<{ data: SecurityPolicy[] }>().data[0]!;
  };
  const save = (changes: Partial<SecurityPolicy>) =>
    c.call(admin, 'PUT', '/security/policy', { ...t.app.config.securityDefaults, ...changes });
  const setPolicy = async (changes: Partial<SecurityPolicy>) => {
    const res = await save(changes);
    expect(res.statusCode, res.body).toBe(200);
  };
  /** The SMS limits per phone (one a minute, 5 an hour) count the code rows: earlier tests' sends are moved a day back. */
  const forgetSends = () =>
    t.database.db
      .updateTable('sms_code')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .execute();
  const outboxCode = async (phone: string) => {
    const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    const [latest] = res.json<{ data: { templateKey: string; params: { code: string } }[] }>().data;
    expect(latest?.templateKey).toBe('login');
    return latest?.params.code ?? '';
  };
  const signIn = async (browser: TestBrowser, username: string) => (await browser.casLogin(username, DEMO_PASSWORD, service))[0];
  /** Signs in by SMS code from the password on; answers the last hop. */
  const signInBySms = async (browser: TestBrowser, username: string, phone: string, trust: boolean) => {
    const ask = await signIn(browser, username);
    expect(ask?.text).toContain('<h1>二次验证</h1>');
    await forgetSends();
    const [sent] = await browser.submitForm(ask!, {}, '/login/two-factor/method');
    expect(sent?.text, sent?.text).toContain(`验证码已发送至 ${phone.slice(0, 3)}****${phone.slice(-4)}`);
    if (trust) expect(sent?.text).toMatch(/<input id="trust" name="trust" type="checkbox" value="1">信任此设备，\d+ 天内/);
    const [done] = await browser.submitForm(
      sent!,
      { code: await outboxCode(phone), ...(trust ? { trust: '1' } : {}) },
      '/login/two-factor?',
    );
    return done;
  };
  /** A browser closed and opened again: its session cookies (TGC) are gone, persistent ones (信任此设备) stay. */
  const reopen = (browser: TestBrowser) => browser.cookies.delete('TGC');
  const myDevices = async (token: string) => {
    const res = await t.app.inject({
      url: '/web/portal/account/trusted-devices',
      headers: { authorization: token, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: TrustedDeviceRow[] }>().data;
  };

  it('refuses a policy it cannot apply with a clear message, and keeps the saved one', async () => {
    await setPolicy({ twoFactor: 'admins' });
    const before = await policyOf();
    const refusals: [Partial<SecurityPolicy>, string][] = [
      [{ twoFactor: 'roles', twoFactorRoles: [] }, '按角色启用二次验证时，请至少选择一个角色'],
      [{ twoFactor: 'roles', twoFactorRoles: [999_999] }, '所选角色不存在或不属于本企业'],
      [{ twoFactorMethods: [] }, '请至少选择一种允许的验证方式'],
      [{ trustDeviceDays: 91 }, '信任此设备天数须为 0-90 之间的整数'],
      [{ trustDeviceDays: -1 }, '信任此设备天数须为 0-90 之间的整数'],
    ];
    for (const [changes, message] of refusals) {
      const res = await save(changes);
      expect(res.statusCode, JSON.stringify(changes)).toBe(400);
      expect(res.json()).toMatchObject({ code: 1 });
      expect(res.json().msg).toContain(message);
    }
    const unknownMethod = await c.call(admin, 'PUT', '/security/policy', { ...before, twoFactorMethods: ['email'] });
    expect(unknownMethod.statusCode).toBe(400);
    // Another enterprise's role (the platform operator's, say) is not one this enterprise may name.
    const operatorRole = await t.database.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'ROLE_PLATFORM_OPERATOR')
      .executeTakeFirstOrThrow();
    const foreign = await save({ twoFactor: 'roles', twoFactorRoles: [operatorRole.id] });
    expect(foreign.statusCode).toBe(400);
    expect(await policyOf()).toEqual(before);
  });

  it('按角色 asks holders of the chosen roles only (through a group too), and the role cannot be deleted while named', async () => {
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'] });
    expect(await policyOf()).toMatchObject({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'] });
    // staff and admin hold other roles: straight to the application.
    expect((await signIn(new TestBrowser(base), 'staff'))?.status).toBe(303);
    expect((await signIn(new TestBrowser(base), 'admin'))?.status).toBe(303);
    // wangfang holds 质检员 through 质量部: the second factor, by SMS since no authenticator is bound.
    const ask = await signIn(new TestBrowser(base), 'wangfang');
    expect(ask?.status).toBe(200);
    expect(ask?.text).toContain('<h1>二次验证</h1>');
    expect(ask?.text).toContain('将向账号绑定的手机 138****0011 发送短信验证码');
    expect(ask?.text).toContain('获取短信验证码');
    expect(ask?.text).not.toContain('信任此设备');

    const refused = await c.call(admin, 'DELETE', `/role/${qualityRole}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('安全设置');
  });

  it('短信验证码: sent through the provider, wrong codes count toward the lockout, a code works once', async () => {
    const browser = new TestBrowser(base);
    const ask = await signIn(browser, 'wangfang');
    await forgetSends();
    const [sent] = await browser.submitForm(ask!, {}, '/login/two-factor/method');
    expect(sent?.status).toBe(200);
    // The phone waits a minute between codes (the SMS codes' own limit).
    const [again] = await browser.submitForm(sent!, {}, '/login/two-factor/method');
    expect(again?.status).toBe(429);
    expect(again?.text).toMatch(/验证码发送过于频繁，请 \d+ 秒后再试/);
    const code = await outboxCode('13800000011');
    const wrong = code === '000000' ? '111111' : '000000';
    const [refusedCode] = await browser.submitForm(sent!, { code: wrong }, '/login/two-factor?');
    expect(refusedCode?.status).toBe(401);
    expect(refusedCode?.text).toContain('验证码错误或已使用，还可尝试 4 次');
    expect(browser.cookies.has('TGC')).toBe(false);
    const [done] = await browser.submitForm(refusedCode!, { code }, '/login/two-factor?');
    expect(done?.status).toBe(303);
    expect(done?.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.has('CASTRUST')).toBe(false);

    // The same code at another login: spent.
    const other = new TestBrowser(base);
    const otherAsk = await signIn(other, 'wangfang');
    const direct = await other.fetch(`/cas/login/two-factor?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        proof: /name="proof" value="([^"]*)"/.exec(otherAsk?.text ?? '')?.[1] ?? '',
        execution: /name="execution" value="([^"]*)"/.exec(otherAsk?.text ?? '')?.[1] ?? '',
        method: 'sms',
        code,
      }).toString(),
    });
    expect(direct.status).toBe(401);
    const reasons = await t.database.db
      .selectFrom('login_log')
      .select('reason')
      .where('username', '=', 'wangfang')
      .where('reason', '=', 'two-factor-failed')
      .execute();
    expect(reasons.length).toBe(2);
  });

  it('允许的验证方式: an authenticator-only policy enrols instead of sending SMS; a passkey-only one refuses an account without one', async () => {
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp'] });
    const browser = new TestBrowser(base);
    const enrol = await signIn(browser, 'wangfang');
    expect(enrol?.text).toContain('<h1>绑定二次验证</h1>');
    expect(enrol?.text).not.toContain('短信验证码');
    // A crafted SMS request is refused and sends nothing.
    const before = (await t.app.inject({ url: '/dev/sms-outbox?phone=13800000011' })).json<{ data: unknown[] }>().data.length;
    const sms = await browser.fetch(`/cas/login/two-factor/method?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        proof: /name="proof" value="([^"]*)"/.exec(enrol?.text ?? '')?.[1] ?? '',
        execution: /name="execution" value="([^"]*)"/.exec(enrol?.text ?? '')?.[1] ?? '',
        method: 'sms',
      }).toString(),
    });
    expect(sms.status).toBe(400);
    expect((await t.app.inject({ url: '/dev/sms-outbox?phone=13800000011' })).json<{ data: unknown[] }>().data.length).toBe(before);

    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['passkey'] });
    const none = await signIn(new TestBrowser(base), 'wangfang');
    expect(none?.status).toBe(403);
    expect(none?.text).toContain('企业要求二次验证，但该账号没有可用的验证方式，请联系企业管理员');
  });

  it('信任此设备 skips the step in that browser for that account only, until it expires', async () => {
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 30 });
    const browser = new TestBrowser(base);
    const done = await signInBySms(browser, 'wangfang', '13800000011', true);
    expect(done?.status).toBe(303);
    const cookie = browser.cookies.get('CASTRUST');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/cas' });
    expect(done?.headers.getSetCookie().find((l) => l.startsWith('CASTRUST='))).toMatch(/Max-Age=2592000/);
    // Only the token's hash is kept.
    const row = await t.database.db.selectFrom('trusted_device').select(['token_hash', 'user_agent']).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(cookie?.value ?? '-');

    reopen(browser);
    const skipped = await signIn(browser, 'wangfang');
    expect(skipped?.status).toBe(303);
    expect(skipped?.location).toMatch(/ticket=ST-/);
    // Another browser is asked; so is another account in the trusted browser.
    expect((await signIn(new TestBrowser(base), 'wangfang'))?.text).toContain('<h1>二次验证</h1>');
    reopen(browser);
    expect((await signIn(browser, 'zhoujie'))?.text).toContain('<h1>二次验证</h1>');

    const token = await tokenFor(t, 'wangfang');
    const [device] = await myDevices(token);
    expect(device).toMatchObject({
      id: expect.any(Number) as number,
      lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) as string,
    });

    // Trusted longer ago than the policy's days (here: the policy now allows fewer): asked again.
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 1 });
    await t.database.db
      .updateTable('trusted_device')
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .execute();
    reopen(browser);
    expect((await signIn(browser, 'wangfang'))?.text).toContain('<h1>二次验证</h1>');
    // Past its own expiry as well.
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 30 });
    await t.database.db
      .updateTable('trusted_device')
      .set({ created_at: new Date().toISOString(), expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    reopen(browser);
    expect((await signIn(browser, 'wangfang'))?.text).toContain('<h1>二次验证</h1>');
    expect(await myDevices(token)).toEqual([]);
  });

  it('通行密钥 among 允许的验证方式: offered while allowed and held, trusts the device, and a passwordless one is two factors only then', async () => {
    await setPolicy({
      twoFactor: 'roles',
      twoFactorRoles: [qualityRole],
      twoFactorMethods: ['totp', 'sms', 'passkey'],
      trustDeviceDays: 30,
    });
    const device = new SoftwareAuthenticator(base);
    const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
    type Options = Parameters<SoftwareAuthenticator['get']>[1];
    // zhoujie (质检员 through 质量部) adds a passkey in 个人信息.
    const portal = new TestBrowser(base);
    const token = await tokenFor(t, 'zhoujie');
    const ask = (path: string, body: unknown) =>
      portal.json<{ msg: string; data: { options: Parameters<SoftwareAuthenticator['create']>[0] }[] }>(
        `/web/portal/account/passkeys${path}`,
        {
          method: 'POST',
          headers: { ...xhr, authorization: token },
          body: JSON.stringify(body),
        },
      );
    const created = device.create((await ask('/options', {})).body.data[0]!.options);
    expect((await ask('', { name: '工位电脑', credential: created.response })).body.msg).toBe('通行密钥已添加');
    const passkey: SoftwarePasskey = created.passkey;

    /** The page's passkey form as its script drives it: options (with the step's proof), the authenticator, the post. */
    const usePasskey = async (browser: TestBrowser, page: BrowserResponse, fields: Record<string, string> = {}) => {
      const second = page.text.includes('/login/two-factor/passkey');
      const proof = second ? (/name="proof" value="([^"]*)"/.exec(page.text)?.[1] ?? '') : undefined;
      const res = await browser.json<{ msg: string; data: { options: Options }[] }>('/cas/login/passkey/options', {
        method: 'POST',
        headers: xhr,
        body: JSON.stringify(proof === undefined ? {} : { proof }),
      });
      if (!res.body.data?.[0]) return { refused: res };
      const credential = JSON.stringify(device.get(passkey, res.body.data[0].options));
      return { hops: await browser.submitForm(page, { credential, ...fields }, second ? '/login/two-factor/passkey' : '/login/passkey') };
    };
    const loginPage = (browser: TestBrowser) => browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);

    // After the password: the passkey first (no authenticator bound), 短信验证码 beside it, 信任此设备 in the passkey's form.
    const browser = new TestBrowser(base);
    const step = await signIn(browser, 'zhoujie');
    expect(step?.text).toContain('请使用您的通行密钥完成验证');
    expect(step?.text).toContain('使用通行密钥验证');
    expect(step?.text).toContain('其他验证方式');
    expect(step?.text).toContain('>短信验证码</button>');
    // Where the browser has no WebAuthn the form stays hidden: the page says what to do instead.
    expect(step?.text).toContain(
      '无法使用通行密钥（浏览器不支持，或通行密钥不在身边）？请选择下方其他验证方式，或联系企业管理员清除通行密钥后重新登录。',
    );
    expect(step?.text).not.toContain('name="code"');
    expect(step?.text).toMatch(/class="cas-passkey"[^>]*>[\s\S]*信任此设备，30 天内[\s\S]*<\/form>/);
    const done = (await usePasskey(browser, step!, { trust: '1' })).hops;
    expect(done?.[0]?.status).toBe(303);
    expect(done?.[0]?.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.get('CASTRUST')).toMatchObject({ httpOnly: true, path: '/cas' });
    reopen(browser);
    expect((await signIn(browser, 'zhoujie'))?.status).toBe(303);

    // A passwordless passkey sign-in is both factors while 通行密钥 is allowed: no step.
    const passwordless = new TestBrowser(base);
    const direct = (await usePasskey(passwordless, await loginPage(passwordless))).hops;
    expect(direct?.[0]?.status).toBe(303);
    expect(direct?.[0]?.location).toMatch(/ticket=ST-/);

    // 通行密钥 left out: the step offers 短信验证码 only, and refuses a passkey posted anyway.
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 30 });
    const other = new TestBrowser(base);
    const smsOnly = await signIn(other, 'zhoujie');
    expect(smsOnly?.text).toContain('将向账号绑定的手机');
    expect(smsOnly?.text).not.toContain('使用通行密钥验证');
    const options = await other.json('/cas/login/passkey/options', {
      method: 'POST',
      headers: xhr,
      body: JSON.stringify({ proof: /name="proof" value="([^"]*)"/.exec(smsOnly?.text ?? '')?.[1] ?? '' }),
    });
    expect(options).toEqual({ status: 400, body: { code: 1, msg: '该验证方式不可用，请选择其他验证方式' } });
    const posted = await other.fetch(`/cas/login/two-factor/passkey?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        proof: /name="proof" value="([^"]*)"/.exec(smsOnly?.text ?? '')?.[1] ?? '',
        execution: /name="execution" value="([^"]*)"/.exec(smsOnly?.text ?? '')?.[1] ?? '',
        credential: '{}',
      }).toString(),
    });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('该验证方式不可用，请选择其他验证方式');
    expect(other.cookies.has('TGC')).toBe(false);

    // ... and a passwordless passkey stands for the password only: the step follows.
    const first = new TestBrowser(base);
    const [then] = (await usePasskey(first, await loginPage(first))).hops ?? [];
    expect(then?.status).toBe(200);
    expect(then?.text).toContain('<h1>二次验证</h1>');
    expect(then?.text).toContain('将向账号绑定的手机');
    expect(first.cookies.has('TGC')).toBe(false);
  });

  it('a trusted device is removed by its user, by the administrator, by a new password and by a reset second factor', async () => {
    await setPolicy({ twoFactor: 'roles', twoFactorRoles: [qualityRole], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 30 });
    const token = await tokenFor(t, 'wangfang');
    const trustedBrowser = async () => {
      const browser = new TestBrowser(base);
      expect((await signInBySms(browser, 'wangfang', '13800000011', true))?.status).toBe(303);
      reopen(browser);
      expect((await signIn(browser, 'wangfang'))?.status).toBe(303);
      reopen(browser);
      return browser;
    };
    const asked = async (browser: TestBrowser) => (await signIn(browser, 'wangfang'))?.text.includes('<h1>二次验证</h1>');

    // The user, in 个人信息.
    let browser = await trustedBrowser();
    const [own] = await myDevices(token);
    const notMine = await t.app.inject({
      method: 'DELETE',
      url: `/web/portal/account/trusted-devices/${own!.id}`,
      headers: { authorization: await tokenFor(t, 'zhoujie'), 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(notMine.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/web/portal/account/trusted-devices/${own!.id}`,
      headers: { authorization: token, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await asked(browser)).toBe(true);

    // The administrator, in 账号管理; another enterprise's administrator sees no such account.
    browser = await trustedBrowser();
    const listed = await c.call(admin, 'GET', `/account/${wangfangId}/trusted-devices`);
    expect(listed.statusCode).toBe(200);
    const [device] = listed.json<{ data: TrustedDeviceRow[] }>().data;
    const rcadmin = await tokenFor(t, 'rcadmin');
    expect((await c.call(rcadmin, 'GET', `/account/${wangfangId}/trusted-devices`)).statusCode).toBe(404);
    expect((await c.call(rcadmin, 'DELETE', `/account/${wangfangId}/trusted-devices/${device!.id}`)).statusCode).toBe(404);
    expect((await c.call(admin, 'DELETE', `/account/${wangfangId}/trusted-devices/${device!.id + 1000}`)).statusCode).toBe(404);
    expect((await c.call(admin, 'DELETE', `/account/${wangfangId}/trusted-devices/${device!.id}`)).statusCode).toBe(200);
    expect(await asked(browser)).toBe(true);
    const audit = await c.audit(admin, 'trusted-device.revoke');
    expect(audit.map((a) => a.detail)).toEqual(expect.arrayContaining(['本人移除', '管理员移除']));

    // 重置二次验证.
    browser = await trustedBrowser();
    expect((await c.call(admin, 'POST', `/account/${wangfangId}/two-factor/reset`)).statusCode).toBe(200);
    expect(await asked(browser)).toBe(true);

    // A new password (重置密码 by the administrator here; 修改密码 and 忘记密码 write it the same way).
    await trustedBrowser();
    expect(await myDevices(token)).toHaveLength(1);
    const reset = await c.call(admin, 'POST', `/account/${wangfangId}/password`, {
      passwordMode: 'manual',
      password: await c.encoded('Wangfang#2027'),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await myDevices(await tokenFor(t, 'wangfang'))).toEqual([]);
  });
});
