import {
  OidcSelfTestMessage,
  type OidcSelfTestStepKey,
  type SelfTestPrecheck,
  type SelfTestResult,
  SelfTestMessage,
  type SessionRow,
  type SsoAppCreated,
} from '@portal/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { OidcClientApp } from '../../../testing/oidc-client-app.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { freePort, TestBrowser } from '../../../testing/test-browser.js';

/**
 * 接入自检 of OpenID Connect applications: the portal checks the provider's discovery document and
 * JWKS, the application's redirect URI and back-channel logout address (a real second HTTP server,
 * the openid-client relying party stand-in), and signs in as the administrator with a real
 * authorization code and PKCE through the provider's endpoints at its issuer ({PUBLIC_URL}/oidc).
 */

type Envelope<T> = { code: number; msg: string; data: T[] };
type Steps = Record<OidcSelfTestStepKey, { status: string; detail: string }>;

const stepsOf = (result: SelfTestResult): Steps =>
  Object.fromEntries(result.steps.map((s) => [s.key, { status: s.status, detail: s.detail }])) as Steps;
const statuses = (result: SelfTestResult) => result.steps.map((s) => `${s.key}:${s.status}`);
const ALL_PASSED = [
  'discovery:passed',
  'redirectRegistered:passed',
  'redirectReachable:passed',
  'backchannel:passed',
  'authorize:passed',
  'token:passed',
  'idToken:passed',
  'userinfo:passed',
];

