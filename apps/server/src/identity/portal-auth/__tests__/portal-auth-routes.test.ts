import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { AccessTokens } from '../access-tokens.js';

interface MenuEntry {
  routers: {
    authCode: string;
    name: string;
    path: string;
    meta: { title: string; icon: string };
    children: { name: string; meta: { title: string } }[];
  }[];
  user: {
    name: string;
    username: string;
    telephone: string;
    number: string;
    enterpriseName: string;
    enterpriseId: number | null;
    certificationStatus: string;
  };
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
    expect(apps.body.data.map((a) => a.title)).toEqual([
      '工作台',
      '企业信息',
      '组织与账号',
      '应用管理',
      '安全中心',
      '认证与同步',
      '统计分析',
      '租户管理',
      '认证审核',
      '内容管理',
      '标识管理',
      '操作日志',
    ]);
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
      certificationStatus: 'certified',
    });
    expect(entry?.authorities).toContain('ROLE_ENTERPRISE_ADMIN');
    expect(entry?.token.access_token).toMatch(/^[\w-]+\.[\w-]+$/);
    // Routers are filtered by authority: an enterprise admin has no content management.
    expect(entry?.routers.map((r) => r.meta.title)).toEqual([
      '工作台',
      '企业信息',
      '组织与账号',
      '应用管理',
      '安全中心',
      '认证与同步',
      '统计分析',
      '标识管理',
      '操作日志',
    ]);
    expect(entry?.routers[2]?.children.map((c) => c.meta.title)).toEqual(['账号管理', '账号组', '角色管理']);
    // 应用订阅 is the operators' queue: an enterprise administrator requests from the application center.
    expect(entry?.routers[3]?.children.map((c) => c.meta.title)).toEqual(['应用列表', '机器客户端', '应用授权']);
    expect(entry?.routers[4]?.children.map((c) => c.meta.title)).toEqual(['安全设置', '在线会话', '登录日志', '安全合规']);
    expect(entry?.routers[5]?.children.map((c) => c.meta.title)).toEqual(['认证源', '同步']);
    expect(entry?.routers[7]?.children.map((c) => c.name)).toEqual(['IdentifierTemplate', 'IdentifierRecord', 'IdentifierStats']);
  });

  it('menus follow the role: operator sees tenants and content management, a service-customer employee no console', async () => {
    const operator = (await menus((await loggedIn('operator')).browser))[0];
    expect(operator?.routers.map((r) => r.meta.title)).toEqual([
      '工作台',
      '企业信息',
      '组织与账号',
      '应用管理',
      '安全中心',
      '认证与同步',
      '统计分析',
      '租户管理',
      '认证审核',
      '内容管理',
      '标识管理',
      '操作日志',
    ]);
    expect(operator?.routers[9]?.children.map((c) => c.meta.title)).toEqual(['栏目管理', '文章管理', '推荐应用', '首页配置', '开放服务']);
    expect(operator?.routers[3]?.children.map((c) => c.meta.title)).toEqual(['应用列表', '机器客户端', '应用授权', '应用订阅']);
    const service = (await menus((await loggedIn('service')).browser))[0];
    expect(service?.authorities).toEqual(['ROLE_SERVICE_CUSTOMER_EMPLOYEE']);
    expect(service?.routers).toEqual([]);
  });

  it('an open redirect through the target is refused', async () => {
    const { hops } = await loggedIn('admin', DEMO_PASSWORD, '//evil.example.com/');
    expect(hops[1]?.location).toBe('/');
  });

  it('every known redirect bypass in the callback target lands on a page of this site', async () => {
    // Spec: the callback answers 303 to its target, a path of this site only (`/..//evil.example/` once
    // answered `Location: //evil.example/`). Injected requests reach the server as http://localhost.
    const site = 'http://localhost';
    const refused = [
      '//evil.example/',
      '/..//evil.example/',
      '/.%2e//evil.example/',
      '/%2e%2e//evil.example/',
      '/\\evil.example/',
      '\\\\evil.example',
      '/\\/evil.example',
      'https://evil.example/',
      'HTTPS://evil.example/',
      `${site}@evil.example/`,
      `http://user:pass@localhost/`,
      'http://localhost:8070/',
      'http://ｅvil.example/',
      'http://xn--vil-8ja.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      ' //evil.example/',
    ];
    for (const target of refused) {
      const res = await t.app.inject({ url: `/web/portal/cas/callback?target=${encodeURIComponent(target)}` });
      expect([target, res.statusCode, res.headers.location]).toEqual([target, 303, '/']);
      // The login start puts the same checked target into the address the CAS returns to.
      const start = await t.app.inject({ url: `/web/portal/cas/login?target=${encodeURIComponent(target)}` });
      const service = new URL(new URL(String(start.headers.location)).searchParams.get('service') ?? '');
      expect([target, service.searchParams.get('target')]).toEqual([target, '/']);
    }
    // Control characters (CR/LF, tab, NUL) are refused before any redirect.
    for (const target of ['/\r\nSet-Cookie: a=1', '/\tconsole', '\n//evil.example', '/news\u0000']) {
      const res = await t.app.inject({ url: `/web/portal/cas/callback?target=${encodeURIComponent(target)}` });
      expect([JSON.stringify(target), res.statusCode, res.headers.location]).toEqual([JSON.stringify(target), 400, undefined]);
      expect(res.json().code).toBe(1);
    }
    // Paths of this site keep their normalised form.
    for (const [target, path] of [
      ['/news/detail?id=1#top', '/news/detail?id=1#top'],
      ['/a/../console', '/console'],
      ['/%2F%2Fevil.example/', '/%2F%2Fevil.example/'],
      ['/%5C/evil.example', '/%5C/evil.example'],
      [`${site}/mark?handle=88.118.8/A`, '/mark?handle=88.118.8/A'],
    ]) {
      const res = await t.app.inject({ url: `/web/portal/cas/callback?target=${encodeURIComponent(target ?? '')}` });
      expect([target, res.headers.location]).toEqual([target, path]);
    }
  });

  it('a replayed or forged ticket opens no session', async () => {
    const browser = new TestBrowser(base);
    const start = await browser.fetch('/web/portal/cas/login?target=%2F');
    const state = new URL(new URL(start.location ?? '').searchParams.get('service') ?? '').searchParams.get('state');
    const res = await browser.fetch(`/web/portal/cas/callback?target=%2F&state=${state}&ticket=ST-forged`);
    expect(res.status).toBe(401);
    expect(res.text).toContain('登录验证失败');
    expect(browser.cookies.has('PORTAL_SESSION')).toBe(false);
  });

  it('the login starts at the portal: an HttpOnly state cookie and the CAS login with a callback that carries it', async () => {
    const browser = new TestBrowser(base);
    const start = await browser.fetch('/web/portal/cas/login?target=%2Fnews%3Fpage%3D2');
    expect(start.status).toBe(303);
    expect(start.headers.get('cache-control')).toBe('private, no-store');
    const login = new URL(start.location ?? '');
    expect(`${login.origin}${login.pathname}`).toBe(`${base}/cas/login`);
    const service = new URL(login.searchParams.get('service') ?? '');
    expect(`${service.origin}${service.pathname}`).toBe(`${base}/web/portal/cas/callback`);
    expect(service.searchParams.get('target')).toBe('/news?page=2');
    const cookie = browser.cookies.get('PORTAL_LOGIN_STATE');
    expect(cookie).toMatchObject({ path: '/web/portal/cas', httpOnly: true, sameSite: 'Lax' });
    expect(service.searchParams.get('state')).toBe(cookie?.value);
    expect(cookie?.value).toMatch(/^[\w-]{22}$/);
    // A second start draws a new state.
    await browser.fetch('/web/portal/cas/login?target=%2F');
    expect(browser.cookies.get('PORTAL_LOGIN_STATE')?.value).not.toBe(cookie?.value);
  });

  it('login CSRF: a ticket from a login this browser did not start opens no session and restarts the login once', async () => {
    // The attacker logs in to their own account and keeps the callback address with its ticket.
    const mint = async (target: string) => {
      const [hop] = await new TestBrowser(base).portalLogin('staff', DEMO_PASSWORD, target);
      expect(hop?.location).toContain('ticket=ST-');
      return hop?.location ?? '';
    };
    const minted = await mint('/console');

    // The victim, without a login of their own under way, opens it: no session, back to the login start.
    const victim = new TestBrowser(base);
    const res = await victim.fetch(minted);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/web/portal/cas/login?target=%2Fconsole&retry=1');
    expect(victim.cookies.has('PORTAL_SESSION')).toBe(false);
    expect(await menus(victim)).toEqual([]);
    // The restart shows the victim the login form of the CAS, not the attacker's account.
    const restart = await victim.navigate(res.location ?? '');
    expect(restart.at(-1)?.text).toContain('账号登录');
    expect(victim.cookies.has('PORTAL_SESSION')).toBe(false);

    // A victim with a login of their own under way (another state) is not logged in either.
    const started = new TestBrowser(base);
    await started.fetch('/web/portal/cas/login?target=%2F');
    expect((await started.fetch(await mint('/'))).status).toBe(303);
    expect(started.cookies.has('PORTAL_SESSION')).toBe(false);
    expect(await menus(started)).toEqual([]);

    // A second refusal in a row ends on a page instead of another round trip.
    const again = await new TestBrowser(base).fetch(`${await mint('/')}&retry=1`);
    expect(again.status).toBe(401);
    expect(again.text).toContain('登录状态已失效，请重新登录');
  });

  it('the state is good for one return: the callback clears it', async () => {
    const browser = new TestBrowser(base);
    const hops = await browser.portalLogin('operator', DEMO_PASSWORD, '/news');
    expect(hops[1]?.location).toBe('/news');
    expect(browser.cookies.has('PORTAL_LOGIN_STATE')).toBe(false);
    expect((await menus(browser))[0]?.user.username).toBe('operator');
  });

  it('silent single sign-on: gateway without a CAS session reports a visitor; with one it opens the session', async () => {
    const visitor = new TestBrowser(base);
    const hops = await visitor.navigate('/web/portal/cas/login?mode=silent');
    const login = new URL(hops[0]?.location ?? '');
    expect(login.searchParams.get('gateway')).toBe('true');
    const service = new URL(login.searchParams.get('service') ?? '');
    expect(service.searchParams.get('mode')).toBe('silent');
    expect(service.searchParams.get('state')).toMatch(/^[\w-]{22}$/);
    expect(hops.at(-1)?.text).toContain('data-logged-in="0"');
    expect(visitor.cookies.has('PORTAL_SESSION')).toBe(false);

    const { browser } = await loggedIn('staff');
    browser.cookies.delete('PORTAL_SESSION');
    // A visible login under way keeps its state while the silent check runs.
    await browser.fetch('/web/portal/cas/login?target=%2F');
    const pending = browser.cookies.get('PORTAL_LOGIN_STATE')?.value;
    const sso = await browser.navigate('/web/portal/cas/login?mode=silent');
    expect(sso.at(-1)?.text).toContain('data-logged-in="1"');
    expect((await menus(browser))[0]?.user.username).toBe('staff');
    expect(browser.cookies.get('PORTAL_LOGIN_STATE')?.value).toBe(pending);
  });

  it('silent single sign-on: a ticket without the silent state reports a visitor and opens no session', async () => {
    const { browser } = await loggedIn('staff');
    const silent = `${base}/web/portal/cas/callback?mode=silent&state=forged-state-value-0000`;
    const hops = await browser.navigate(`/cas/login?service=${encodeURIComponent(silent)}&gateway=true`);
    expect(hops[0]?.location).toContain('ticket=ST-');
    expect(hops.at(-1)?.text).toContain('data-logged-in="0"');
    const other = new TestBrowser(base);
    expect((await other.fetch(hops[0]?.location ?? '')).text).toContain('data-logged-in="0"');
    expect(other.cookies.has('PORTAL_SESSION')).toBe(false);
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
