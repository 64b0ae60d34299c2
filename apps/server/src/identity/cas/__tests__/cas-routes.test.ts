import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

describe.each(testDialects())('embedded CAS 3.0 server on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_MAX_FAILURES: '3', LOGIN_LOCK_MINUTES: '15', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    // A registered service that is not the portal's callback, so following the redirect spends no ticket.
    service = `${base}/demo-app/login?from=%2Fnews`;
  });
  afterAll(() => t.close());

  const ticketFrom = (location: string | null) => new URL(location ?? 'http://x/').searchParams.get('ticket') ?? '';
  const validate = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/cas/${path}?${new URLSearchParams(params).toString()}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };
  const loginTicket = async (username = 'admin') => {
    const browser = new TestBrowser(base);
    const [hop] = await browser.casLogin(username, DEMO_PASSWORD, service);
    return { browser, ticket: ticketFrom(hop?.location ?? null), hop };
  };

  it('shows a Chinese login form with a login-CSRF token and no caching', async () => {
    const browser = new TestBrowser(base);
    const page = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toContain('账号登录');
    expect(page.text).toContain('placeholder="请输入用户名或手机号"');
    expect(page.text).toMatch(/name="execution" value="[a-f0-9]{32}"/);
    expect(browser.cookies.get('CASEXEC')).toMatchObject({ path: '/cas', httpOnly: true });
    // A form posted without the token (another site's form) does not log in.
    const forged = await browser.fetch(`/cas/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=admin&password=' + encodeURIComponent(DEMO_PASSWORD),
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('登录页面已过期');
    expect(browser.cookies.has('TGC')).toBe(false);
  });

  it('logs in by username or phone, sets the TGC and redirects with a service ticket (303, no-store)', async () => {
    const { browser, hop } = await loginTicket();
    expect(hop?.status).toBe(303);
    expect(hop?.headers.get('cache-control')).toBe('private, no-store');
    expect(hop?.location).toMatch(new RegExp(`^${base}/demo-app/login\\?from=%2Fnews&ticket=ST-[A-Za-z0-9-]+$`));
    expect(browser.cookies.get('TGC')).toMatchObject({ path: '/cas', httpOnly: true, sameSite: 'Lax' });
    const byPhone = new TestBrowser(base);
    const [phoneHop] = await byPhone.casLogin('13800000002', DEMO_PASSWORD, service);
    expect(phoneHop?.status).toBe(303);
  });

  it('validates a ticket once with CAS 3 attributes in XML and JSON', async () => {
    const { ticket } = await loginTicket();
    const xml = await validate('p3/serviceValidate', { service, ticket });
    expect(xml.type).toContain('xml');
    expect(xml.text).toContain('<cas:authenticationSuccess><cas:user>admin</cas:user>');
    expect(xml.text).toContain('<cas:name>张伟</cas:name>');
    expect(xml.text).toContain('<cas:enterpriseName>徐州恒岳重工机械有限公司</cas:enterpriseName>');
    expect(xml.text).toContain('<cas:isFromNewLogin>true</cas:isFromNewLogin>');
    // Single use, also after a success.
    const again = await validate('p3/serviceValidate', { service, ticket });
    expect(again.text).toContain('<cas:authenticationFailure code="INVALID_TICKET">');

    const second = await loginTicket('operator');
    const json = await validate('p3/serviceValidate', { service, ticket: second.ticket, format: 'JSON' });
    expect(json.type).toContain('application/json');
    expect(JSON.parse(json.text)).toMatchObject({
      serviceResponse: { authenticationSuccess: { user: 'operator', attributes: { name: '陈静', telephone: '13800000004' } } },
    });
  });

  it('CAS 2 answers without attributes and CAS 1 answers yes/no', async () => {
    const { ticket } = await loginTicket();
    const cas2 = await validate('serviceValidate', { service, ticket });
    expect(cas2.text).toContain('<cas:user>admin</cas:user>');
    expect(cas2.text).not.toContain('cas:attributes');
    const other = await loginTicket();
    const cas1 = await validate('validate', { service, ticket: other.ticket });
    expect([cas1.type, cas1.text]).toEqual(['text/plain; charset=utf-8', 'yes\nadmin\n']);
    expect((await validate('validate', { service, ticket: other.ticket })).text).toBe('no\n');
  });

  it('a wrong service fails with INVALID_SERVICE and voids the ticket', async () => {
    const { ticket } = await loginTicket();
    const wrong = await validate('p3/serviceValidate', { service: `${base}/other`, ticket, format: 'JSON' });
    expect(JSON.parse(wrong.text).serviceResponse.authenticationFailure.code).toBe('INVALID_SERVICE');
    const right = await validate('p3/serviceValidate', { service, ticket, format: 'JSON' });
    expect(JSON.parse(right.text).serviceResponse.authenticationFailure.code).toBe('INVALID_TICKET');
  });

  it('answers every request-level failure code', async () => {
    const code = async (params: Record<string, string>) => {
      const r = await validate('p3/serviceValidate', { ...params, format: 'JSON' });
      return JSON.parse(r.text).serviceResponse.authenticationFailure.code as string;
    };
    expect(await code({ service })).toBe('INVALID_REQUEST');
    expect(await code({ ticket: 'ST-abc' })).toBe('INVALID_REQUEST');
    expect(await code({ service, ticket: 'PGT-abc' })).toBe('INVALID_TICKET_SPEC');
    expect(await code({ service, ticket: 'ST-doesnotexist' })).toBe('INVALID_TICKET');
    const bad = await validate('p3/serviceValidate', { service, ticket: 'ST-x', format: 'YAML' });
    expect(bad.text).toContain('code="INVALID_REQUEST"');
  });

  it('an expired ticket fails with INVALID_TICKET', async () => {
    const { ticket } = await loginTicket();
    await t.database.db
      .updateTable('cas_st')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', ticket)
      .execute();
    const r = await validate('p3/serviceValidate', { service, ticket });
    expect(r.text).toContain('code="INVALID_TICKET"');
  });

  it('single sign-on: a live TGC gets a new ticket without the form; renew asks again; renew tickets are checked', async () => {
    const { browser } = await loginTicket();
    const sso = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(sso.status).toBe(303);
    const ssoTicket = ticketFrom(sso.location);
    expect(ssoTicket).toMatch(/^ST-/);
    // A ticket from SSO (not from typed credentials) does not satisfy renew=true.
    const renewCheck = await validate('p3/serviceValidate', { service, ticket: ssoTicket, renew: 'true' });
    expect(renewCheck.text).toContain('code="INVALID_TICKET"');
    const renew = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}&renew=true`);
    expect(renew.status).toBe(200);
    expect(renew.text).toContain('账号登录');
  });

  it('gateway: no SSO session goes back to the service without a ticket', async () => {
    const browser = new TestBrowser(base);
    const res = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}&gateway=true`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(service);
  });

  it('unregistered services get no ticket and no redirect, at login and at logout', async () => {
    const { browser } = await loginTicket();
    const evil = 'https://evil.example.com/steal';
    const login = await browser.fetch(`/cas/login?service=${encodeURIComponent(evil)}`);
    expect(login.status).toBe(403);
    expect(login.location).toBeNull();
    expect(login.text).toContain('未授权的服务');
    // The known bypasses of a prefix check: each is read as a browser reads it (the shared redirect check).
    const host = new URL(base).host;
    const tricks = [
      `${base.replace('127.0.0.1', 'localhost')}/x`,
      `${base}.evil.com/x`,
      `javascript:alert(1)`,
      `${base}@evil.example/x`,
      `http://user:pw@${host}/x`,
      `http://evil.example\\@${host}/x`,
      `http://${host}\\@evil.example/x`,
      `http:\\\\evil.example/${host}/`,
      `//evil.example/${host}`,
      `/web/portal/cas/callback`,
      `http://ｅvil.example/`,
      `https://${host}/`,
    ];
    for (const trick of tricks) {
      const res = await browser.fetch(`/cas/login?service=${encodeURIComponent(trick)}`);
      expect([trick, res.status, res.location]).toEqual([trick, 403, null]);
      const gateway = await new TestBrowser(base).fetch(`/cas/login?service=${encodeURIComponent(trick)}&gateway=true`);
      expect([trick, gateway.status, gateway.location]).toEqual([trick, 403, null]);
    }
    // Dot segments are resolved before the prefix is compared; the redirect goes to the resolved address.
    const dotted = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${base}/demo-app/../demo-app/x`)}`);
    expect(dotted.status).toBe(303);
    expect(dotted.location).toMatch(new RegExp(`^${base}/demo-app/x\\?ticket=ST-`));
    for (const trick of tricks) {
      const res = await new TestBrowser(base).fetch(`/cas/logout?service=${encodeURIComponent(trick)}`);
      expect([trick, res.status, res.location]).toEqual([trick, 200, null]);
    }
    const logout = await browser.fetch(`/cas/logout?service=${encodeURIComponent(evil)}`);
    expect(logout.status).toBe(200);
    expect(logout.location).toBeNull();
    expect(logout.text).toContain('您已安全退出');
    expect(browser.cookies.has('TGC')).toBe(false);
  });

  it('logout ends the TGT and redirects to a registered service', async () => {
    const { browser } = await loginTicket();
    const tgt = browser.cookies.get('TGC')?.value ?? '';
    expect(await t.database.db.selectFrom('cas_tgt').select('id').where('id', '=', tgt).executeTakeFirst()).toBeDefined();
    const logout = await browser.fetch(`/cas/logout?service=${encodeURIComponent(`${base}/`)}`);
    expect(logout.status).toBe(303);
    expect(logout.location).toBe(`${base}/`);
    expect(await t.database.db.selectFrom('cas_tgt').select('id').where('id', '=', tgt).executeTakeFirst()).toBeUndefined();
    // The same TGT cookie, replayed, no longer signs in.
    browser.cookies.set('TGC', { value: tgt, path: '/cas', httpOnly: true, sameSite: 'Lax' });
    const form = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('账号登录');
  });

  it('wrong passwords count down and lock the account; the lock holds against the right password', async () => {
    const browser = new TestBrowser(base);
    const first = await browser.casLogin('staff', 'wrong-password');
    expect(first[0]?.status).toBe(401);
    expect(first[0]?.text).toContain('用户名或密码错误，还可尝试 2 次');
    await browser.casLogin('staff', 'wrong-password');
    const third = await browser.casLogin('staff', 'wrong-password');
    expect(third[0]?.status).toBe(423);
    expect(third[0]?.text).toContain('账号已锁定');
    const right = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(right[0]?.status).toBe(423);
    expect(browser.cookies.has('TGC')).toBe(false);
    // The lock is the account's: its phone number is locked too, and gives no more guesses.
    const byPhone = await new TestBrowser(base).casLogin('13800000002', DEMO_PASSWORD, service);
    expect(byPhone[0]?.status).toBe(423);
    expect(byPhone[0]?.text).toMatch(/密码错误次数过多，账号已锁定，请 1[45] 分钟后再试/);
    expect((await new TestBrowser(base).casLogin('13800000002', 'wrong-password'))[0]?.status).toBe(423);
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'outcome']).where('username', '=', 'staff').execute();
    expect(audit.filter((a) => a.action === 'login-failed')).toHaveLength(3);
    // Unknown accounts get the same answer as wrong passwords.
    const unknown = await browser.casLogin('nobody', 'whatever');
    expect(unknown[0]?.text).toContain('用户名或密码错误');
  });

  it('a phone number and a username count on the same account', async () => {
    const first = await new TestBrowser(base).casLogin('operator', 'wrong-password');
    expect(first[0]?.text).toContain('还可尝试 2 次');
    const second = await new TestBrowser(base).casLogin('13800000004', 'wrong-password');
    expect(second[0]?.text).toContain('还可尝试 1 次');
    // A right password starts the count again, whichever login named the account.
    expect((await new TestBrowser(base).casLogin('13800000004', DEMO_PASSWORD, service))[0]?.status).toBe(303);
    expect((await new TestBrowser(base).casLogin('OPERATOR', 'wrong-password'))[0]?.text).toContain('用户名或密码错误');
    expect((await new TestBrowser(base).casLogin('operator', 'wrong-password'))[0]?.text).toContain('还可尝试 2 次');
    expect((await new TestBrowser(base).casLogin('operator', DEMO_PASSWORD, service))[0]?.status).toBe(303);
  });

  it('names that match no account count per client IP: new names give no fresh guesses', async () => {
    const execution = 'b'.repeat(32);
    const post = (username: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/cas/login',
        remoteAddress: ip,
        cookies: { CASEXEC: execution },
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ username, password: 'guess', execution }).toString(),
      });
    expect((await post('nobody-1', '10.8.0.1')).body).toContain('用户名或密码错误，还可尝试 2 次');
    expect((await post('nobody-2', '10.8.0.1')).body).toContain('用户名或密码错误，还可尝试 1 次');
    const third = await post('nobody-3', '10.8.0.1');
    expect(third.statusCode).toBe(423);
    expect(third.body).toContain('账号已锁定');
    expect((await post('nobody-4', '10.8.0.1')).statusCode).toBe(423);
    // Another client is not affected, nor are the accounts behind that address.
    expect((await post('nobody-1', '10.8.0.2')).statusCode).toBe(401);
    expect((await post('admin', '10.8.0.1')).body).toContain('用户名或密码错误，还可尝试 2 次');
  });

  it('a cross-site logout asks first; the confirmation, same-site links and typed addresses log out at once', async () => {
    const { browser } = await loginTicket();
    const home = `${base}/`;
    const crossSite = await browser.fetch(`/cas/logout?service=${encodeURIComponent(home)}`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(200);
    expect(crossSite.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(crossSite.text).toContain('确认退出登录');
    expect(crossSite.text).toContain(`href="${base}/cas/logout?service=${encodeURIComponent(home)}"`);
    // Nothing ended: single sign-on still issues tickets.
    expect(browser.cookies.has('TGC')).toBe(true);
    expect((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).status).toBe(303);
    // The confirmation link, followed on this site, logs out and returns to the service.
    const confirmed = await browser.fetch(`/cas/logout?service=${encodeURIComponent(home)}`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(home);
    expect(browser.cookies.has('TGC')).toBe(false);
    expect((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).status).toBe(200);

    for (const site of ['same-site', 'none']) {
      const other = (await loginTicket()).browser;
      const res = await other.fetch('/cas/logout', { headers: { 'sec-fetch-site': site } });
      expect([site, res.status, res.text.includes('您已安全退出')]).toEqual([site, 200, true]);
      expect(other.cookies.has('TGC')).toBe(false);
    }
    // Without an SSO session there is nothing to confirm.
    const visitor = await new TestBrowser(base).fetch(`/cas/logout?service=${encodeURIComponent(home)}`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([visitor.status, visitor.location]).toEqual([303, home]);
  });

  it('a login or logout whose audit row cannot be written is not committed', async () => {
    const { browser } = await loginTicket('service');
    await sql`alter table audit_log rename to audit_log_away`.execute(t.database.db);
    try {
      const login = await new TestBrowser(base).casLogin('service', DEMO_PASSWORD, service);
      expect(login[0]?.status).toBe(500);
      const logout = await browser.fetch('/cas/logout');
      expect(logout.status).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(t.database.db);
    }
    // The SSO session that was to end is still there; no other was opened.
    const sso = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(sso.status).toBe(303);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('username', '=', 'service').execute();
    expect(audit.map((a) => a.action)).toEqual(['login']);
  });
});

describe.each(testDialects())('login burst window per client IP on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  const execution = 'a'.repeat(32);
  const post = (ip: string, username = 'staff') =>
    t.app.inject({
      method: 'POST',
      url: '/cas/login',
      remoteAddress: ip,
      cookies: { CASEXEC: execution },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username, password: 'wrong-password', execution }).toString(),
    });

  it('answers the login page with 429 and the seconds to wait once an IP exceeds its attempts a minute', async () => {
    expect((await post('10.9.0.1')).statusCode).toBe(401);
    expect((await post('10.9.0.1', 'admin')).statusCode).toBe(401);
    const refused = await post('10.9.0.1', 'operator');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.headers['cache-control']).toBe('private, no-store');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatch(/登录尝试过于频繁，请 (60|59) 秒后再试/);
    expect(refused.body).toContain('账号登录');
    expect(refused.body).toContain('value="operator"');
    // Another client is not affected, and the refused attempt never reached the password check:
    // the account's count is untouched.
    const other = await post('10.9.0.2', 'operator');
    expect(other.statusCode).toBe(401);
    expect(other.body).toContain('用户名或密码错误，还可尝试 4 次');
  });
});

