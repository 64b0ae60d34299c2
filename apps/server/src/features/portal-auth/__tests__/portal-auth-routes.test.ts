import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../db/seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { AccessTokens } from '../access-tokens.js';
import { safeTarget } from '../portal-auth-routes.js';

interface MenuEntry {
  routers: { authCode: string; name: string; path: string; meta: { title: string; icon: string }; children: { name: string }[] }[];
  user: { name: string; username: string; telephone: string; number: string; enterpriseName: string; enterpriseId: number | null };
  token: { token_type: string; access_token: string };
  authorities: string[];
}

const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
const menus = async (browser: TestBrowser) => (await browser.json<{ code: number; data: MenuEntry[] }>('/web/portal/menu/list')).body.data;
const encrypt = async (browser: TestBrowser, text: string) => {
  const { body } = await browser.json<{ data: { publicKey: string }[] }>('/web/portal/account/public-key');
  const key = createPublicKey({ key: Buffer.from(body.data[0]?.publicKey ?? '', 'base64'), format: 'der', type: 'spki' });
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text)).toString('base64');
};
const changePassword = async (
  browser: TestBrowser,
  token: string,
  oldPassword: string,
  newPassword: string,
  confirmPassword = newPassword,
) =>
  browser.json('/web/portal/account/password', {
    method: 'PUT',
    headers: { ...xhr, authorization: `Bearer ${token}` },
    body: JSON.stringify({
      oldPassword: await encrypt(browser, oldPassword),
      newPassword: await encrypt(browser, newPassword),
      confirmPassword: await encrypt(browser, confirmPassword),
    }),
  });

describe('login redirect targets', () => {
  it('keeps paths of this site and turns everything else into /', () => {
    const base = 'https://portal.example.cn';
    expect(safeTarget('/news/detail?id=1', base)).toBe('/news/detail?id=1');
    expect(safeTarget('//evil.example.com/x', base)).toBe('/');
    expect(safeTarget('/\\evil.example.com', base)).toBe('/');
    expect(safeTarget('https://evil.example.com/', base)).toBe('/');
    expect(safeTarget('javascript:alert(1)', base)).toBe('/');
    expect(safeTarget(undefined, base)).toBe('/');
  });
});

