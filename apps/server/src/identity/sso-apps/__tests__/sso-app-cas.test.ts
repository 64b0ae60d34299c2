import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import httpCasClient from 'http-cas-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';

/**
 * An enterprise's own application on the embedded CAS, end to end: a real second HTTP
 * server protected by the independent npm client `http-cas-client` (CAS 3, single logout), registered
 * in 应用列表 and authorized in 应用授权 through the console API.
 */

interface Principal {
  user: string;
  attributes?: Record<string, string | string[]>;
}

/** The enterprise application: answers its user as JSON, and notes every request that is not a page view. */
function startEnterpriseApp() {
  let handler: ReturnType<typeof httpCasClient> | undefined;
  const posts: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') posts.push(req.url ?? '');
    void (async () => {
      try {
        if (!handler || !(await handler(req, res, {}))) {
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify((req as IncomingMessage & { principal?: Principal }).principal));
      } catch (err) {
        res.statusCode = 401;
        res.end(`validation failed: ${(err as Error).message}`);
      }
    })();
  });
  return {
    server,
    posts,
    setHandler(h: ReturnType<typeof httpCasClient>) {
      handler = h;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

describe.each(testDialects())('an enterprise application on the central login on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let appBase: string;
  let admin: string;
  let applicationId: number;
  const enterpriseApp = startEnterpriseApp();
  const ids = new Map<string, number>();
  let qualityGroup: number;

  const consoleCall = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { id: number };
  };
  const grant = (grants: { allMembers?: boolean; groupIds?: number[]; accountIds?: number[] }) =>
    consoleCall('PUT', `/sso-app/${applicationId}/grants`, { allMembers: false, groupIds: [], roleIds: [], accountIds: [], ...grants });
  const application = (overrides: Record<string, unknown> = {}) => ({
    name: '恒岳设备点检',
    category: '设备运维',
    protocol: 'cas3',
    servicePrefixes: [`${appBase}/`],
    logoutUrl: `${appBase}/cas/back-channel-logout`,
    attributes: ['name', 'enterpriseName', 'groups', 'roles'],
    status: 'enabled',
    ...overrides,
  });

  beforeAll(async () => {
    appBase = await enterpriseApp.start();
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    enterpriseApp.setHandler(httpCasClient({ cas: 3, casServerUrlPrefix: `${base}/cas`, serverName: appBase }));
    admin = await tokenFor(t, 'admin');
    for (const a of await t.database.db.selectFrom('account').select(['id', 'username']).execute()) ids.set(a.username, a.id);
    qualityGroup = (await t.database.db.selectFrom('account_group').select('id').where('name', '=', '质量部').executeTakeFirstOrThrow()).id;
    // Registered and authorized as an administrator does it in the console: 质量部 may sign in.
    applicationId = (await consoleCall('POST', '/sso-app', application())).id;
    await grant({ groupIds: [qualityGroup] });
  });
  afterAll(async () => {
    await new Promise((resolve) => enterpriseApp.server.close(resolve));
    await t.close();
  });

  /** Logs in at the CAS for `service`; answers the last hop (not following a redirect to the service). */
  async function loginFor(browser: TestBrowser, username: string, service: string) {
    const query = `?service=${encodeURIComponent(service)}`;
    const form = await browser.fetch(`/cas/login${query}`);
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    return browser.fetch(`/cas/login${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password: DEMO_PASSWORD, execution }).toString(),
    });
  }
  const ticketOf = (location: string | null) => new URL(location ?? '', base).searchParams.get('ticket');
  const validation = async (service: string, ticket: string) => {
    const res = await fetch(`${base}/cas/p3/serviceValidate?${new URLSearchParams({ service, ticket, format: 'JSON' }).toString()}`);
    return ((await res.json()) as { serviceResponse: Record<string, { code?: string; description?: string; user?: string }> })
      .serviceResponse;
  };
  const signIns = (username: string) =>
    t.database.db
      .selectFrom('login_log')
      .select(['result', 'reason', 'application_name'])
      .where('username', '=', username)
      .orderBy('id')
      .execute();
  const notAuthorizedLog = () =>
    t.database.db
      .selectFrom('login_log')
      .select(['username', 'result', 'reason', 'application_id', 'application_name'])
      .where('reason', '=', 'not-authorized')
      .orderBy('id')
      .execute();

  it('lets an authorized account in through the application’s own CAS client, with only the attributes chosen for it', async () => {
    const browser = new TestBrowser(base);
    const first = await browser.fetch(`${appBase}/inspections?line=2`);
    expect(first.status).toBe(302);
    expect(first.location).toBe(`${base}/cas/login?service=${encodeURIComponent(`${appBase}/inspections?line=2`)}`);

    // 王芳 is in 质量部.
    const hops = await browser.casLogin('wangfang', DEMO_PASSWORD, `${appBase}/inspections?line=2`);
    expect(hops[0]?.status).toBe(303);
    expect(hops.at(-1)?.url).toBe(`${appBase}/inspections?line=2`);
    const principal = JSON.parse(hops.at(-1)?.text ?? '{}') as Principal;
    expect(principal.user).toBe('wangfang');
    expect(principal.attributes).toMatchObject({ name: '王芳', enterpriseName: '徐州恒岳重工机械有限公司' });
    // Multi-valued: her group, her own role and the one her group grants.
    expect([principal.attributes?.['groups']].flat()).toEqual(['质量部']);
    expect([principal.attributes?.['roles']].flat()).toEqual(['ROLE_ENTERPRISE_STAFF', 'ROLE_QUALITY']);
    // Not chosen for this application: never released to it.
    for (const withheld of ['telephone', 'email', 'number', 'enterpriseId']) expect(principal.attributes).not.toHaveProperty(withheld);

    // The SSO session now reaches the application at once.
    const again = await browser.navigate(`${appBase}/other`);
    expect(JSON.parse(again.at(-1)?.text ?? '{}')).toMatchObject({ user: 'wangfang' });
    // 登录日志: the sign-in names the application it was for.
    expect(await signIns('wangfang')).toEqual([{ result: 'success', reason: '', application_name: '恒岳设备点检' }]);
  });

  it('lets the central login pages send their forms on to the application’s origin, and to no unregistered service', async () => {
    const policy = (res: BrowserResponse) => res.headers.get('content-security-policy') ?? '';
    const formAction = (res: BrowserResponse) => /(?:^|;)\s*form-action ([^;]*)/.exec(policy(res))?.[1]?.trim().split(/\s+/) ?? [];
    const withoutFormAction = (res: BrowserResponse) =>
      policy(res)
        .split(';')
        .filter((d) => !d.trim().startsWith('form-action'))
        .join(';');
    const browser = new TestBrowser(base);
    const plain = await browser.fetch('/cas/login');
    expect(formAction(plain)).toContain("'self'");
    expect(formAction(plain)).not.toContain(appBase);

    // The login form, the same form again after a wrong password, and 忘记密码 reached from the application.
    const service = `${appBase}/inspections?line=3`;
    const query = `?service=${encodeURIComponent(service)}`;
    const form = await browser.fetch(`/cas/login${query}`);
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const wrong = await browser.fetch(`/cas/login${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'zhoujie', password: 'not-the-password', execution }).toString(),
    });
    expect(wrong.text).toContain('用户名或密码错误');
    const forgot = await browser.fetch(`/cas/forgot-password${query}`);
    for (const [page, res] of [
      ['login', form],
      ['wrong password', wrong],
      ['forgot password', forgot],
    ] as const) {
      expect(formAction(res), page).toEqual([...formAction(plain), appBase]);
      // Nothing else of the page policy changes.
      expect(withoutFormAction(res), page).toBe(withoutFormAction(plain));
    }

    // Services the registry refuses never reach the policy: another site, or this application's port under another host name.
    for (const other of ['https://evil.example.com/steal', `${appBase.replace('127.0.0.1', 'localhost')}/inspections`]) {
      const refused = await browser.fetch(`/cas/login?service=${encodeURIComponent(other)}`);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('未授权的服务');
      expect(policy(refused)).toBe(policy(plain));
      expect(policy(refused)).not.toContain(new URL(other).host);
    }
    // Pages outside the central login keep theirs, whatever their query says.
    const home = await browser.fetch(`/${query}`);
    expect(policy(home)).toBe(policy(plain));
  });

  it('answers CAS 2.0 and 1.0 validation for the application too, without attributes', async () => {
    const service = `${appBase}/cas2`;
    const browser = new TestBrowser(base);
    const ticket = ticketOf((await loginFor(browser, 'zhoujie', service)).location) ?? '';
    const xml = await (await fetch(`${base}/cas/serviceValidate?${new URLSearchParams({ service, ticket }).toString()}`)).text();
    expect(xml).toContain('<cas:user>zhoujie</cas:user>');
    expect(xml).not.toContain('<cas:attributes>');
    const second = ticketOf((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).location) ?? '';
    expect(await (await fetch(`${base}/cas/validate?${new URLSearchParams({ service, ticket: second }).toString()}`)).text()).toBe(
      'yes\nzhoujie\n',
    );
  });

  it('refuses an account without the right with 您无权访问该应用 naming the application, no ticket, and logs it', async () => {
    const service = `${appBase}/inspections`;
    const browser = new TestBrowser(base);
    // 张伟 (admin) is not in 质量部: the password is right, the application is not his.
    const refused = await loginFor(browser, 'admin', service);
    expect(refused.status).toBe(403);
    expect(refused.location).toBeNull();
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(refused.text).toContain('您无权访问该应用');
    expect(refused.text).toContain('恒岳设备点检');
    expect(refused.text).not.toContain('ST-');

    // His SSO session is live (the portal still gets tickets), yet the application still gets none.
    const viaSession = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect([viaSession.status, viaSession.location]).toEqual([403, null]);
    expect(viaSession.text).toContain('您无权访问该应用');
    const portal = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${base}/web/portal/cas/callback`)}`);
    expect(portal.status).toBe(303);
    expect(ticketOf(portal.location)).toMatch(/^ST-/);
    // gateway: no page may be shown, so back to the application without a ticket.
    const gateway = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}&gateway=true`);
    expect([gateway.status, gateway.location]).toEqual([303, service]);

    // Through the application's own client: the user never reaches it.
    const hops = await new TestBrowser(base).casLogin('admin', DEMO_PASSWORD, service);
    expect(hops.at(-1)?.status).toBe(403);
    expect(hops.at(-1)?.url.startsWith(`${base}/cas/login`)).toBe(true);

    // His password was right: the sign-in itself succeeded, for no application; the refusals name it.
    expect((await signIns('admin')).filter((r) => r.result === 'success')).toEqual([
      { result: 'success', reason: '', application_name: '' },
      { result: 'success', reason: '', application_name: '' },
    ]);
    const logged = await notAuthorizedLog();
    expect(logged.length).toBe(4);
    expect(logged[0]).toEqual({
      username: 'admin',
      result: 'failure',
      reason: 'not-authorized',
      application_id: applicationId,
      application_name: '恒岳设备点检',
    });
  });

  it('admits through a single account, 企业全员, and refuses again once the application is disabled', async () => {
    const service = `${appBase}/grants`;
    await grant({ groupIds: [qualityGroup], accountIds: [ids.get('admin')!] });
    expect((await loginFor(new TestBrowser(base), 'admin', service)).status).toBe(303);
    await grant({ allMembers: true });
    expect((await loginFor(new TestBrowser(base), 'liuyang', service)).status).toBe(303);
    // Another enterprise's account never gets in, 企业全员 or not.
    expect((await loginFor(new TestBrowser(base), 'rcadmin', service)).status).toBe(403);

    await consoleCall('PUT', `/sso-app/${applicationId}`, application({ status: 'disabled' }));
    const disabled = await loginFor(new TestBrowser(base), 'liuyang', service);
    expect(disabled.status).toBe(403);
    expect(disabled.text).toContain('应用「恒岳设备点检」已停用');
    await consoleCall('PUT', `/sso-app/${applicationId}`, application());
    await grant({ groupIds: [qualityGroup] });
  });

  it('fails the validation of a ticket whose right was revoked (or whose application was disabled) after it was issued', async () => {
    const service = `${appBase}/revoked`;
    const browser = new TestBrowser(base);
    const issued = await loginFor(browser, 'wangfang', service);
    const ticket = ticketOf(issued.location) ?? '';
    expect(ticket).toMatch(/^ST-/);
    await grant({});
    // The application's client presents the ticket: the CAS refuses it, the user is not let in.
    const presented = await new TestBrowser(base).fetch(`${service}?ticket=${ticket}`);
    expect(presented.status).toBe(401);
    expect(presented.text).toContain('authentication failed');

    await grant({ groupIds: [qualityGroup] });
    const second = ticketOf((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).location) ?? '';
    await grant({});
    const failure = (await validation(service, second))['authenticationFailure'];
    expect(failure?.code).toBe('INVALID_TICKET');
    expect(failure?.description).toContain('账号已无权访问该应用「恒岳设备点检」');

    await grant({ groupIds: [qualityGroup] });
    const third = ticketOf((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).location) ?? '';
    await consoleCall('PUT', `/sso-app/${applicationId}`, application({ status: 'disabled' }));
    expect((await validation(service, third))['authenticationFailure']?.code).toBe('INVALID_TICKET');
    await consoleCall('PUT', `/sso-app/${applicationId}`, application());

    // With the right in place the same flow succeeds.
    const fourth = ticketOf((await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`)).location) ?? '';
    expect((await validation(service, fourth))['authenticationSuccess']?.user).toBe('wangfang');
  });

  it("sends single logout to the application's logout address when an administrator disables the account", async () => {
    const browser = new TestBrowser(base);
    const hops = await browser.navigate(`${appBase}/dashboard`);
    expect(hops.at(-1)?.url).toContain('/cas/login');
    const loggedIn = await browser.casLogin('zhoujie', DEMO_PASSWORD, `${appBase}/dashboard`);
    expect(JSON.parse(loggedIn.at(-1)?.text ?? '{}')).toMatchObject({ user: 'zhoujie' });
    expect((await browser.fetch(`${appBase}/dashboard`)).status).toBe(200);

    enterpriseApp.posts.length = 0;
    await consoleCall('PUT', `/account/${ids.get('zhoujie')}/status`, { status: 'disabled' });
    // Every ticket of his sessions is announced there (an earlier test left him another session).
    expect(enterpriseApp.posts.length).toBeGreaterThan(0);
    expect(new Set(enterpriseApp.posts)).toEqual(new Set(['/cas/back-channel-logout']));
    const after = await browser.fetch(`${appBase}/dashboard`);
    expect(after.status).toBe(302);
    expect(after.location).toContain('/cas/login');
    await consoleCall('PUT', `/account/${ids.get('zhoujie')}/status`, { status: 'active' });
  });

  it("sends single logout to the application's logout address when an administrator ends the session (强制下线)", async () => {
    const browser = new TestBrowser(base);
    const loggedIn = await browser.casLogin('wangfang', DEMO_PASSWORD, `${appBase}/forced`);
    expect(JSON.parse(loggedIn.at(-1)?.text ?? '{}')).toMatchObject({ user: 'wangfang' });
    expect((await browser.fetch(`${appBase}/forced`)).status).toBe(200);

    const listed = await t.app.inject({
      url: '/web-api/console/v1/session/page/list?keyword=wangfang&limit=100',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = (listed.json().data[0] as { rows: { id: string; applications: string[] }[] }).rows;
    // 已访问应用 names the application its tickets were issued for.
    const session = rows.find((r) => r.applications.includes('恒岳设备点检'));
    expect(session).toBeDefined();

    enterpriseApp.posts.length = 0;
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/web-api/console/v1/session/${session?.id ?? ''}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(enterpriseApp.posts.length).toBeGreaterThan(0);
    expect(new Set(enterpriseApp.posts)).toEqual(new Set(['/cas/back-channel-logout']));
    const after = await browser.fetch(`${appBase}/forced`);
    expect(after.status).toBe(302);
    expect(after.location).toContain('/cas/login');
  });

  it('sends single logout to the service address itself when the application has no logout address', async () => {
    await consoleCall('PUT', `/sso-app/${applicationId}`, application({ logoutUrl: '' }));
    const browser = new TestBrowser(base);
    const loggedIn = await browser.casLogin('wangfang', DEMO_PASSWORD, `${appBase}/reports`);
    expect(JSON.parse(loggedIn.at(-1)?.text ?? '{}')).toMatchObject({ user: 'wangfang' });

    enterpriseApp.posts.length = 0;
    await browser.fetch('/cas/logout');
    expect(enterpriseApp.posts).toEqual(['/reports']);
    expect((await browser.fetch(`${appBase}/reports`)).status).toBe(302);
    await consoleCall('PUT', `/sso-app/${applicationId}`, application());
  });

  it('stops serving a deleted application at once: its tickets fail and its address is no longer registered', async () => {
    // The same machine under another host name: an address of its own, overlapping no other application.
    const temp = `${appBase.replace('127.0.0.1', 'localhost')}/temp/`;
    const { id } = await consoleCall('POST', '/sso-app', application({ name: '临时应用', servicePrefixes: [temp], logoutUrl: '' }));
    await consoleCall('PUT', `/sso-app/${id}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });
    const browser = new TestBrowser(base);
    const ticket = ticketOf((await loginFor(browser, 'liuyang', `${temp}x`)).location) ?? '';
    expect(ticket).toMatch(/^ST-/);
    await consoleCall('DELETE', `/sso-app/${id}`);
    expect((await validation(`${temp}x`, ticket))['authenticationFailure']?.code).toBe('INVALID_TICKET');
    const unknown = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${temp}x`)}`);
    expect([unknown.status, unknown.location]).toEqual([403, null]);
    expect(unknown.text).toContain('未授权的服务');
  });

  it('serves an application registered on another instance at once (no per-instance cache)', async () => {
    const other = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      const service = `${appBase.replace('127.0.0.1', 'localhost')}/elsewhere/`;
      const created = await other.inject({
        method: 'POST',
        url: '/web-api/console/v1/sso-app',
        headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
        payload: application({ name: '另一实例登记的应用', servicePrefixes: [service], logoutUrl: '' }),
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = (created.json().data[0] as { id: number }).id;
      const granted = await other.inject({
        method: 'PUT',
        url: `/web-api/console/v1/sso-app/${id}/grants`,
        headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
        payload: { allMembers: true, groupIds: [], roleIds: [], accountIds: [] },
      });
      expect(granted.statusCode, granted.body).toBe(200);
      const login = await loginFor(new TestBrowser(base), 'liuyang', service);
      expect(login.status).toBe(303);
      expect(ticketOf(login.location)).toMatch(/^ST-/);
      await consoleCall('DELETE', `/sso-app/${id}`);
    } finally {
      await other.close();
    }
  });
});
