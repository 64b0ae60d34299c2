import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, createTestDatabase, secondInstance, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';

/** RFC 4648 base32 (the authenticator key's alphabet), decoded here rather than by the server's library. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30-second steps, RFC 4226 dynamic truncation), independent of the server's otplib. */
function totp(key: Buffer, atMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

describe('the test’s own TOTP', () => {
  it('matches the RFC 6238 appendix B vectors (SHA-1)', () => {
    const key = Buffer.from('12345678901234567890');
    expect(totp(key, 59_000, 8)).toBe('94287082');
    expect(totp(key, 1_111_111_109_000, 8)).toBe('07081804');
    expect(totp(key, 20_000_000_000_000, 8)).toBe('65353130');
  });
});

describe.each(testDialects())('two-factor login (RFC 6238) at the central login on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  /** The key staff's authenticator holds after enrolment. */
  let staffKey: Buffer;
  /** The code that confirmed the enrolment (spent). */
  let enrolCode: string;
  let recovery: string[];
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  const setTwoFactor = async (twoFactor: 'off' | 'admins' | 'all') => {
    const policy = { ...t.app.config.securityDefaults, lockMaxFailures: 3, twoFactor };
    const res = await c.call(admin, 'PUT', '/security/policy', policy);
    expect(res.statusCode, res.body).toBe(200);
  };
  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const post = (browser: TestBrowser, path: string, page: BrowserResponse | undefined, fields: Record<string, string> = {}) =>
    browser.fetch(`/cas/login${path}?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        proof: field(page?.text ?? '', 'proof'),
        execution: field(page?.text ?? '', 'execution'),
        ...fields,
      }).toString(),
    });
  const manualKey = (html: string) => base32Decode((/密钥：<code>([A-Z2-7 ]+)<\/code>/.exec(html)?.[1] ?? '').replace(/ /g, ''));
  const loginLog = async (username: string) =>
    (await t.database.db.selectFrom('login_log').select('reason').where('username', '=', username).orderBy('id').execute()).map(
      (r) => r.reason,
    );

  it('全员: the next login enrols with a QR code, confirms a code, shows 10 recovery codes once, then signs in', async () => {
    await setTwoFactor('all');
    const browser = new TestBrowser(base);
    const [enrol] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(enrol?.status).toBe(200);
    expect(enrol?.text).toContain('<h1>绑定二次验证</h1>');
    expect(enrol?.text).toMatch(/<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="二次验证二维码"/);
    expect(browser.cookies.has('TGC')).toBe(false);
    const key = manualKey(enrol?.text ?? '');
    expect(key.length).toBe(20);

    // The page's QR code carries the same secret in an otpauth URI (RFC 6238 key URI format).
    const svg = Buffer.from(/data:image\/svg\+xml;base64,([^"]+)/.exec(enrol?.text ?? '')?.[1] ?? '', 'base64').toString();
    expect(svg).toMatch(/^<svg /);

    const now = Date.now();
    const wrong = String((Number(totp(key, now)) + 1) % 1_000_000).padStart(6, '0');
    const refused = await post(browser, '/two-factor/enrol', enrol, { code: wrong });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('验证码不正确');
    // Asked again, the same secret is shown.
    expect(manualKey(refused.text).equals(key)).toBe(true);

    const codes = await post(browser, '/two-factor/enrol', refused, { code: totp(key, now) });
    expect(codes.status).toBe(200);
    expect(codes.text).toContain('<h1>保存恢复码</h1>');
    recovery = [...codes.text.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1] ?? '');
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect(browser.cookies.has('TGC')).toBe(false);

    const done = await post(browser, '/two-factor/continue', codes);
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.has('TGC')).toBe(true);
    // The recovery page cannot be posted twice, nor the enrolment again.
    expect((await post(browser, '/two-factor/continue', codes)).text).toContain('验证页面已过期');
    expect((await post(browser, '/two-factor/enrol', refused, { code: totp(key, now) })).text).toContain('验证页面已过期');
    expect((await c.audit(admin, 'two-factor-enrol'))[0]).toMatchObject({ username: 'staff', outcome: 'success' });
    staffKey = key;
    enrolCode = totp(key, now);
    // The database keeps the secret sealed: the account row does not hold the key the authenticator got.
    const row = await t.database.db.selectFrom('account').select('totp_secret').where('username', '=', 'staff').executeTakeFirstOrThrow();
    const shown = /密钥：<code>([A-Z2-7 ]+)<\/code>/.exec(enrol?.text ?? '')?.[1]?.replace(/ /g, '') ?? '';
    expect(shown).toHaveLength(32);
    expect(row.totp_secret).not.toContain(shown);
  });

  it('later logins ask for a code after the password; a code works once, a replayed one fails', async () => {
    const browser = new TestBrowser(base);
    const [ask] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(ask?.status).toBe(200);
    expect(ask?.text).toContain('<h1>二次验证</h1>');
    expect(browser.cookies.has('TGC')).toBe(false);

    // The enrolment's code is spent.
    const replayed = await post(browser, '/two-factor', ask, { code: enrolCode });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain('验证码错误或已使用，还可尝试 2 次');
    expect(browser.cookies.has('TGC')).toBe(false);

    // The next step's code is within the ±1 step window and not used yet.
    const nextCode = totp(staffKey, Date.now() + 30_000);
    const ok = await post(browser, '/two-factor', replayed, { code: nextCode });
    expect(ok.status).toBe(303);
    expect(ok.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.has('TGC')).toBe(true);

    // The same code at another login fails: each code is accepted once.
    const other = new TestBrowser(base);
    const [again] = await other.casLogin('staff', DEMO_PASSWORD, service);
    const replay = await post(other, '/two-factor', again, { code: nextCode });
    expect(replay.status).toBe(401);
    // A code two steps away is outside the window.
    const far = await post(other, '/two-factor', replay, { code: totp(staffKey, Date.now() + 90_000) });
    expect(far.status).toBe(401);
    expect(await loginLog('staff')).toEqual(['', 'two-factor-failed', '', 'two-factor-failed', 'two-factor-failed']);
  });

  it('a recovery code works once', async () => {
    const [code] = recovery;
    const browser = new TestBrowser(base);
    const [ask] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    const ok = await post(browser, '/two-factor', ask, { code: ` ${(code ?? '').toUpperCase()} ` });
    expect(ok.status).toBe(303);
    const other = new TestBrowser(base);
    const [again] = await other.casLogin('staff', DEMO_PASSWORD, service);
    const spent = await post(other, '/two-factor', again, { code: code ?? '' });
    expect(spent.status).toBe(401);
    expect(spent.text).toContain('验证码错误或已使用');
    expect((await post(other, '/two-factor', spent, { code: recovery[1] ?? '' })).status).toBe(303);
  });

  it('wrong codes lock the account at the policy’s number, whatever passwords come between', async () => {
    const wrong = async () => {
      const browser = new TestBrowser(base);
      const [ask] = await browser.casLogin('staff', DEMO_PASSWORD, service);
      if (!ask?.text.includes('<h1>二次验证</h1>')) return ask;
      return post(browser, '/two-factor', ask, { code: '000000' === totp(staffKey, Date.now()) ? '111111' : '000000' });
    };
    expect((await wrong())?.text).toContain('还可尝试 2 次');
    expect((await wrong())?.text).toContain('还可尝试 1 次');
    const locked = await wrong();
    expect(locked?.status).toBe(423);
    expect(locked?.text).toContain('验证失败次数过多，账号已锁定，请 15 分钟后再试');
    // The password alone no longer gets anywhere, and 账号管理 shows the lock.
    const [refused] = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service);
    expect(refused?.status).toBe(423);
    expect((await c.row(admin, 'staff'))?.state).toBe('locked');
    const unlocked = await c.call(admin, 'POST', `/account/${(await c.row(admin, 'staff'))?.id}/unlock`);
    expect(unlocked.statusCode).toBe(200);
  });

  it('仅管理员 asks administrators (org:account) only; 关闭 asks no one', async () => {
    await setTwoFactor('admins');
    const [staff] = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service);
    expect(staff?.status).toBe(303);
    const [boss] = await new TestBrowser(base).casLogin('admin', DEMO_PASSWORD, service);
    expect(boss?.text).toContain('<h1>绑定二次验证</h1>');
    await setTwoFactor('off');
    expect((await new TestBrowser(base).casLogin('admin', DEMO_PASSWORD, service))[0]?.status).toBe(303);
  });

  it('重置二次验证 makes the account enrol again with a new secret', async () => {
    await setTwoFactor('all');
    const id = (await c.row(admin, 'staff'))?.id;
    const reset = await c.call(admin, 'POST', `/account/${id}/two-factor/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    const browser = new TestBrowser(base);
    const [enrol] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(enrol?.text).toContain('<h1>绑定二次验证</h1>');
    const key = manualKey(enrol?.text ?? '');
    expect(key.equals(staffKey)).toBe(false);
    // The old recovery codes are gone with the old secret.
    const codes = await post(browser, '/two-factor/enrol', enrol, { code: recovery[2] ?? '' });
    expect(codes.status).toBe(400);
    const enrolled = await post(browser, '/two-factor/enrol', codes, { code: totp(key, Date.now()) });
    expect(enrolled.text).toContain('<h1>保存恢复码</h1>');
  });

  it('a secret an earlier version kept in the clear is sealed at the next start and keeps working', async () => {
    await setTwoFactor('all');
    const plain = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const { db } = t.database;
    await db
      .updateTable('account')
      .set({ totp_secret: plain, totp_enabled_at: new Date().toISOString(), totp_last_step: null })
      .where('username', '=', 'wangfang')
      .execute();
    const restarted = await secondInstance(t);
    try {
      const row = await db.selectFrom('account').select('totp_secret').where('username', '=', 'wangfang').executeTakeFirstOrThrow();
      expect(row.totp_secret).not.toContain(plain);
      const browser = new TestBrowser(base);
      const [ask] = await browser.casLogin('wangfang', DEMO_PASSWORD, service);
      expect(ask?.text).toContain('<h1>二次验证</h1>');
      const ok = await post(browser, '/two-factor', ask, { code: totp(base32Decode(plain), Date.now()) });
      expect(ok.status).toBe(303);
    } finally {
      await restarted.close();
    }
  });

  it('orders the steps: a code before a new password, enrolment after the password is the holder’s own', async () => {
    // An initial password under 全员: first the new password, then the enrolment, then the login.
    await t.database.db.updateTable('account').set({ must_change_password: 1 }).where('username', '=', 'liuyang').execute();
    const browser = new TestBrowser(base);
    const [change] = await browser.casLogin('liuyang', DEMO_PASSWORD, service);
    expect(change?.text).toContain('<h1>修改初始密码</h1>');
    const changed = await browser.fetch(`/cas/login/password?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        change: field(change?.text ?? '', 'change'),
        execution: field(change?.text ?? '', 'execution'),
        password: 'Liuyang#2027',
        confirm: 'Liuyang#2027',
      }).toString(),
    });
    expect(changed.text).toContain('<h1>绑定二次验证</h1>');
    expect(browser.cookies.has('TGC')).toBe(false);
    const key = manualKey(changed.text);
    const codes = await post(browser, '/two-factor/enrol', changed, { code: totp(key, Date.now()) });
    expect((await post(browser, '/two-factor/continue', codes)).status).toBe(303);

    // An enrolled account whose password expired: the code first, then the new password.
    await t.database.db
      .updateTable('account')
      .set({ password_changed_at: new Date(Date.now() - 40 * 86_400_000).toISOString() })
      .where('username', '=', 'liuyang')
      .execute();
    await c.call(admin, 'PUT', '/security/policy', { ...t.app.config.securityDefaults, passwordExpiryDays: 30, twoFactor: 'all' });
    const later = new TestBrowser(base);
    const [ask] = await later.casLogin('liuyang', 'Liuyang#2027', service);
    expect(ask?.text).toContain('<h1>二次验证</h1>');
    const expired = await post(later, '/two-factor', ask, { code: totp(key, Date.now() + 30_000) });
    expect(expired.status).toBe(200);
    expect(expired.text).toContain('<h1>密码已过期</h1>');
    expect(later.cookies.has('TGC')).toBe(false);
  });
});

describe('two-factor secrets and the server log', () => {
  it('never writes the secret, a code or a recovery code, even at trace level with every request logged', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const testDb = await createTestDatabase('sqlite', { ACCESS_LOG: 'all', TWO_FACTOR: 'all', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    const app = await buildApp({ config: testDb.config, database: testDb.database, logger: { level: 'trace', stream } });
    try {
      const base = await listen(app);
      const service = `${base}/demo-app/login`;
      const browser = new TestBrowser(base);
      const [enrol] = await browser.casLogin('staff', DEMO_PASSWORD, service);
      const secret = (/密钥：<code>([A-Z2-7 ]+)<\/code>/.exec(enrol?.text ?? '')?.[1] ?? '').replace(/ /g, '');
      expect(secret).toHaveLength(32);
      const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
      const code = totp(base32Decode(secret), Date.now());
      const saved = await browser.fetch(`/cas/login/two-factor/enrol?service=${encodeURIComponent(service)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          proof: field(enrol?.text ?? '', 'proof'),
          execution: field(enrol?.text ?? '', 'execution'),
          code,
        }).toString(),
      });
      const recovery = [...saved.text.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1] ?? '');
      expect(recovery).toHaveLength(10);
      const log = lines.join('');
      expect(log).toContain('/cas/login/two-factor/enrol');
      for (const secretText of [secret, ...recovery]) expect(log).not.toContain(secretText);
      // Six digits may turn up in any timestamp: the code itself is looked for as a value.
      expect(log).not.toMatch(new RegExp(`code\\W{1,3}${code}`));
    } finally {
      await app.close();
      await testDb.drop();
    }
  });
});