describe('access tokens', () => {
  const tokens = new AccessTokens(Buffer.alloc(32, 7), 30);
  it('tells missing, invalid and expired apart', () => {
    const token = tokens.issue('session-key', 5, 1_000_000);
    expect(tokens.check(`Bearer ${token}`, 1_000_000)).toEqual({ ok: true, sessionKey: 'session-key', accountId: 5 });
    expect(tokens.check(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(tokens.check('Bearer nonsense')).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.check(`Bearer ${token.slice(0, -2)}xx`, 1_000_000)).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.check(`Bearer ${new AccessTokens(Buffer.alloc(32, 8), 30).issue('session-key', 5, 1_000_000)}`, 1_000_000)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(tokens.check(`Bearer ${token}`, 1_000_000 + 30 * 60_000)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe.each(testDialects())('portal session and token on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
  const loggedIn = async (username: string, password = DEMO_PASSWORD, target = '/news') => {
    const browser = new TestBrowser(base);
    const hops = await browser.portalLogin(username, password, target);
    return { browser, hops };
  };

  it('a visitor gets an empty menu list and the portal app menus', async () => {
    const browser = new TestBrowser(base);
    const res = await browser.json('/web/portal/menu/list');
    expect(res.body).toEqual({ code: 20200, msg: '操作成功', data: [] });
    expect((await browser.fetch('/web/portal/menu/list')).headers.get('cache-control')).toBe('private, no-store');
    const apps = await browser.json<{ data: { title: string }[] }>('/web/portal/app/menus');
    expect(apps.body.data.map((a) => a.title)).toEqual(['工作台', '内容管理', '标识管理', '操作日志']);
  });

  it('the callback validates the ticket over HTTP, opens an HttpOnly session and returns to the target', async () => {
    const { browser, hops } = await loggedIn('admin', DEMO_PASSWORD, '/news/detail?id=abc');
    expect(hops.slice(0, 2).map((h) => h.status)).toEqual([303, 303]);
    expect(hops[1]?.location).toBe('/news/detail?id=abc');
    expect(browser.cookies.get('PORTAL_SESSION')).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(hops[1]?.headers.get('cache-control')).toBe('private, no-store');
    const [entry] = await menus(browser);
    expect(entry?.user).toEqual({
      name: '张伟',
      username: 'admin',
      telephone: '13800000001',
      number: 'HY0001',
      enterpriseName: '徐州恒岳重工机械有限公司',
      enterpriseId: expect.any(Number),
    });
    expect(entry?.authorities).toContain('ROLE_ENTERPRISE_ADMIN');
    expect(entry?.token.access_token).toMatch(/^[\w-]+\.[\w-]+$/);
    // Routers are filtered by authority: an enterprise admin has no content management.
    expect(entry?.routers.map((r) => r.meta.title)).toEqual(['工作台', '标识管理', '操作日志']);
    expect(entry?.routers[1]?.children.map((c) => c.name)).toEqual(['IdentifierTemplate', 'IdentifierRecord']);
  });

  it('menus follow the role: operator sees content management, a service-customer employee only the dashboard', async () => {
    const operator = (await menus((await loggedIn('operator')).browser))[0];
    expect(operator?.routers.map((r) => r.meta.title)).toEqual(['工作台', '内容管理', '标识管理', '操作日志']);
    expect(operator?.routers[1]?.children).toHaveLength(4);
    const service = (await menus((await loggedIn('service')).browser))[0];
    expect(service?.authorities).toContain('ROLE_SERVICE_CUSTOMER_EMPLOYEE');
    expect(service?.routers.map((r) => r.path)).toEqual(['/console/dashboard']);
  });

  it('an open redirect through the target is refused', async () => {
    const { hops } = await loggedIn('admin', DEMO_PASSWORD, '//evil.example.com/');
    expect(hops[1]?.location).toBe('/');
  });

  it('a replayed or forged ticket opens no session', async () => {
    const browser = new TestBrowser(base);
    const res = await browser.fetch(`/web/portal/cas/callback?target=%2F&ticket=ST-forged`);
    expect(res.status).toBe(401);
    expect(res.text).toContain('登录验证失败');
    expect(browser.cookies.has('PORTAL_SESSION')).toBe(false);
  });

  it('silent single sign-on: gateway without a CAS session reports a visitor; with one it opens the session', async () => {
    const silent = encodeURIComponent(`${base}/web/portal/cas/callback?mode=silent`);
    const visitor = new TestBrowser(base);
    const hops = await visitor.navigate(`/cas/login?service=${silent}&gateway=true`);
    expect(hops.at(-1)?.text).toContain('data-logged-in="0"');
    expect(visitor.cookies.has('PORTAL_SESSION')).toBe(false);

    const { browser } = await loggedIn('staff');
    browser.cookies.delete('PORTAL_SESSION');
    const sso = await browser.navigate(`/cas/login?service=${silent}&gateway=true`);
    expect(sso.at(-1)?.text).toContain('data-logged-in="1"');
    expect((await menus(browser))[0]?.user.username).toBe('staff');
  });

  it('the token endpoint answers for a live session only, with CORS for registered origins', async () => {
    const { browser } = await loggedIn('admin');
    const res = await browser.fetch('/web/portal/oauth/token', { headers: { origin: base } });
    const body = JSON.parse(res.text) as { code: number; data: { token_type: string; access_token: string }[] };
    expect(body.code).toBe(20200);
    expect(body.data[0]?.token_type).toBe('Bearer');
    expect(res.headers.get('access-control-allow-origin')).toBe(base);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const foreign = await browser.fetch('/web/portal/oauth/token', { headers: { origin: 'https://evil.example.com' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const visitor = await new TestBrowser(base).json('/web/portal/oauth/token');
    expect(visitor.status).toBe(401);
    expect(visitor.body).toEqual({ code: 1, msg: '登录已失效，请重新登录' });
  });

  it('protected calls answer 20300 without a token, 20302 for a bad one and 20301 for an expired one', async () => {
    const browser = new TestBrowser(base);
    const call = (authorization?: string) =>
      browser.json('/web/portal/account/password', {
        method: 'PUT',
        headers: { ...xhr, ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ oldPassword: 'a', newPassword: 'b', confirmPassword: 'b' }),
      });
    expect((await call()).body.code).toBe(20300);
    expect((await call('Bearer abc.def')).body.code).toBe(20302);
    const key = await t.database.db
      .selectFrom('system_secret')
      .select('value')
      .where('name', '=', 'access-token-hmac')
      .executeTakeFirstOrThrow();
    const expired = new AccessTokens(Buffer.from(key.value, 'base64'), 30).issue('k', 1, Date.now() - 31 * 60_000);
    expect((await call(`Bearer ${expired}`)).body.code).toBe(20301);
  });

  it('state-changing calls need X-Requested-With and a same-site origin', async () => {
    const browser = new TestBrowser(base);
    const noHeader = await browser.json('/web-api/register/v1/sms?phone=13912345678', { method: 'POST' });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.code).toBe(1);
    const crossSite = await browser.json('/web-api/register/v1/sms?phone=13912345678', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', origin: 'https://evil.example.com' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('password change: server-side rules, wrong old password, success ends the other sessions', async () => {
    const first = await loggedIn('staff');
    const other = await loggedIn('staff');
    const token = (await menus(first.browser))[0]?.token.access_token ?? '';

    const mismatch = await changePassword(first.browser, token, DEMO_PASSWORD, 'NewPass#2026', 'Different#1');
    expect(mismatch.body).toEqual({ code: 1, msg: '两次输入密码不一致' });
    const short = await changePassword(first.browser, token, DEMO_PASSWORD, '12345');
    expect(short.body.msg).toBe('请输入至少6位密码');
    const wrongOld = await changePassword(first.browser, token, 'not-my-password', 'NewPass#2026');
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body).toEqual({ code: 1, msg: '原密码错误' });
    const garbage = await first.browser.json('/web/portal/account/password', {
      method: 'PUT',
      headers: { ...xhr, authorization: `Bearer ${token}` },
      body: JSON.stringify({ oldPassword: 'plain', newPassword: 'plain', confirmPassword: 'plain' }),
    });
    expect(garbage.body.msg).toBe('密码数据无法解密，请刷新页面后重试');

    const done = await changePassword(first.browser, token, DEMO_PASSWORD, 'NewPass#2026');
    expect(done.body).toEqual({ code: 20200, msg: '密码修改成功', data: [] });
    expect((await menus(first.browser))[0]?.user.username).toBe('staff');
    expect(await menus(other.browser)).toEqual([]);

    // The CAS takes the new password and refuses the old one.
    const oldLogin = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD);
    expect(oldLogin[0]?.status).toBe(401);
    const newLogin = await loggedIn('staff', 'NewPass#2026');
    expect((await menus(newLogin.browser))[0]?.user.username).toBe('staff');
    const audit = await t.database.db.selectFrom('audit_log').select(['outcome']).where('action', '=', 'password-change').execute();
    expect(audit.map((a) => a.outcome).sort()).toEqual(['failure', 'success']);
  });

  it('single logout: logging out at the CAS ends the portal session', async () => {
    const { browser } = await loggedIn('operator');
    expect(await menus(browser)).toHaveLength(1);
    const hops = await browser.navigate(`/cas/logout?service=${encodeURIComponent(`${base}/`)}`);
    expect(hops[0]?.status).toBe(303);
    expect(await menus(browser)).toEqual([]);
    const token = await browser.json('/web/portal/oauth/token');
    expect(token.status).toBe(401);
  });
});

describe.each(testDialects())('current-password guessing on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_MAX_FAILURES: '3', LOGIN_LOCK_MINUTES: '15', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  const session = async (username: string) => {
    const browser = new TestBrowser(base);
    await browser.portalLogin(username, DEMO_PASSWORD);
    return { browser, token: (await menus(browser))[0]?.token.access_token ?? '' };
  };

  it('wrong current passwords count toward the account lockout, with the CAS; a locked account changes nothing', async () => {
    const { browser, token } = await session('staff');
    expect((await changePassword(browser, token, 'guess-one', 'NewPass#2026')).body).toEqual({ code: 1, msg: '原密码错误' });
    // The same account's counter, whichever login names it (here its phone number at the CAS).
    const cas = await new TestBrowser(base).casLogin('13800000002', 'guess-two');
    expect(cas[0]?.text).toContain('用户名或密码错误，还可尝试 1 次');
    const third = await changePassword(browser, token, 'guess-three', 'NewPass#2026');
    expect(third.status).toBe(423);
    expect(third.body).toEqual({ code: 1, msg: '密码错误次数过多，账号已锁定，请 15 分钟后再试' });
    // Locked: the right current password changes nothing and the CAS refuses the login.
    const right = await changePassword(browser, token, DEMO_PASSWORD, 'NewPass#2026');
    expect(right.status).toBe(423);
    expect(right.body.msg).toMatch(/^密码错误次数过多，账号已锁定，请 1[45] 分钟后再试$/);
    expect((await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD))[0]?.status).toBe(423);
    expect((await new TestBrowser(base).casLogin('staff', 'NewPass#2026'))[0]?.status).toBe(423);
  });

  it('answers 429 in Chinese after a few password changes a minute per account', async () => {
    const { browser, token } = await session('operator');
    for (let i = 0; i < 5; i++) {
      expect((await changePassword(browser, token, 'wrong-old', 'NewPass#2026', 'Other#2026')).body.msg).toBe('两次输入密码不一致');
    }
    const res = await browser.fetch('/web/portal/account/password', {
      method: 'PUT',
      headers: { ...xhr, authorization: `Bearer ${token}` },
      body: JSON.stringify({ oldPassword: 'x', newPassword: 'y', confirmPassword: 'y' }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = JSON.parse(res.text) as { code: number; msg: string };
    expect(body.code).toBe(1);
    expect(body.msg).toMatch(/^修改密码尝试过于频繁，请 \d+ 秒后再试$/);
    // Another account is not affected.
    const other = await session('admin');
    expect((await changePassword(other.browser, other.token, 'x', 'NewPass#2026', 'Other#2026')).body.msg).toBe('两次输入密码不一致');
  });

  it('a password change whose audit row cannot be written is not committed', async () => {
    const { browser, token } = await session('service');
    const other = await session('service');
    await sql`alter table audit_log rename to audit_log_away`.execute(t.database.db);
    try {
      const res = await changePassword(browser, token, DEMO_PASSWORD, 'NewPass#2026');
      expect(res.status).toBe(500);
      expect(res.body.code).toBe(1);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(t.database.db);
    }
    // The old password still holds and the other session is still open.
    expect((await new TestBrowser(base).casLogin('service', 'NewPass#2026'))[0]?.status).toBe(401);
    expect((await new TestBrowser(base).casLogin('service', DEMO_PASSWORD))[0]?.status).toBe(200);
    expect((await menus(other.browser))[0]?.user.username).toBe('service');
  });
});
