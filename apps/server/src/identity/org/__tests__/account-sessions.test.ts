import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';
import { consoleClient } from './account-test-client.js';

describe.each(testDialects())('账号管理 and live sessions on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    service = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: service.url, LOGIN_MAX_FAILURES: '3', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const idOf = async (username: string) => (await c.row(admin, username))?.id ?? -1;
  const menu = async (browser: TestBrowser) =>
    (await browser.json<{ data: { user: { username: string }; token: { access_token: string } }[] }>('/web/portal/menu/list')).body.data;

  it('停用 ends a live portal session and the SSO session, and the application holding a ticket hears of it', async () => {
    const browser = new TestBrowser(base);
    await browser.portalLogin('wangfang', DEMO_PASSWORD, '/');
    const [session] = await menu(browser);
    expect(session?.user.username).toBe('wangfang');
    const token = `Bearer ${session?.token.access_token}`;
    // Single sign-on into the application: it holds a ticket of this SSO session.
    const sso = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${service.url}/home`)}`);
    const ticket = new URL(sso.location ?? 'http://x/').searchParams.get('ticket');
    expect(ticket).toMatch(/^ST-/);

    const res = await c.call(admin, 'PUT', `/account/${await idOf('wangfang')}/status`, { status: 'disabled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(service.logoutRequests).toHaveLength(1);
    expect(service.logoutRequests[0]).toContain(`<samlp:SessionIndex>${ticket}</samlp:SessionIndex>`);
    // The portal session, its token and the SSO session are gone.
    expect(await menu(browser)).toEqual([]);
    expect((await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: token } })).statusCode).toBe(401);
    const again = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${service.url}/home`)}`);
    expect(again.status).toBe(200);
    expect(again.text).toContain('账号登录');
    // Nor can it log in again.
    const refused = await new TestBrowser(base).casLogin('wangfang', DEMO_PASSWORD, `${service.url}/home`);
    expect(refused[0]?.status).toBe(403);
    expect(refused[0]?.text).toContain('账号已停用，请联系企业管理员');
  });

  it('删除 and 重置密码 end the sessions with single logout too', async () => {
    for (const [username, change] of [
      ['liuyang', async (id: number) => c.call(admin, 'DELETE', `/account/${id}`)],
      [
        'zhoujie',
        async (id: number) =>
          c.call(admin, 'POST', `/account/${id}/password`, { passwordMode: 'manual', password: await c.encoded('Reset#2026') }),
      ],
    ] as const) {
      const browser = new TestBrowser(base);
      const [hop] = await browser.casLogin(username, DEMO_PASSWORD, `${service.url}/${username}`);
      const ticket = new URL(hop?.location ?? 'http://x/').searchParams.get('ticket') ?? '';
      expect(ticket).toMatch(/^ST-/);
      const before = service.logoutRequests.length;
      const res = await change(await idOf(username));
      expect(res.statusCode, res.body).toBe(200);
      expect(service.logoutRequests.slice(before).join()).toContain(ticket);
    }
  });

  it('a lock from wrong passwords shows as 锁定 until 解锁, after which the right password logs in', async () => {
    for (let i = 0; i < 3; i++) await new TestBrowser(base).casLogin('staff', 'wrong-password');
    const locked = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, `${service.url}/home`);
    expect(locked[0]?.status).toBe(423);
    expect((await c.row(admin, 'staff'))?.state).toBe('locked');
    const res = await c.call(admin, 'POST', `/account/${await idOf('staff')}/unlock`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await c.row(admin, 'staff'))?.state).toBe('active');
    const [hop] = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, `${service.url}/home`);
    expect(hop?.location).toContain('ticket=ST-');
  });

  it('two administrators disabling each other at once: one wins, the enterprise keeps an administrator', async () => {
    const rcadmin = await tokenFor(t, 'rcadmin');
    const adminRole = (await c.options(rcadmin)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_ADMIN')?.id;
    const created = await c.call(rcadmin, 'POST', '/account', {
      username: 'rcadmin2',
      name: '第二管理员',
      phone: '13900000401',
      groupIds: [],
      roleIds: [adminRole],
      passwordMode: 'manual',
      password: await c.encoded('Init@2026'),
    });
    expect(created.statusCode, created.body).toBe(200);
    const other = await tokenFor(t, 'rcadmin2');
    const ids = { rcadmin: (await c.row(rcadmin, 'rcadmin'))?.id, rcadmin2: (await c.row(rcadmin, 'rcadmin2'))?.id };
    const answers = await Promise.all([
      c.call(rcadmin, 'PUT', `/account/${ids.rcadmin2}/status`, { status: 'disabled' }),
      c.call(other, 'PUT', `/account/${ids.rcadmin}/status`, { status: 'disabled' }),
    ]);
    expect(answers.map((a) => a.statusCode).filter((s) => s === 200)).toHaveLength(1);
    expect(
      (await t.app.accountRepository.administrators((await t.app.accountRepository.profile(ids.rcadmin ?? -1))?.enterpriseId ?? -1)).length,
    ).toBe(1);
  });
});
