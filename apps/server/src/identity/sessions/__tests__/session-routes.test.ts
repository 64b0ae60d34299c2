import type { SessionRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0';

/** A browser that names itself with a User-Agent header, as real ones do. */
class Browser extends TestBrowser {
  constructor(
    base: string,
    private readonly userAgent: string,
  ) {
    super(base);
  }

  override fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    return super.fetch(url, { ...init, headers });
  }

  get tgc(): string {
    return this.cookies.get('TGC')?.value ?? '';
  }
}

describe.each(testDialects())('在线会话 and one’s own sessions on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let admin: string;
  let rcadmin: string;
  beforeAll(async () => {
    service = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: service.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const call = (token: string, method: 'GET' | 'DELETE', url: string) =>
    t.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } });
  const consoleList = async (token: string, query = '') => {
    const res = await call(token, 'GET', `/web-api/console/v1/session/page/list?limit=100${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { total: number; rows: SessionRow[] }[] }>().data[0]!;
  };
  const ownList = async (token: string) => {
    const res = await call(token, 'GET', '/web/portal/account/sessions');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: SessionRow[] }>().data;
  };
  /** The portal session of a browser (its menus call): the user and a token, or nothing. */
  const portal = async (browser: TestBrowser) =>
    (await browser.json<{ data: { user: { username: string }; token: { access_token: string } }[] }>('/web/portal/menu/list')).body.data[0];
  /** Logs into the portal, then signs on to the application through the same SSO session; answers the application's ticket and a token. */
  const loginEverywhere = async (browser: TestBrowser, username: string) => {
    await browser.portalLogin(username, DEMO_PASSWORD, '/');
    const session = await portal(browser);
    expect(session?.user.username).toBe(username);
    const sso = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${service.url}/home`)}`);
    const ticket = new URL(sso.location ?? 'http://x/').searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);
    return { ticket, token: `Bearer ${session?.token.access_token}` };
  };
  /** Whether the TGC of a browser still signs on without the form. */
  const signsOnSilently = async (browser: TestBrowser) => {
    const res = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${service.url}/home`)}`);
    if (res.status === 200) expect(res.text).toContain('账号登录');
    return res.status === 302 || res.status === 303 ? (res.location ?? '').includes('ticket=ST-') : false;
  };

  it('lists the enterprise’s live sessions only, with 浏览器, 系统 and 已访问应用, named by handles that are not the TGT', async () => {
    const wangfang = new Browser(base, WINDOWS_CHROME);
    await loginEverywhere(wangfang, 'wangfang');
    const service2 = new Browser(base, IPHONE_SAFARI);
    await service2.casLogin('service', DEMO_PASSWORD, `${service.url}/ruichi`);

    const own = await consoleList(admin);
    const row = own.rows.find((r) => r.username === 'wangfang');
    expect(row).toMatchObject({
      name: '王芳',
      ip: '127.0.0.1',
      browser: 'Chrome 120',
      os: 'Windows 10',
      applications: ['门户', service.host],
      current: false,
    });
    expect(row?.loginAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(row?.lastActiveAt.localeCompare(row.loginAt)).toBeGreaterThanOrEqual(0);
    expect(own.rows.map((r) => r.username)).not.toContain('service');
    expect(JSON.stringify(own)).not.toContain(wangfang.tgc);
    expect(wangfang.tgc).toMatch(/^TGT-/);

    const other = await consoleList(rcadmin);
    expect(other.rows.find((r) => r.username === 'service')).toMatchObject({
      browser: 'Mobile Safari 17',
      os: 'iOS 17.2',
      applications: [service.host],
    });
    expect(other.rows.map((r) => r.username)).not.toContain('wangfang');

    // 账号 or 姓名, contained.
    expect((await consoleList(admin, `&keyword=${encodeURIComponent('王')}`)).rows.map((r) => r.username)).toContain('wangfang');
    expect((await consoleList(admin, '&keyword=nobody')).total).toBe(0);
  });

  it('names an enterprise application a ticket was issued for (cas_st.application_id) by its name', async () => {
    const db = t.database.db;
    const enterprise = await db.selectFrom('account').select('enterprise_id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const app = await db
      .insertInto('sso_application')
      .values({ enterprise_id: enterprise.enterprise_id!, name: 'OA 办公', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const browser = new Browser(base, WINDOWS_CHROME);
    const { ticket } = await loginEverywhere(browser, 'zhoujie');
    await db.updateTable('cas_st').set({ application_id: app.id }).where('id', '=', ticket).execute();
    const row = (await consoleList(admin, '&keyword=zhoujie')).rows.find((r) => r.applications.includes('OA 办公'));
    expect(row?.applications).toEqual(['门户', 'OA 办公']);
  });

  it('needs the security:session authority, and another enterprise’s session answers 404 and lives on', async () => {
    const staff = await tokenFor(t, 'staff');
    expect((await call(staff, 'GET', '/web-api/console/v1/session/page/list')).statusCode).toBe(403);
    expect((await call('', 'GET', '/web-api/console/v1/session/page/list')).statusCode).toBe(401);

    const browser = new Browser(base, MAC_FIREFOX);
    await browser.casLogin('zhoujie', DEMO_PASSWORD);
    const id = (await consoleList(admin)).rows.find((r) => r.username === 'zhoujie')?.id ?? '';
    expect(id).not.toBe('');
    const refused = await call(rcadmin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(id)}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 1, msg: '会话不存在或已结束' });
    for (const bad of ['x', '1.abc', `${id}x`, `9999999999${id.slice(id.indexOf('.'))}`]) {
      expect((await call(admin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(bad)}`)).statusCode).toBe(404);
    }
    expect(await signsOnSilently(browser)).toBe(true);
  });

  it('强制下线 ends the SSO session and its portal session, and the application hears of it by single logout', async () => {
    const browser = new Browser(base, WINDOWS_CHROME);
    const { ticket, token } = await loginEverywhere(browser, 'liuyang');
    expect(await signsOnSilently(browser)).toBe(true);
    const id = (await consoleList(admin, '&keyword=liuyang')).rows[0]?.id ?? '';
    const before = service.logoutRequests.length;

    const res = await call(admin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(id)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(service.logoutRequests.slice(before).join()).toContain(`<samlp:SessionIndex>${ticket}</samlp:SessionIndex>`);
    // The TGC no longer signs on: the CAS shows its form.
    expect(await signsOnSilently(browser)).toBe(false);
    // The portal session and its token are gone.
    expect(await portal(browser)).toBeUndefined();
    expect((await call(token, 'GET', '/web/portal/account/sessions')).statusCode).toBe(401);
    expect((await consoleList(admin, '&keyword=liuyang')).total).toBe(0);
    // Ended once; audited in the administrator's 操作日志.
    expect((await call(admin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(id)}`)).statusCode).toBe(404);
    const audit = await call(admin, 'GET', '/web-api/console/v1/audit/page/list?action=session.end');
    const entries = audit.json<{ data: { rows: { username: string; target: string; outcome: string; detail: string }[] }[] }>().data[0]
      ?.rows;
    expect(entries?.find((e) => e.outcome === 'success')).toMatchObject({
      username: 'admin',
      target: 'liuyang',
      detail: '127.0.0.1 Chrome 120 Windows 10',
    });
  });

  it('a session idle longer than the CAS allows is not listed, as the CAS no longer accepts it', async () => {
    const idle = new Browser(base, WINDOWS_CHROME);
    await idle.casLogin('admin', DEMO_PASSWORD);
    expect((await consoleList(admin, '&keyword=admin')).rows.some((r) => r.username === 'admin')).toBe(true);
    // Idle for longer than CAS_TGT_IDLE_MINUTES (120 by default).
    await t.database.db
      .updateTable('cas_tgt')
      .set({ last_used_at: new Date(Date.now() - 121 * 60_000).toISOString() })
      .where('id', '=', idle.tgc)
      .execute();
    expect(await signsOnSilently(idle)).toBe(false);
    expect((await consoleList(admin, '&keyword=admin')).rows.some((r) => r.username === 'admin')).toBe(false);
  });

  it('an account sees its own sessions, marks the current one, and ends another without ending its own', async () => {
    const desk = new Browser(base, WINDOWS_CHROME);
    const { token } = await loginEverywhere(desk, 'staff');
    const phone = new Browser(base, IPHONE_SAFARI);
    await phone.portalLogin('staff', DEMO_PASSWORD, '/');
    expect((await portal(phone))?.user.username).toBe('staff');

    const mine = await ownList(token);
    expect(mine).toHaveLength(2);
    expect(mine.every((r) => r.username === 'staff' && r.name === '李娜')).toBe(true);
    const current = mine.find((r) => r.current);
    const other = mine.find((r) => !r.current);
    expect(current).toMatchObject({ browser: 'Chrome 120', os: 'Windows 10', applications: ['门户', service.host] });
    expect(other).toMatchObject({ browser: 'Mobile Safari 17', os: 'iOS 17.2', applications: ['门户'] });

    // Someone else's session is not one's own: 404, and it lives on.
    const wangfang = new Browser(base, MAC_FIREFOX);
    await wangfang.casLogin('wangfang', DEMO_PASSWORD);
    const theirs = (await consoleList(admin, '&keyword=wangfang')).rows.map((r) => r.id);
    for (const id of theirs) {
      expect((await call(token, 'DELETE', `/web/portal/account/sessions/${encodeURIComponent(id)}`)).statusCode).toBe(404);
    }
    expect(await signsOnSilently(wangfang)).toBe(true);

    const res = await call(token, 'DELETE', `/web/portal/account/sessions/${encodeURIComponent(other?.id ?? '')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await portal(phone)).toBeUndefined();
    expect(await signsOnSilently(phone)).toBe(false);
    // The asking browser is still signed in.
    expect((await ownList(token)).map((r) => r.current)).toEqual([true]);
    expect(await signsOnSilently(desk)).toBe(true);
    expect((await call('', 'GET', '/web/portal/account/sessions')).statusCode).toBe(401);
  });
});
