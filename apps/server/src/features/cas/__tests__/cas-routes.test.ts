import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../db/seed/accounts-seed.js';
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
    for (const trick of [`${base.replace('127.0.0.1', 'localhost')}/x`, `${base}.evil.com/x`, `javascript:alert(1)`]) {
      expect((await browser.fetch(`/cas/login?service=${encodeURIComponent(trick)}`)).status).toBe(403);
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
    const audit = await t.database.db.selectFrom('audit_log').select(['action', 'outcome']).where('username', '=', 'staff').execute();
    expect(audit.filter((a) => a.action === 'login-failed')).toHaveLength(3);
    // Unknown accounts get the same answer as wrong passwords.
    const unknown = await browser.casLogin('nobody', 'whatever');
    expect(unknown[0]?.text).toContain('用户名或密码错误');
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
    // The refused attempt never reached the password check: no failure recorded for that account.
    const failures = await t.database.db.selectFrom('login_failure').select('username').where('username', '=', 'operator').execute();
    expect(failures).toEqual([]);
    // Another client is not affected.
    expect((await post('10.9.0.2')).statusCode).toBe(401);
  });
});