describe.each(testDialects())('接入自检 of OpenID Connect applications on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let issuer: string;
  /** The application: its /callback answers (400 without a sign-in of its own), its /backchannel refuses invalid tokens. */
  let rp: OidcClientApp;
  let admin: string;
  let adminBrowser: TestBrowser;

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  const consoleCall = async <T = { id: number }>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await call(admin, method, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<T>>().data[0] as T;
  };
  let appCount = 0;
  const registered: number[] = [];
  /** An OpenID Connect application in 应用列表 (企业全员 may sign in unless said otherwise). */
  const register = async (
    settings: { clientType?: 'public' | 'confidential'; redirectUri?: string; backchannelLogoutUri?: string; allMembers?: boolean } = {},
  ) => {
    appCount += 1;
    const name = `自检移动应用${appCount}`;
    const created = await consoleCall<SsoAppCreated>('POST', '/sso-app', {
      name,
      icon: '',
      category: '测试',
      description: '',
      protocol: 'oidc',
      servicePrefixes: [],
      logoutUrl: '',
      attributes: [],
      status: 'enabled',
      oidc: {
        clientId: '',
        clientType: settings.clientType ?? 'public',
        redirectUris: [settings.redirectUri ?? rp.redirectUri],
        postLogoutRedirectUris: [],
        backchannelLogoutUri: settings.backchannelLogoutUri ?? rp.backchannelUri,
        initiateLoginUri: '',
        scopes: ['openid', 'profile', 'email', 'groups'],
        accessTokenSeconds: 600,
        idTokenSeconds: 600,
        refreshTokenSeconds: 86_400,
      },
    });
    registered.push(created.id);
    await consoleCall('PUT', `/sso-app/${created.id}/grants`, {
      allMembers: settings.allMembers ?? true,
      groupIds: [],
      roleIds: [],
      accountIds: [],
    });
    return { ...created, name };
  };
  const selfTest = (id: number, body: object = {}, token = admin) => call(token, 'POST', `/sso-app/${id}/self-test`, body);
  const run = async (id: number, body: object = {}) => {
    const res = await selfTest(id, body);
    expect(res.statusCode, res.body).toBe(200);
    const envelope = res.json<Envelope<SelfTestResult>>();
    return { msg: envelope.msg, result: envelope.data[0] as SelfTestResult, body: res.body };
  };
  /** What the provider holds for sign-ins: grants, codes, tokens and its sessions. */
  const issuedCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('oidc_model')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', 'in', ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken', 'Session'])
          .executeTakeFirstOrThrow()
      ).n,
    );
  const currentSessionApps = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/web/portal/account/sessions', headers: { authorization: admin } });
    return res.json<Envelope<SessionRow>>().data.find((s) => s.current)?.applications ?? [];
  };
  const auditRows = () =>
    consoleCall<{ rows: { target: string; detail: string; outcome: string }[] }>('GET', '/audit/page/list?action=sso-app.self-test');

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    issuer = `${base}/oidc`;
    t = await createTestApp(dialect, { PUBLIC_URL: base, ALLOWED_HOSTS: 'localhost:80', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    await t.app.listen({ port, host: '127.0.0.1' });
    rp = await OidcClientApp.start({ issuer, clientId: 'self-test-standin' });
    // The administrator signs in as in a browser: the portal session stands on a live SSO session.
    adminBrowser = new TestBrowser(base);
    await adminBrowser.portalLogin('admin', DEMO_PASSWORD, '/');
    const menu = await adminBrowser.json<Envelope<{ token: { access_token: string } }>>('/web/portal/menu/list');
    admin = `Bearer ${menu.body.data[0]?.token.access_token}`;
  });
  afterAll(async () => {
    await rp.close();
    await t.close();
  });
  beforeEach(() => rp.reset());
  afterEach(async () => {
    for (const id of registered.splice(0)) await consoleCall('DELETE', `/sso-app/${id}`);
  });

  it('passes every step for a public client with PKCE alone, signing in as the administrator, and keeps nothing it was issued', async () => {
    const { id, name } = await register({ clientType: 'public' });
    const before = await issuedCount();
    const { msg, result } = await run(id);
    expect(msg).toBe('接入自检通过');
    expect(result).toMatchObject({ applicationId: id, protocol: 'oidc', service: rp.redirectUri, username: 'admin', passed: true });
    expect(statuses(result)).toEqual(ALL_PASSED);
    expect(result.steps.map((s) => s.title)).toEqual([
      '发现文档与 JWKS',
      '回调地址已登记',
      '回调地址可访问',
      '后端登出地址可响应',
      '测试账号登录（授权码 + PKCE S256）',
      '令牌交换（/token）',
      'ID Token 校验',
      '用户信息（/me）',
    ]);
    const steps = stepsOf(result);
    expect(steps.discovery.detail).toMatch(
      new RegExp(
        `^GET ${issuer}/\\.well-known/openid-configuration 返回发现文档（issuer ${issuer}，端点均在其下）；GET ${issuer}/jwks 返回 \\d+ 个签名公钥（.*RS256.*）$`,
      ),
    );
    expect(steps.redirectRegistered.detail).toBe(OidcSelfTestMessage.redirectRegistered(rp.redirectUri, name));
    // The application's callback answers 400 without a sign-in of its own: any HTTP answer shows it is there.
    expect(steps.redirectReachable.detail).toBe(`GET ${rp.redirectUri} 返回 HTTP 400（回调地址可访问；未携带授权码）`);
    expect(steps.backchannel.detail).toBe(
      `POST 无效的 logout_token 至 ${rp.backchannelUri}，返回 HTTP 400（应用拒绝了无效的登出令牌，地址可响应）`,
    );
    expect(steps.authorize.detail).toBe(OidcSelfTestMessage.authorized('admin', rp.redirectUri));
    expect(steps.token.detail).toBe(`POST ${issuer}/token 以授权码与 PKCE 校验码换得访问令牌、ID Token 与刷新令牌（公开客户端，仅 PKCE）`);
    expect(steps.idToken.detail).toMatch(
      /^ID Token 签名（RS256，kid .+）已用 JWKS 验证；iss、aud（客户端 ID）、nonce 与有效期均正确（sub \d+，有效至 \d{4}-/,
    );
    expect(steps.userinfo.detail).toMatch(new RegExp(`^GET ${issuer}/me 返回账号 admin（sub \\d+），声明：sub、.*name`));
    // The claims userinfo released for the client's scopes (profile, email, groups).
    expect(result.attributes).toMatchObject({
      preferred_username: ['admin'],
      name: ['张伟'],
      email: ['zhangwei@hengyue-hi.cn'],
      groups: ['信息中心'],
    });
    // The application saw only the two checks of its addresses: never the code, never a token.
    expect(rp.requests).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/callback' },
        { method: 'POST', url: '/backchannel' },
      ]),
    );
    expect(rp.requests).toHaveLength(2);
    expect(rp.logoutTokens).toEqual([]);
    // Nothing the run was issued outlives it: no grant, code, token or provider session, and the
    // administrator's SSO session lists no sign-in to the application.
    expect(await issuedCount()).toBe(before);
    expect(await currentSessionApps()).not.toContain(name);
    const audit = await auditRows();
    expect(audit.rows[0]).toMatchObject({ target: name, outcome: 'success', detail: `${rp.redirectUri}：全部通过` });
  });

  it('exchanges a confidential client’s code with the secret typed for the run, and a wrong secret fails that step without storing anything', async () => {
    const { id, name, clientSecret } = await register({ clientType: 'confidential' });
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const before = await issuedCount();

    const wrongSecret = 'this-is-not-the-secret-of-the-client-0123456';
    const wrong = await run(id, { clientSecret: wrongSecret });
    expect(wrong.msg).toBe('接入自检未通过，请按各检查项的说明修改后重试');
    expect(statuses(wrong.result)).toEqual([
      'discovery:passed',
      'redirectRegistered:passed',
      'redirectReachable:passed',
      'backchannel:passed',
      'authorize:passed',
      'token:failed',
      'idToken:skipped',
      'userinfo:skipped',
    ]);
    expect(stepsOf(wrong.result).token.detail).toBe(
      `POST ${issuer}/token 返回 invalid_client：客户端认证失败，输入的客户端密钥不正确（遗失可在应用列表中重置密钥，应用须同时改用新密钥）`,
    );
    expect(stepsOf(wrong.result).idToken.detail).toBe('未取得令牌，已跳过');
    // The secret is never answered nor audited, and the code issued for the run ended with it.
    expect(wrong.body).not.toContain(wrongSecret);
    expect(JSON.stringify(await auditRows())).not.toContain(wrongSecret);
    expect(await issuedCount()).toBe(before);

    // Without a secret the exchange cannot be tried.
    const none = await run(id);
    expect(stepsOf(none.result).token).toEqual({ status: 'failed', detail: OidcSelfTestMessage.secretMissing });
    expect(stepsOf(none.result).authorize).toEqual({ status: 'skipped', detail: '未输入客户端密钥，未发起测试登录' });

    // The client's own secret is unchanged by the failed run: with it, every step passes.
    const right = await run(id, { clientSecret });
    expect(statuses(right.result)).toEqual(ALL_PASSED);
    expect(stepsOf(right.result).token.detail).toBe(
      `POST ${issuer}/token 以授权码与 PKCE 校验码换得访问令牌、ID Token 与刷新令牌（机密客户端，client_secret_basic）`,
    );
    expect(right.body).not.toContain(clientSecret);
    expect(JSON.stringify(await auditRows())).not.toContain(clientSecret);
    expect(await issuedCount()).toBe(before);
    expect(await currentSessionApps()).not.toContain(name);
  });

  it('says before it runs that 应用授权 does not admit the administrator, then skips the sign-in steps with that reason', async () => {
    const { id, name } = await register({ allMembers: false });
    const reason = OidcSelfTestMessage.notGranted('admin', name);
    expect(reason).toBe(
      `账号 admin 未获准登录「${name}」，已跳过测试登录、令牌交换、ID Token 校验与用户信息：如需测试，请在“应用授权”中添加该账号（或其所在的账号组、角色，或开启企业全员）后重试`,
    );
    const precheck = await call(admin, 'GET', `/sso-app/${id}/self-test`);
    expect(precheck.json<Envelope<SelfTestPrecheck>>().data[0]).toEqual({ applicationId: id, username: 'admin', signInSkipped: reason });
    expect(rp.requests).toEqual([]);

    const { result } = await run(id);
    expect(result.passed).toBe(true);
    expect(statuses(result)).toEqual([
      'discovery:passed',
      'redirectRegistered:passed',
      'redirectReachable:passed',
      'backchannel:passed',
      'authorize:skipped',
      'token:skipped',
      'idToken:skipped',
      'userinfo:skipped',
    ]);
    for (const key of ['authorize', 'token', 'idToken', 'userinfo'] as const) expect(stepsOf(result)[key].detail).toBe(reason);
    expect(result.attributes).toEqual({});
  });

  it('reports a redirect URI and a back-channel logout address that refuse connections, while the sign-in still passes', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const backchannelLogoutUri = `http://127.0.0.1:${port}/backchannel`;
    const { id } = await register({ redirectUri, backchannelLogoutUri });
    const { result } = await run(id);
    expect(result.passed).toBe(false);
    expect(statuses(result)).toEqual([
      'discovery:passed',
      'redirectRegistered:passed',
      'redirectReachable:failed',
      'backchannel:failed',
      'authorize:passed',
      'token:passed',
      'idToken:passed',
      'userinfo:passed',
    ]);
    const steps = stepsOf(result);
    expect(steps.redirectReachable.detail).toBe(`无法访问回调地址 ${redirectUri}：${SelfTestMessage.refused}`);
    expect(steps.backchannel.detail).toBe(`后端登出通知无法送达 ${backchannelLogoutUri}：${SelfTestMessage.refused}`);
    expect(steps.authorize.detail).toBe(OidcSelfTestMessage.authorized('admin', redirectUri));
  });

  it('refuses to contact a redirect URI that is not registered exactly', async () => {
    const { id, name } = await register();
    const other = `${rp.redirectUri}/`;
    const { result } = await run(id, { redirectUri: other });
    expect(result).toMatchObject({ service: other, passed: false });
    const steps = stepsOf(result);
    expect(steps.redirectRegistered).toEqual({ status: 'failed', detail: OidcSelfTestMessage.redirectNotOwn(other, name) });
    for (const key of ['redirectReachable', 'authorize', 'token', 'idToken', 'userinfo'] as const) {
      expect(steps[key]).toEqual({ status: 'skipped', detail: '回调地址未通过登记检查，已跳过（不会访问未登记的地址）' });
    }
    expect(rp.requests.filter((r) => r.url.startsWith('/callback'))).toEqual([]);
  });

  it('answers 404 for another enterprise’s application', async () => {
    const { id } = await register();
    const rcadmin = await tokenFor(t, 'rcadmin');
    const other = await selfTest(id, {}, rcadmin);
    expect([other.statusCode, other.json()]).toEqual([404, { code: 1, msg: '应用不存在' }]);
    const precheck = await call(rcadmin, 'GET', `/sso-app/${id}/self-test`);
    expect([precheck.statusCode, precheck.json()]).toEqual([404, { code: 1, msg: '应用不存在' }]);
    expect(rp.requests).toEqual([]);
  });
});
