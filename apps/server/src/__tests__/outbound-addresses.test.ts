import type { AuthSourceTestResult, SelfTestResult } from '@portal/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../app.js';
import { DEMO_PASSWORD } from '../seed/accounts-seed.js';
import { type CasClientApp, startCasClientApp } from '../testing/cas-client-app.js';
import { HENGYUE_BIND_DN, HENGYUE_BIND_PASSWORD, HENGYUE_PEOPLE } from '../testing/ldap-fixture.js';
import { freePort } from '../testing/slapd.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../testing/test-app.js';
import { listen, TestBrowser } from '../testing/test-browser.js';

/**
 * Addresses an enterprise types are ones the server connects to (接入自检, CAS single logout, LDAP 测试连接):
 * checked where the connection is made, after the name is resolved. The test portal lets tenants reach
 * loopback, where the stand-ins listen (OUTBOUND_ALLOW_NETWORKS); `strict` is the same portal on the
 * same database with the setting off, as a production install has it.
 */

type Envelope<T> = { code: number; msg: string; data: T[] };
const LOOPBACK = '不允许连接到该地址（回环地址）';
const SELF = '不允许连接到该地址（门户自身）';

describe.each(testDialects())('addresses tenants make the server call, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let port: number;
  let strict: PortalApp;
  let standin: CasClientApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    port = Number(new URL(base).port);
    strict = await buildApp({ config: { ...t.config, outboundAllowNetworks: [] }, database: t.database, logger: false });
    standin = await startCasClientApp({ casServerUrlPrefix: `${base}/cas` });
    admin = await tokenFor(t, 'admin');
  });
  afterAll(async () => {
    await standin.close();
    await strict.close();
    await t.close();
  });
  beforeEach(() => standin.reset());

  const call = (app: PortalApp, method: 'POST' | 'PUT', url: string, payload: object) =>
    app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
      payload,
    });
  const application = (servicePrefixes: string[], logoutUrl = '') => ({
    name: `出站检查${servicePrefixes.length}${Math.random().toString(36).slice(2, 8)}`,
    category: '测试',
    protocol: 'cas3',
    servicePrefixes,
    logoutUrl,
    attributes: ['name'],
    status: 'enabled',
  });
  /** Registers an application everyone of the enterprise may open, on the portal that allows loopback. */
  const register = async (service: string, logoutUrl = '') => {
    const created = await call(t.app, 'POST', '/sso-app', application([service], logoutUrl));
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<Envelope<{ id: number }>>().data[0] as { id: number };
    const granted = await call(t.app, 'PUT', `/sso-app/${id}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });
    expect(granted.statusCode, granted.body).toBe(200);
    return id;
  };
  const ldap = (url: string) => ({
    type: 'ldap',
    name: '出站检查目录',
    enabled: true,
    secret: HENGYUE_BIND_PASSWORD,
    config: {
      url,
      startTls: false,
      bindDn: HENGYUE_BIND_DN,
      baseDn: HENGYUE_PEOPLE,
      userFilter: '(objectClass=inetOrgPerson)',
      mapping: { username: 'uid', name: 'cn', phone: 'mobile', email: 'mail' },
      adDomain: '',
      groupBaseDn: '',
      groupFilter: '',
    },
  });
  const testLdap = async (app: PortalApp, url: string) => {
    const res = await call(app, 'POST', '/auth/sources/test', ldap(url));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<AuthSourceTestResult>>().data[0] as AuthSourceTestResult;
  };

  it('refuses at save time an application or LDAP source at a literal address the portal would never call', async () => {
    const refused: [string[], string, string][] = [
      [['http://127.0.0.1:5432/'], '', `服务地址 http://127.0.0.1:5432/：${LOOPBACK}`],
      [['http://localhost:5432/'], '', `服务地址 http://localhost:5432/：${LOOPBACK}`],
      // Integer, hex and IPv4-mapped IPv6 forms of loopback.
      [['https://2130706433/app/'], '', `服务地址 https://2130706433/app/：${LOOPBACK}`],
      [['https://0x7f.1/'], '', `服务地址 https://0x7f.1/：${LOOPBACK}`],
      [['https://[::ffff:127.0.0.1]/'], '', `服务地址 https://[::ffff:127.0.0.1]/：${LOOPBACK}`],
      [['https://169.254.169.254/latest/'], '', '服务地址 https://169.254.169.254/latest/：不允许连接到该地址（链路本地地址）'],
      [['https://10.0.0.8/oa/'], '', '服务地址 https://10.0.0.8/oa/：不允许连接到该地址（内网地址）'],
      [['https://0.0.0.0/'], '', '服务地址 https://0.0.0.0/：不允许连接到该地址（未指定地址）'],
      [['https://oa.example.cn/'], 'https://192.168.1.20/slo', '注销地址 https://192.168.1.20/slo：不允许连接到该地址（内网地址）'],
    ];
    for (const [services, logoutUrl, msg] of refused) {
      const res = await call(strict, 'POST', '/sso-app', application(services, logoutUrl));
      expect([res.statusCode, res.json()], services[0]).toEqual([400, { code: 1, msg }]);
    }
    const sources: [string, string][] = [
      ['ldap://10.0.0.8:389', '不允许连接到该地址（内网地址）'],
      ['ldap://2130706433:389', LOOPBACK],
      ['ldaps://[::1]', LOOPBACK],
    ];
    for (const [url, reason] of sources) {
      const res = await call(strict, 'POST', '/auth/sources', ldap(url));
      expect([res.statusCode, res.json()], url).toEqual([400, { code: 1, msg: `LDAP 地址：${reason}` }]);
    }
    // Nothing was written.
    const stored = await t.database.db.selectFrom('auth_source').select('id').where('name', '=', '出站检查目录').execute();
    const apps = await t.database.db.selectFrom('sso_application').select('id').where('name', 'like', '出站检查%').execute();
    expect([stored, apps]).toEqual([[], []]);

    // The portal's own port is the portal under any name, even where loopback is allowed.
    for (const service of [`http://localhost:${port}/app/`, 'http://127.0.0.1:80/app/']) {
      const res = await call(t.app, 'POST', '/sso-app', application([service]));
      expect([res.statusCode, res.json()], service).toEqual([400, { code: 1, msg: `服务地址 ${service}：${SELF}` }]);
    }
  });

  /** 接入自检 of application `id`, run by the administrator on `app` (one with loopback allowed, or the strict one). */
  const selfTest = async (app: PortalApp, id: number): Promise<SelfTestResult> => {
    const res = await app.inject({
      method: 'POST',
      url: `/web-api/console/v1/sso-app/${id}/self-test`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<SelfTestResult>>().data[0] as SelfTestResult;
  };

  it('接入自检 contacts no address that resolves to loopback, and says why', async () => {
    // Registered while loopback was allowed; `localhost` is a name, resolved when the check connects.
    const service = `http://localhost:${new URL(standin.origin).port}/`;
    const id = await register(service, standin.logoutUrl);
    const run = (app: PortalApp) => selfTest(app, id);
    const steps = (await run(strict)).steps.filter((s) => s.key === 'reachable' || s.key === 'logout');
    expect(steps.map((s) => [s.key, s.status, s.detail])).toEqual([
      ['reachable', 'failed', `无法访问 ${service}：${LOOPBACK}`],
      ['logout', 'failed', `单点登出通知（logoutRequest）无法送达 ${standin.logoutUrl}：${LOOPBACK}`],
    ]);
    expect(standin.requests).toEqual([]);
    // Where the operator allows loopback, the same check reaches the application.
    const allowed = (await run(t.app)).steps.filter((s) => s.key === 'reachable' || s.key === 'logout');
    expect(allowed.map((s) => s.status)).toEqual(['passed', 'passed']);
    expect(standin.requests.length).toBeGreaterThan(0);
  });

  it('接入自检 of an OpenID Connect application contacts no redirect URI or back-channel logout address that resolves to loopback', async () => {
    const origin = `http://localhost:${new URL(standin.origin).port}`;
    const created = await call(t.app, 'POST', '/sso-app', {
      ...application([]),
      protocol: 'oidc',
      attributes: [],
      oidc: {
        clientId: '',
        clientType: 'public',
        redirectUris: [`${origin}/callback`],
        postLogoutRedirectUris: [],
        backchannelLogoutUri: `${origin}/backchannel`,
        initiateLoginUri: '',
        scopes: ['openid'],
        accessTokenSeconds: 600,
        idTokenSeconds: 600,
        refreshTokenSeconds: 86_400,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<Envelope<{ id: number }>>().data[0] as { id: number };
    const run = async (app: PortalApp) =>
      (await selfTest(app, id)).steps.filter((s) => s.key === 'redirectReachable' || s.key === 'backchannel');
    expect((await run(strict)).map((s) => [s.key, s.status, s.detail])).toEqual([
      ['redirectReachable', 'failed', `无法访问回调地址 ${origin}/callback：${LOOPBACK}`],
      ['backchannel', 'failed', `后端登出通知无法送达 ${origin}/backchannel：${LOOPBACK}`],
    ]);
    expect(standin.requests).toEqual([]);
    // Where the operator allows loopback, the same check reaches the application.
    expect((await run(t.app)).map((s) => s.key)).toEqual(['redirectReachable', 'backchannel']);
    expect(standin.requests.map((r) => `${r.method} ${r.url}`).sort()).toEqual(['GET /callback', 'POST /backchannel']);
  });

  it('single logout posts to no refused address', async () => {
    const service = `${standin.origin}/slo-check/`;
    await register(service);
    /** Signs in at the CAS for the application; the ticket's redirect is not followed. */
    const signIn = async () => {
      const browser = new TestBrowser(base);
      const query = `?service=${encodeURIComponent(service)}`;
      const form = await browser.fetch(`/cas/login${query}`);
      const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
      const login = await browser.fetch(`/cas/login${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'admin', password: DEMO_PASSWORD, execution }).toString(),
      });
      expect(login.status, login.text).toBe(303);
      return browser.cookies.get('TGC')?.value ?? '';
    };
    const logout = async (app: PortalApp, tgc: string) => {
      const res = await app.inject({ url: '/cas/logout', cookies: { TGC: tgc } });
      expect(res.body).toContain('您已安全退出');
    };

    await logout(strict, await signIn());
    expect(standin.requests).toEqual([]);
    // The same logout where loopback is allowed reaches the application.
    await logout(t.app, await signIn());
    expect(standin.requests).toEqual([{ method: 'POST', url: '/slo-check/' }]);
    expect(standin.logoutTickets).toHaveLength(1);
  });

  it('LDAP 测试连接 reaches no refused address, whatever form it is written in', async () => {
    const closed = await freePort();
    for (const host of ['localhost', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]']) {
      const result = await testLdap(strict, `ldap://${host}:${closed}`);
      expect(result, host).toEqual({
        ok: false,
        steps: [{ name: '连接', ok: false, detail: `无法连接到 ${host}:${closed}：${LOOPBACK}` }],
        sample: [],
      });
    }
    // Loopback allowed: the portal's own port is still the portal, under another name.
    expect((await testLdap(t.app, `ldap://localhost:${port}`)).steps).toEqual([
      { name: '连接', ok: false, detail: `无法连接到 localhost:${port}：${SELF}` },
    ]);
  });
});
