import { type SelfTestPrecheck, type SelfTestResult, type SelfTestStepKey, SELF_TESTS_PER_MINUTE, type SessionRow } from '@portal/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { type CasClientApp, startCasClientApp } from '../../../testing/cas-client-app.js';
import { freePort } from '../../../testing/slapd.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

/**
 * 接入自检: the portal checks an enterprise application's integration against a real
 * second HTTP server acting as the application (a CAS 3.0 client), signing in as the administrator
 * through their own SSO session and validating over HTTP at the embedded CAS.
 */

type Envelope<T> = { code: number; msg: string; data: T[] };
type Steps = Record<SelfTestStepKey, { status: string; detail: string }>;

const stepsOf = (result: SelfTestResult): Steps =>
  Object.fromEntries(result.steps.map((s) => [s.key, { status: s.status, detail: s.detail }])) as Steps;
const statuses = (result: SelfTestResult) => result.steps.map((s) => `${s.key}:${s.status}`);

describe.each(testDialects())('接入自检 on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let standin: CasClientApp;
  /** Another host (localhost, not 127.0.0.1) that a redirect may point to: it must never be asked. */
  let elsewhere: CasClientApp;
  let admin: string;
  let adminBrowser: TestBrowser;
  const stopped: string[] = [];

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  const consoleCall = async <T = { id: number }>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await call(admin, method, `/web-api/console/v1${url}`, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<T>>().data[0] as T;
  };
  let appCount = 0;
  const registered: number[] = [];
  /** Registers an application in 应用列表 (企业全员 may sign in unless said otherwise). */
  const register = async (settings: { service?: string; logoutUrl?: string; attributes?: string[]; allMembers?: boolean } = {}) => {
    appCount += 1;
    const name = `自检应用${appCount}`;
    const { id } = await consoleCall('POST', '/sso-app', {
      name,
      category: '测试',
      protocol: 'cas3',
      servicePrefixes: [settings.service ?? standin.serviceUrl],
      logoutUrl: settings.logoutUrl ?? '',
      attributes: settings.attributes ?? ['name', 'enterpriseName'],
      status: 'enabled',
    });
    registered.push(id);
    await consoleCall('PUT', `/sso-app/${id}/grants`, {
      allMembers: settings.allMembers ?? true,
      groupIds: [],
      roleIds: [],
      accountIds: [],
    });
    return { id, name };
  };
  const selfTest = (id: number, body: object = {}, token = admin) =>
    call(token, 'POST', `/web-api/console/v1/sso-app/${id}/self-test`, body);
  const run = async (id: number, body: object = {}) => {
    const res = await selfTest(id, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(standin.bodyMarker);
    const envelope = res.json<Envelope<SelfTestResult>>();
    return { msg: envelope.msg, result: envelope.data[0] as SelfTestResult };
  };
  const unusedAddress = async () => {
    const address = `http://127.0.0.1:${await freePort()}`;
    stopped.push(address);
    return address;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    standin = await startCasClientApp({ casServerUrlPrefix: `${base}/cas` });
    elsewhere = await startCasClientApp();
    // The administrator signs in as in a browser: the portal session stands on a live SSO session.
    adminBrowser = new TestBrowser(base);
    await adminBrowser.portalLogin('admin', DEMO_PASSWORD, '/');
    const menu = await adminBrowser.json<Envelope<{ token: { access_token: string } }>>('/web/portal/menu/list');
    admin = `Bearer ${menu.body.data[0]?.token.access_token}`;
  });
  afterAll(async () => {
    await standin.close();
    await elsewhere.close();
    await t.close();
  });
  beforeEach(() => {
    standin.reset();
    elsewhere.reset();
  });
  // Each test's applications go again: their service addresses are free for the next test.
  afterEach(async () => {
    for (const id of registered.splice(0)) await consoleCall('DELETE', `/sso-app/${id}`);
  });

  it('passes every step for a healthy application, with a real ticket from the administrator’s own SSO session', async () => {
    const { id, name } = await register({ logoutUrl: standin.logoutUrl, attributes: ['name', 'email', 'enterpriseName', 'groups'] });
    const { msg, result } = await run(id);
    expect(msg).toBe('接入自检通过');
    expect(result).toMatchObject({ applicationId: id, service: standin.serviceUrl, username: 'admin', passed: true });
    expect(result.ranAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(statuses(result)).toEqual([
      'registered:passed',
      'reachable:passed',
      'logout:passed',
      'signIn:passed',
      'validate:passed',
      'attributes:passed',
    ]);
    expect(result.steps.map((s) => s.title)).toEqual([
      '服务地址已登记',
      '服务地址可访问',
      '注销地址可响应',
      '测试账号登录',
      '票据校验（/p3/serviceValidate）',
      '属性释放',
    ]);
    const steps = stepsOf(result);
    const casLogin = `${new URL(base).host}/cas/login`;
    expect(steps.registered.detail).toBe(`服务地址 ${standin.serviceUrl} 已登记在应用「${name}」中，统一身份认证按此地址识别本应用`);
    expect(steps.reachable.detail).toBe(`GET ${standin.serviceUrl} 返回 HTTP 302，跳转至统一身份认证登录页 ${casLogin}（未跟随跳转）`);
    expect(steps.logout.detail).toBe(`POST 单点登出通知（logoutRequest）至 ${standin.logoutUrl}，返回 HTTP 200`);
    expect(steps.signIn.detail).toBe('已通过账号 admin 当前的统一身份认证会话为该服务签发服务票据（与用户从门户打开应用时相同）');
    expect(steps.validate.detail).toBe(`GET ${base}/cas/p3/serviceValidate 校验通过，返回账号 admin`);
    expect(steps.attributes.detail).toBe('已返回 姓名 name、邮箱 email、企业名称 enterpriseName、账号组 groups');
    expect(result.attributes).toMatchObject({
      name: ['张伟'],
      email: ['zhangwei@hengyue-hi.cn'],
      enterpriseName: ['徐州恒岳重工机械有限公司'],
      groups: ['信息中心'],
    });
    // The application saw a page request, not followed further, and one single-logout message at its 注销地址.
    expect(standin.requests).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/' },
        { method: 'POST', url: '/cas/back-channel-logout' },
      ]),
    );
    expect(standin.requests).toHaveLength(2);
    expect(standin.logoutTickets).toEqual([expect.stringMatching(/^ST-[A-Za-z0-9-]+$/)]);
    // The ticket was issued in the administrator's SSO session: it lists the application as visited.
    const own = await call(admin, 'GET', '/web/portal/account/sessions');
    const current = own.json<Envelope<SessionRow>>().data.find((s) => s.current);
    expect(current?.applications).toContain(name);
    // And the administrator opening the application signs in to it through the same SSO session.
    const hops = await adminBrowser.navigate(standin.serviceUrl);
    expect(hops.at(-1)?.text).toContain('signed in as admin');
    // The run is in 操作日志.
    const audit = await consoleCall<{ rows: { action: string; target: string; detail: string; outcome: string }[] }>(
      'GET',
      '/audit/page/list?action=sso-app.self-test',
    );
    expect(audit.rows[0]).toMatchObject({ target: name, outcome: 'success', detail: `${standin.serviceUrl}：全部通过` });
  });

  it('refuses to contact an address that is not one of the application’s service addresses', async () => {
    const { id, name } = await register();
    const other = elsewhere.serviceUrl;
    const { msg, result } = await run(id, { service: other });
    expect(msg).toBe('接入自检未通过，请按各检查项的说明修改后重试');
    expect(result).toMatchObject({ service: other, passed: false, attributes: {} });
    const steps = stepsOf(result);
    expect(steps.registered).toEqual({
      status: 'failed',
      detail: `${other} 不在应用「${name}」的服务地址中：统一身份认证不会为它签发票据，请先在应用列表中添加该服务地址`,
    });
    for (const key of ['reachable', 'logout', 'signIn', 'validate', 'attributes'] as const) {
      expect(steps[key]).toEqual({ status: 'skipped', detail: '服务地址未通过登记检查，已跳过（不会访问未登记的地址）' });
    }
    expect(elsewhere.requests).toEqual([]);
    expect(standin.requests).toEqual([]);
  });

  it('reports a service that refuses connections, and single logout to it, while sign-in and validation still pass', async () => {
    const down = `${await unusedAddress()}/`;
    const { id } = await register({ service: down });
    const { result } = await run(id);
    expect(result.passed).toBe(false);
    expect(statuses(result)).toEqual([
      'registered:passed',
      'reachable:failed',
      'logout:failed',
      'signIn:passed',
      'validate:passed',
      'attributes:passed',
    ]);
    const steps = stepsOf(result);
    expect(steps.reachable.detail).toBe(`无法访问 ${down}：连接被拒绝（ECONNREFUSED）：应用未启动，或没有监听该地址的端口`);
    expect(steps.logout.detail).toBe(
      `单点登出通知（logoutRequest）无法送达 ${down}：连接被拒绝（ECONNREFUSED）：应用未启动，或没有监听该地址的端口`,
    );
  });

  it('reports a 5xx answer by its status without quoting its body', async () => {
    standin.page = { kind: 'status', status: 502 };
    const { id } = await register();
    const { result } = await run(id);
    expect(stepsOf(result).reachable).toEqual({
      status: 'failed',
      detail: `GET ${standin.serviceUrl} 返回 HTTP 502：服务地址应能打开应用（2xx），或跳转登录（3xx、401、403）`,
    });
    // Without a 注销地址 single logout goes to the service address itself.
    expect(stepsOf(result).logout).toEqual({
      status: 'passed',
      detail: `POST 单点登出通知（logoutRequest）至 ${standin.serviceUrl}，返回 HTTP 200（未填写注销地址，发往服务地址）`,
    });
    expect(result.passed).toBe(false);
  });

  it('reports a logout address that is down', async () => {
    const logoutUrl = `${await unusedAddress()}/cas/logout`;
    const { id } = await register({ logoutUrl });
    const { result } = await run(id);
    expect(statuses(result)).toEqual([
      'registered:passed',
      'reachable:passed',
      'logout:failed',
      'signIn:passed',
      'validate:passed',
      'attributes:passed',
    ]);
    expect(stepsOf(result).logout.detail).toBe(
      `单点登出通知（logoutRequest）无法送达 ${logoutUrl}：连接被拒绝（ECONNREFUSED）：应用未启动，或没有监听该地址的端口`,
    );
    expect(standin.logoutTickets).toEqual([]);
  });

  it('reports an attribute the application is set to receive that the account has no value for', async () => {
    // The administrator's own account loses its email in 账号管理.
    const list = await consoleCall<{
      rows: { id: number; username: string; name: string; phone: string; groups: { id: number }[]; roles: { id: number }[] }[];
    }>('GET', '/account/page/list?keyword=admin');
    const me = list.rows.find((r) => r.username === 'admin');
    if (!me) throw new Error('admin not listed');
    const edit = (email: string) =>
      consoleCall('PUT', `/account/${me.id}`, {
        name: me.name,
        phone: me.phone,
        email,
        groupIds: me.groups.map((g) => g.id),
        roleIds: me.roles.map((r) => r.id),
      });
    await edit('');
    try {
      const { id } = await register({ attributes: ['name', 'email'] });
      const { result } = await run(id);
      expect(result.passed).toBe(false);
      expect(stepsOf(result).validate.status).toBe('passed');
      expect(stepsOf(result).attributes).toEqual({
        status: 'failed',
        detail: '未返回属性「邮箱 email」：账号 admin 没有该属性的值。请补充账号信息，或在应用列表中取消该返回属性',
      });
      expect(result.attributes.name).toEqual(['张伟']);
    } finally {
      await edit('zhangwei@hengyue-hi.cn');
    }
  });

  it('says before it runs that 应用授权 does not admit the administrator, then skips the sign-in with that reason', async () => {
    const { id, name } = await register({ allMembers: false });
    const reason = `账号 admin 未获准登录「${name}」，已跳过测试登录与票据校验：如需测试，请在“应用授权”中添加该账号（或其所在的账号组、角色，或开启企业全员）后重试`;
    const precheck = await call(admin, 'GET', `/web-api/console/v1/sso-app/${id}/self-test`);
    expect(precheck.statusCode, precheck.body).toBe(200);
    expect(precheck.json<Envelope<SelfTestPrecheck>>().data[0]).toEqual({ applicationId: id, username: 'admin', signInSkipped: reason });
    // The check itself contacts nothing.
    expect(standin.requests).toEqual([]);

    const { result } = await run(id);
    expect(statuses(result)).toEqual([
      'registered:passed',
      'reachable:passed',
      'logout:passed',
      'signIn:skipped',
      'validate:skipped',
      'attributes:skipped',
    ]);
    const steps = stepsOf(result);
    expect(steps.signIn).toEqual({ status: 'skipped', detail: reason });
    expect(steps.validate).toEqual({ status: 'skipped', detail: reason });
    expect(steps.attributes).toEqual({ status: 'skipped', detail: reason });
    expect(result.attributes).toEqual({});
    // No ticket was issued for it: the administrator's SSO session lists no visit.
    const own = await call(admin, 'GET', '/web/portal/account/sessions');
    expect(own.json<Envelope<SessionRow>>().data.find((s) => s.current)?.applications).not.toContain(name);

    // Granted through 企业全员, the pre-check has nothing to say (runs are limited per minute: the first test's run shows the sign-in).
    await consoleCall('PUT', `/sso-app/${id}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });
    const granted = await call(admin, 'GET', `/web-api/console/v1/sso-app/${id}/self-test`);
    expect(granted.json<Envelope<SelfTestPrecheck>>().data[0]).toEqual({ applicationId: id, username: 'admin', signInSkipped: '' });
  });

  it('reports where a redirect to another host points, without following it or quoting its query', async () => {
    standin.page = { kind: 'redirect', location: `http://localhost:${new URL(elsewhere.origin).port}/landing?code=secret-value` };
    const { id } = await register();
    const { result } = await run(id);
    expect(stepsOf(result).reachable).toEqual({
      status: 'passed',
      detail: `GET ${standin.serviceUrl} 返回 HTTP 302，跳转至 localhost:${new URL(elsewhere.origin).port}/landing（未跟随跳转）`,
    });
    expect(JSON.stringify(result)).not.toContain('secret-value');
    expect(elsewhere.requests).toEqual([]);
  });

  it('asks to sign in again when the portal session has no live SSO session behind it', async () => {
    const { id } = await register();
    const res = await selfTest(id, {}, await tokenFor(t, 'admin'));
    expect(res.statusCode).toBe(200);
    const steps = stepsOf(res.json<Envelope<SelfTestResult>>().data[0] as SelfTestResult);
    expect(steps.signIn).toEqual({ status: 'failed', detail: '您的统一身份认证会话已结束，无法签发测试票据：请退出并重新登录门户后再试' });
    expect(steps.validate.status).toBe('skipped');
  });

  it('checks a subscribed platform application through the enterprise’s copy in 应用列表', async () => {
    const operator = await tokenFor(t, 'operator');
    const asOperator = async <T>(method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: object) => {
      const res = await call(operator, method, url, payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Envelope<T>>().data[0] as T;
    };
    const platformApp = {
      name: '自检平台应用',
      applicationDescription: '平台提供的测试应用',
      imagePath: '/demo/app-3.svg',
      category: '测试',
      provider: '平台运营中心',
      recommended: false,
      status: 'published',
      serviceUrl: standin.serviceUrl,
      logoutUrl: standin.logoutUrl,
      attributes: ['name', 'enterpriseName'],
    };
    const { applicationUuid } = await asOperator<{ applicationUuid: string }>('POST', '/web-api/console/v1/application', platformApp);
    const applied = await call(admin, 'POST', `/web-api/portal/v1/applications/${applicationUuid}/subscription`, { purpose: '' });
    expect(applied.statusCode, applied.body).toBe(200);
    const queue = await asOperator<{ rows: { id: number; applicationName: string }[] }>(
      'GET',
      '/web-api/console/v1/app-subscription/page/list?status=pending&keyword=自检平台应用',
    );
    const subscription = queue.rows[0]!;
    await asOperator('PUT', `/web-api/console/v1/app-subscription/${subscription.id}/approve`);
    const list = await consoleCall<{ rows: { id: number; name: string; platform: boolean }[] }>(
      'GET',
      '/sso-app/page/list?keyword=自检平台应用',
    );
    const copy = list.rows.find((r) => r.platform)!;
    await consoleCall('PUT', `/sso-app/${copy.id}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });

    const { result } = await run(copy.id);
    expect(statuses(result)).toEqual([
      'registered:passed',
      'reachable:passed',
      'logout:passed',
      'signIn:passed',
      'validate:passed',
      'attributes:passed',
    ]);
    expect(standin.logoutTickets).toHaveLength(1);

    await asOperator('PUT', `/web-api/console/v1/app-subscription/${subscription.id}/revoke`, { note: '测试结束' });
    // Withdrawn, then deleted: its address is free for the next test.
    await asOperator('PUT', `/web-api/console/v1/application/${applicationUuid}`, { ...platformApp, status: 'offline' });
    await asOperator('DELETE', `/web-api/console/v1/application/${applicationUuid}`);
  });

  it('answers 404 for another enterprise’s application and 403 without app:list', async () => {
    const { id } = await register();
    const other = await selfTest(id, {}, await tokenFor(t, 'rcadmin'));
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ code: 1, msg: '应用不存在' });
    const otherPrecheck = await call(await tokenFor(t, 'rcadmin'), 'GET', `/web-api/console/v1/sso-app/${id}/self-test`);
    expect([otherPrecheck.statusCode, otherPrecheck.json()]).toEqual([404, { code: 1, msg: '应用不存在' }]);
    const staff = await selfTest(id, {}, await tokenFor(t, 'staff'));
    expect(staff.statusCode).toBe(403);
    expect(staff.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    expect(standin.requests).toEqual([]);
  });
});

describe.each(testDialects())('接入自检 with an external CAS on %s', (dialect) => {
  let t: TestApp;
  let standin: CasClientApp;
  const externalCas = 'https://cas.example.com/cas';

  beforeAll(async () => {
    t = await createTestApp(dialect, { CAS_EMBEDDED: '0', CAS_SERVER_URL: externalCas });
    standin = await startCasClientApp();
  });
  afterAll(async () => {
    await standin.close();
    await t.close();
  });

  it('checks the addresses, skips sign-in and validation saying why, and limits runs per enterprise', async () => {
    const admin = await tokenFor(t, 'admin');
    const headers = { 'x-requested-with': 'XMLHttpRequest', authorization: admin };
    const created = await t.app.inject({
      method: 'POST',
      url: '/web-api/console/v1/sso-app',
      headers,
      payload: { name: '外部认证应用', protocol: 'cas3', servicePrefixes: [standin.serviceUrl], attributes: ['name'], status: 'enabled' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json<Envelope<{ id: number }>>().data[0] as { id: number }).id;
    const run = () => t.app.inject({ method: 'POST', url: `/web-api/console/v1/sso-app/${id}/self-test`, headers, payload: {} });

    const first = await run();
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<Envelope<SelfTestResult>>().data[0] as SelfTestResult;
    const skipped = `门户使用外部统一身份认证服务 ${externalCas}（未启用内置 CAS），测试登录与票据校验须在该服务上进行，已跳过`;
    expect(result.passed).toBe(true);
    expect(result.steps.map((s) => [s.key, s.status, s.detail])).toEqual([
      ['registered', 'passed', `服务地址 ${standin.serviceUrl} 已登记在应用「外部认证应用」中，统一身份认证按此地址识别本应用`],
      ['reachable', 'passed', `GET ${standin.serviceUrl} 返回 HTTP 200`],
      ['logout', 'passed', `POST 单点登出通知（logoutRequest）至 ${standin.serviceUrl}，返回 HTTP 200（未填写注销地址，发往服务地址）`],
      ['signIn', 'skipped', skipped],
      ['validate', 'skipped', skipped],
      ['attributes', 'skipped', skipped],
    ]);

    // An application that never answers is reported after the check's timeout, well within the request timeout.
    standin.page = { kind: 'hang' };
    const started = Date.now();
    const hung = await run();
    expect(Date.now() - started).toBeLessThan(10_000);
    const hungSteps = (hung.json<Envelope<SelfTestResult>>().data[0] as SelfTestResult).steps;
    expect(hungSteps.find((s) => s.key === 'reachable')).toMatchObject({
      status: 'failed',
      detail: `无法访问 ${standin.serviceUrl}：5 秒内没有响应（超时）`,
    });
    expect(hungSteps.find((s) => s.key === 'logout')?.status).toBe('passed');
    standin.page = { kind: 'cas-client' };

    let limited;
    for (let i = 1; i <= SELF_TESTS_PER_MINUTE && !limited; i += 1) {
      const res = await run();
      if (res.statusCode === 429) limited = res;
      else expect(res.statusCode).toBe(200);
    }
    expect(limited?.json()).toEqual({ code: 1, msg: expect.stringMatching(/^接入自检过于频繁，请 \d+ 秒后再试$/) });
    // Another enterprise has its own allowance.
    const other = await t.app.inject({
      method: 'POST',
      url: `/web-api/console/v1/sso-app/${id}/self-test`,
      headers: { ...headers, authorization: await tokenFor(t, 'rcadmin') },
      payload: {},
    });
    expect(other.statusCode).toBe(404);
  });
});
