import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { type SoftwarePasskey, SoftwareAuthenticator } from '../../../testing/webauthn-authenticator.js';

type Answer = { code: number; msg: string; data: unknown[] };
type Options = { challenge: string; rp: { id: string }; user: { id: string }; rpId?: string; allowCredentials?: { id: string }[] };
const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

describe.each(testDialects())('passkeys (WebAuthn): 个人信息, 通行密钥登录 and the second factor, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let device: SoftwareAuthenticator;
  /** staff's passkey, registered in the first test. */
  let staffKey: SoftwarePasskey;
  let staffKeyId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', REAUTH_MINUTES: '5' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    device = new SoftwareAuthenticator(base);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  /** The portal API as `username`'s web app calls it (a fresh session: 验证身份 is recent). */
  const portal = async (username: string) => {
    const token = await tokenFor(t, username);
    const browser = new TestBrowser(base);
    return (method: string, path: string, body?: unknown) =>
      browser.json<Answer>(`/web/portal/account/passkeys${path}`, {
        method,
        ...(body === undefined
          ? { headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } }
          : { headers: { ...xhr, authorization: token }, body: JSON.stringify(body) }),
      });
  };
  const consoleCall = async (username: string, method: 'DELETE', path: string) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${path}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: await tokenFor(t, username) },
    });
  const optionsOf = (answer: { body: Answer }) => {
    if (!answer.body.data?.[0]) throw new Error(JSON.stringify(answer.body));
    return (answer.body.data[0] as { options: Options }).options;
  };
  const accountId = async (username: string) =>
    (await t.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const loginLog = async (username: string) =>
    t.database.db.selectFrom('login_log').select(['result', 'reason', 'method']).where('username', '=', username).orderBy('id').execute();

  /** Adds a passkey through 个人信息 as a browser would; answers the authenticator's credential and the row's id. */
  const addPasskey = async (username: string, name: string) => {
    const call = await portal(username);
    const options = optionsOf(await call('POST', '/options'));
    const { passkey, response } = device.create(options);
    const added = await call('POST', '', { name, credential: response });
    expect(added.body.msg, JSON.stringify(added.body)).toBe('通行密钥已添加');
    return { passkey, id: (added.body.data[0] as { id: number }).id };
  };

  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  /** The central login's passkey form, as its script drives it: the options, the authenticator, the post. */
  const passkeySignIn = async (browser: TestBrowser, page: BrowserResponse, answer: (options: Options) => Record<string, unknown>) => {
    const second = page.text.includes('/login/two-factor/passkey');
    const proof = second ? field(page.text, 'proof') : undefined;
    const res = await browser.json<Answer>('/cas/login/passkey/options', {
      method: 'POST',
      headers: xhr,
      body: JSON.stringify(proof === undefined ? {} : { proof }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const credential = answer(optionsOf(res));
    return browser.submitForm(page, { credential: JSON.stringify(credential) }, second ? '/login/two-factor/passkey' : '/login/passkey');
  };
  const loginPage = (browser: TestBrowser) => browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);

  it('个人信息: adds a named passkey after a verified ceremony, lists it, renames it; bad answers change nothing', async () => {
    const call = await portal('staff');
    expect((await call('GET', '')).body.data).toEqual([]);

    // An answer to a challenge the server never issued, or for another origin, is refused.
    const options = optionsOf(await call('POST', '/options'));
    expect(options).toMatchObject({
      rp: { id: '127.0.0.1' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const forged = device.create({ ...options, challenge: Buffer.from('not-issued').toString('base64url') }).response;
    expect((await call('POST', '', { name: '笔记本', credential: forged })).body).toEqual({ code: 1, msg: '通行密钥验证失败，请重新添加' });
    const elsewhere = device.create(options, { origin: 'http://evil.example' }).response;
    expect((await call('POST', '', { name: '笔记本', credential: elsewhere })).body).toEqual({
      code: 1,
      msg: '通行密钥验证失败，请重新添加',
    });
    // That spent the challenge: the right answer to it now comes too late.
    expect((await call('POST', '', { name: '笔记本', credential: device.create(options).response })).body.code).toBe(1);
    // Without user verification, or without a name, or malformed: refused.
    const fresh = optionsOf(await call('POST', '/options'));
    expect((await call('POST', '', { name: '笔记本', credential: device.create(fresh, { userVerified: false }).response })).body.code).toBe(
      1,
    );
    const named = optionsOf(await call('POST', '/options'));
    expect((await call('POST', '', { name: '  ', credential: device.create(named).response })).body).toEqual({
      code: 1,
      msg: '请输入通行密钥名称',
    });
    const malformed = await call('POST', '', { name: '笔记本', credential: { id: 'x', rawId: 'x', type: 'password', response: {} } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(1);
    expect((await call('GET', '')).body.data).toEqual([]);

    const { passkey, id } = await addPasskey('staff', '办公室笔记本');
    staffKey = passkey;
    staffKeyId = id;
    // A replayed registration (the same answer again) is refused: its challenge is spent.
    const list = (await call('GET', '')).body.data as { id: number; name: string; createdAt: string; lastUsedAt: string | null }[];
    expect(list).toEqual([{ id, name: '办公室笔记本', createdAt: expect.any(String), lastUsedAt: null }]);
    expect((await call('PUT', `/${id}`, { name: '工作电脑' })).body.msg).toBe('通行密钥已重命名');
    expect(((await call('GET', '')).body.data[0] as { name: string }).name).toBe('工作电脑');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('username', '=', 'staff')
      .where('outcome', '=', 'success')
      .orderBy('id')
      .execute();
    expect(audit.filter((a) => a.action.startsWith('passkey.'))).toEqual([
      { action: 'passkey.add', detail: '办公室笔记本' },
      { action: 'passkey.rename', detail: '工作电脑' },
    ]);
  });

  it('通行密钥登录: the passkey alone signs in to the application, logged as a passkey sign-in; a replay is refused', async () => {
    const browser = new TestBrowser(base);
    const page = await loginPage(browser);
    expect(page.text).toContain('通行密钥登录');
    expect(page.text).toMatch(/<script src="[^"]+\/cas\/assets\/webauthn\.js" defer><\/script>/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'(;| )/);
    let sent: Record<string, unknown> = {};
    const hops = await passkeySignIn(browser, page, (options) => {
      expect(options.allowCredentials).toEqual([]);
      sent = device.get(staffKey, options);
      return sent;
    });
    expect(hops[0]?.status).toBe(303);
    expect(hops[0]?.location).toMatch(/demo-app\/login\?ticket=ST-/);
    expect(browser.cookies.has('TGC')).toBe(true);
    expect((await loginLog('staff')).at(-1)).toEqual({ result: 'success', reason: '', method: 'passkey' });
    const call = await portal('staff');
    expect(((await call('GET', '')).body.data[0] as { lastUsedAt: string | null }).lastUsedAt).not.toBeNull();

    // The same answer posted again: its challenge is spent, nothing signs in.
    const other = new TestBrowser(base);
    const again = await other.submitForm(await loginPage(other), { credential: JSON.stringify(sent) }, '/login/passkey');
    expect(again[0]?.status).toBe(400);
    expect(again[0]?.text).toContain('通行密钥验证已过期，请重试');
    expect(other.cookies.has('TGC')).toBe(false);
  });

  it('refuses an unknown credential, a forged signature, garbage, and a disabled or locked account; never a 500', async () => {
    const browser = new TestBrowser(base);
    const stranger = device.create({ challenge: 'AAAA', rp: { id: '127.0.0.1' }, user: { id: 'AAAA' } }).passkey;
    const unknown = await passkeySignIn(browser, await loginPage(browser), (options) => device.get(stranger, options));
    expect(unknown[0]?.status).toBe(401);
    expect(unknown[0]?.text).toContain('通行密钥验证失败，请重试或使用其他方式登录');

    // staff's credential id with another key's signature.
    const forged = await passkeySignIn(browser, await loginPage(browser), (options) => ({
      ...device.get({ ...stranger, credentialId: staffKey.credentialId, userHandle: staffKey.userHandle }, options),
    }));
    expect(forged[0]?.status).toBe(401);
    expect((await loginLog('staff')).at(-1)).toEqual({ result: 'failure', reason: 'passkey-failed', method: 'passkey' });

    const garbage = await browser.submitForm(await loginPage(browser), { credential: '{"id":1}' }, '/login/passkey');
    expect(garbage[0]?.status).toBe(400);
    const notJson = await browser.submitForm(await loginPage(browser), { credential: 'not json' }, '/login/passkey');
    expect(notJson[0]?.status).toBe(400);
    expect(browser.cookies.has('TGC')).toBe(false);

    // A disabled account: refused like at the password form.
    await t.database.db.updateTable('account').set({ status: 'disabled' }).where('username', '=', 'staff').execute();
    const disabled = await passkeySignIn(browser, await loginPage(browser), (options) => device.get(staffKey, options));
    expect(disabled[0]?.status).toBe(403);
    expect(disabled[0]?.text).toContain('账号已停用，请联系企业管理员');
    await t.database.db.updateTable('account').set({ status: 'active' }).where('username', '=', 'staff').execute();

    // Locked by wrong passwords: the passkey does not get past the lock.
    for (let i = 0; i < 5; i++) await new TestBrowser(base).casLogin('staff', 'wrong-password', service);
    const locked = await passkeySignIn(browser, await loginPage(browser), (options) => device.get(staffKey, options));
    expect(locked[0]?.status).toBe(423);
    expect(locked[0]?.text).toContain('账号已锁定');
    expect(browser.cookies.has('TGC')).toBe(false);
    await t.app.database.db.deleteFrom('login_failure').execute();
  });

  it('a passkey added under another enterprise says so, and its tries never lock the account', async () => {
    // As after the account left the enterprise it added the passkey under (加入企业 moves the account, not its passkeys).
    const { id: other } = await t.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', 'like', '%瑞驰%')
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('webauthn_credential').set({ enterprise_id: other }).where('id', '=', staffKeyId).execute();
    try {
      const browser = new TestBrowser(base);
      for (let i = 0; i < 6; i++) {
        const tried = await passkeySignIn(browser, await loginPage(browser), (options) => device.get(staffKey, options));
        expect(tried[0]?.status).toBe(400);
        expect(tried[0]?.text).toContain('该通行密钥是在其他企业下添加的，当前不可用，请使用其他方式登录');
      }
      expect(browser.cookies.has('TGC')).toBe(false);
      // Not locked: the password still signs in.
      const password = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service);
      expect(password[0]?.location).toMatch(/ticket=ST-/);
    } finally {
      const { enterprise_id } = await t.database.db
        .selectFrom('account')
        .select('enterprise_id')
        .where('username', '=', 'staff')
        .executeTakeFirstOrThrow();
      await t.database.db.updateTable('webauthn_credential').set({ enterprise_id }).where('id', '=', staffKeyId).execute();
    }
  });

  it('二次验证: a passkey stands in for the authenticator app, only the account’s own', async () => {
    const admin = await tokenFor(t, 'admin');
    const policy = { ...t.app.config.securityDefaults, twoFactor: 'all' };
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/web-api/console/v1/security/policy',
      headers: { ...xhr, authorization: admin },
      payload: policy,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const adminKey = (await addPasskey('admin', '管理员密钥')).passkey;

    // staff has a passkey and no authenticator app: no enrolment, the passkey is asked for.
    const browser = new TestBrowser(base);
    const [ask] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(ask?.text).toContain('<h1>二次验证</h1>');
    expect(ask?.text).toContain('使用通行密钥验证');
    expect(ask?.text).not.toContain('name="code"');

    // Options need the password step's proof.
    const noProof = await browser.json<Answer>('/cas/login/passkey/options', {
      method: 'POST',
      headers: xhr,
      body: JSON.stringify({ proof: 'x.y' }),
    });
    expect(noProof).toEqual({ status: 400, body: { code: 1, msg: '验证页面已过期，请重新登录' } });

    // Another account's passkey is not staff's second factor.
    const wrong = await passkeySignIn(browser, ask!, (options) => {
      expect(options.allowCredentials?.map((c) => c.id)).toEqual([staffKey.credentialId.toString('base64url')]);
      return device.get(adminKey, options);
    });
    expect(wrong[0]?.status).toBe(401);
    expect(wrong[0]?.text).toMatch(/通行密钥验证失败，还可尝试 \d 次/);
    expect(browser.cookies.has('TGC')).toBe(false);

    const done = await passkeySignIn(browser, wrong[0]!, (options) => device.get(staffKey, options));
    expect(done[0]?.status).toBe(303);
    expect(done[0]?.location).toMatch(/ticket=ST-/);
    // The login began with the password: 登录日志 says so, whichever factor came second.
    expect((await loginLog('staff')).at(-1)).toMatchObject({ result: 'success', method: 'password' });
    await t.app.inject({
      method: 'PUT',
      url: '/web-api/console/v1/security/policy',
      headers: { ...xhr, authorization: admin },
      payload: { ...policy, twoFactor: 'off' },
    });
  });

  it('removal: a stale session must verify first; another account’s passkey is 404; the administrator clears an account’s passkeys within the enterprise', async () => {
    const call = await portal('staff');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
    expect((await call('DELETE', `/${staffKeyId}`)).body).toEqual({ code: 20403, msg: '请先验证身份' });
    expect((await call('POST', '/options')).body).toEqual({ code: 20403, msg: '请先验证身份' });
    vi.useRealTimers();

    const adminCall = await portal('admin');
    expect((await adminCall('DELETE', `/${staffKeyId}`)).status).toBe(404);
    expect((await adminCall('PUT', `/${staffKeyId}`, { name: '别人的' })).status).toBe(404);

    const fresh = await portal('staff');
    expect((await fresh('DELETE', `/${staffKeyId}`)).body.msg).toBe('通行密钥已移除');
    const browser = new TestBrowser(base);
    const gone = await passkeySignIn(browser, await loginPage(browser), (options) => device.get(staffKey, options));
    expect(gone[0]?.status).toBe(401);

    // The administrator of another enterprise cannot reach it; the account's own administrator can, audited.
    const { passkey } = await addPasskey('service', '外企密钥');
    expect((await consoleCall('admin', 'DELETE', `/account/${await accountId('service')}/passkeys`)).statusCode).toBe(404);
    await addPasskey('staff', '备用密钥');
    const cleared = await consoleCall('admin', 'DELETE', `/account/${await accountId('staff')}/passkeys`);
    expect(cleared.json<Answer>()).toEqual({ code: 20200, msg: '已清除该账号的 1 个通行密钥', data: [] });
    expect((await fresh('GET', '')).body.data).toEqual([]);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target'])
      .where('action', '=', 'account.passkeys-remove')
      .where('outcome', '=', 'success')
      .execute();
    expect(audit).toEqual([{ username: 'admin', target: expect.stringMatching(/^staff /) }]);
    // service's passkey still signs in.
    const other = new TestBrowser(base);
    expect((await passkeySignIn(other, await loginPage(other), (options) => device.get(passkey, options)))[0]?.status).toBe(303);
  });
});