describe.each(testDialects())('single logout on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  /** Requests each local application received (method and path). */
  const received = { redirecting: [] as string[], elsewhere: [] as string[], dropped: [] as string[] };
  const servers: http.Server[] = [];
  const start = async (name: keyof typeof received, answer: (res: http.ServerResponse) => void) => {
    const server = http.createServer((req, res) => {
      received[name].push(`${req.method ?? ''} ${req.url ?? ''}`);
      req.resume();
      req.on('end', () => answer(res));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  let redirecting: string;
  let dropped: string;

  beforeAll(async () => {
    const elsewhere = await start('elsewhere', (res) => res.end('ok'));
    // Answers every request with a redirect that would repeat a POST elsewhere (307).
    redirecting = await start('redirecting', (res) => {
      res.writeHead(307, { location: `${elsewhere}/internal` });
      res.end();
    });
    dropped = await start('dropped', (res) => res.end('ok'));
    t = await createTestApp(dialect, { CAS_SERVICES: `${redirecting}/app,${dropped}/app`, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
  });
  afterAll(async () => {
    await t.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  /** Logs in at the CAS for `service` without following the redirect to it. */
  async function ticketFor(browser: TestBrowser, service: string) {
    const query = `?service=${encodeURIComponent(service)}`;
    const form = await browser.fetch(`/cas/login${query}`);
    if (form.status === 303) return form;
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    return browser.fetch(`/cas/login${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin', password: DEMO_PASSWORD, execution }).toString(),
    });
  }

  it('posts only to services still registered, with no redirect followed', async () => {
    const browser = new TestBrowser(base);
    expect((await ticketFor(browser, `${redirecting}/app/home`)).status).toBe(303);
    expect((await ticketFor(browser, `${dropped}/app/home`)).status).toBe(303);
    // The same database behind a server whose registry no longer lists the second application.
    const narrowed = await buildApp({
      config: { ...t.config, auth: { ...t.config.auth, casServices: [`${redirecting}/app`] } },
      database: t.database,
      logger: false,
    });
    try {
      const logout = await narrowed.inject({ url: '/cas/logout', cookies: { TGC: browser.cookies.get('TGC')?.value ?? '' } });
      expect(logout.statusCode).toBe(200);
      expect(logout.body).toContain('您已安全退出');
    } finally {
      await narrowed.close();
    }
    expect(received.redirecting).toEqual(['POST /app/home']);
    expect(received.elsewhere).toEqual([]);
    expect(received.dropped).toEqual([]);
  });
});
