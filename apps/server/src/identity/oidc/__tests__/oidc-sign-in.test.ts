import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import type { DatabaseHandle } from '../../../platform/db/database.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { type CasClientApp, startCasClientApp } from '../../../testing/cas-client-app.js';
import { OidcClientApp, type RelyingPartySignIn } from '../../../testing/oidc-client-app.js';
import { createTestDatabase, type TestDatabase, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, freePort, listen, TestBrowser } from '../../../testing/test-browser.js';
import { enrolmentKey, totp } from '../../../testing/totp.js';
import { hashClientSecret } from '../client-secret.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const ALL_SCOPES = 'openid offline_access profile email phone enterprise groups roles';

/** What the provider answered when it refused, as openid-client reports it. */
async function refusal(promise: Promise<unknown>): Promise<{ error: string | undefined; status: number }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof client.ResponseBodyError) return { error: err.error, status: err.status };
    if (err instanceof client.WWWAuthenticateChallengeError) return { error: err.cause[0]?.parameters.error, status: err.status };
    throw err;
  }
  throw new Error('the request was not refused');
}

const isLoginForm = (hop: BrowserResponse) => hop.status === 200 && hop.text.includes('账号登录');

/**
 * Signing in to an OpenID Connect application through the central login: an independent relying party
 * (openid-client, a real second HTTP server) and a browser that starts at it, on two instances sharing
 * one database.
 */
describe.each(testDialects())('OpenID Connect sign-in through the central login on %s', (dialect) => {
  let db: TestDatabase;
  let otherConnection: DatabaseHandle;
  let a: PortalApp;
  let b: PortalApp;
  let base: string;
  let baseB: string;
  let rp: OidcClientApp;
  /** The same client id with no one granted (应用授权). */
  let restricted: OidcClientApp;
  let inspectionId: number;
  let restrictedId: number;
  /** A CAS application of the same enterprise (应用列表, single logout to its service address). */
  let casApp: CasClientApp;
  let adminToken: string;

  const accountId = async (username: string) =>
    (await db.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  /** Starts at the relying party and follows the redirects until a page (the login form, a refusal, the RP's own). */
  const startAt = (browser: TestBrowser, app: OidcClientApp, request: Record<string, string> = {}) =>
    browser.navigate(app.loginUrl(request), {}, 12);

  /** The whole sign-in of a fresh browser: the relying party, the central login's form, back at the relying party. */
  async function signIn(app: OidcClientApp, username: string, request: Record<string, string> = {}, browser = new TestBrowser(base)) {
    const hops = await startAt(browser, app, request);
    const form = hops.at(-1);
    if (!form || !isLoginForm(form)) throw new Error(`no login form: ${form?.status} ${form?.url}`);
    const after = await browser.submitForm(form, { username, password: DEMO_PASSWORD }, '/cas/login');
    return { browser, hops, form, after, landed: after.at(-1) };
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await createTestDatabase(dialect, {
      PUBLIC_URL: base,
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32',
      LOGIN_MAX_FAILURES: '3',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    });
    otherConnection = await db.connectAgain();
    [a, b] = await Promise.all([
      buildApp({ config: db.config, database: db.database, logger: false }),
      buildApp({ config: db.config, database: otherConnection, logger: false }),
    ]);
    await a.listen({ port, host: '127.0.0.1' });
    baseB = await listen(b);
    const issuer = `${base}/oidc`;
    const secret = 'inspection-secret-for-tests-only';
    rp = await OidcClientApp.start({ issuer, clientId: 'inspection-sign-in-test', clientSecret: secret });
    restricted = await OidcClientApp.start({ issuer, clientId: 'restricted-sign-in-test', clientSecret: secret });
    const hengyue = await db.database.db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const insert = async (app: OidcClientApp, name: string, allMembers: number) =>
      (
        await db.database.db
          .insertInto('sso_application')
          .values({
            enterprise_id: hengyue.id,
            name,
            protocol: 'oidc',
            all_members: allMembers,
            oidc_client_id: (await app.config()).clientMetadata().client_id,
            oidc_client_type: 'confidential',
            oidc_secret_hash: hashClientSecret(secret),
            oidc_redirect_uris: JSON.stringify([app.redirectUri]),
            oidc_backchannel_logout_uri: app.backchannelUri,
            oidc_scopes: ALL_SCOPES,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    inspectionId = await insert(rp, '恒岳移动巡检（测试）', 1);
    restrictedId = await insert(restricted, '恒岳质量看板（测试）', 0);
    casApp = await startCasClientApp({ casServerUrlPrefix: `${base}/cas` });
    const cas = await db.database.db
      .insertInto('sso_application')
      .values({
        enterprise_id: hengyue.id,
        name: '恒岳设备台账（测试）',
        protocol: 'cas3',
        all_members: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.database.db
      .insertInto('sso_application_service')
      .values({ application_id: cas.id, enterprise_id: hengyue.id, prefix: casApp.serviceUrl, host: '127.0.0.1' })
      .execute();
    adminToken = await tokenFor({ ...db, app: a, close: () => a.close() }, 'admin');
  });
  afterAll(async () => {
    await rp.close();
    await restricted.close();
    await casApp.close();
    await a.close();
    await b.close();
    await otherConnection.destroy();
    await db.drop();
  });
  beforeEach(() => {
    rp.reset();
    restricted.reset();
    casApp.reset();
  });

  /** A browser signed in to the CAS application (the form) and then to the OIDC one (no form), with a refresh token. */
  async function signedInToBoth(username: string): Promise<{ browser: TestBrowser; signedIn: RelyingPartySignIn }> {
    const browser = new TestBrowser(base);
    const form = (await browser.navigate(casApp.serviceUrl)).at(-1) as BrowserResponse;
    const cas = await browser.submitForm(form, { username, password: DEMO_PASSWORD }, '/cas/login');
    expect(cas.at(-1)?.text).toContain(`signed in as ${username}`);
    const hops = await startAt(browser, rp, { scope: 'openid offline_access', prompt: 'consent' });
    expect(hops.some(isLoginForm)).toBe(false);
    const signedIn = rp.signIns.at(-1);
    if (!signedIn?.tokens.refresh_token) throw new Error('no refresh token');
    return { browser, signedIn };
  }

  /**
   * Both applications heard of the end of the sign-on session, and the OIDC sign-in's refresh token is
   * dead. `alone`: the only session that ended (otherwise the account's others ended too).
   */
  async function expectSignedOut(signedIn: RelyingPartySignIn, alone = true) {
    if (alone) expect([casApp.logoutTickets.length, rp.logoutTokens.length]).toEqual([1, 1]);
    const tokens = rp.logoutTokens.map(
      (t) => JSON.parse(Buffer.from(t.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>,
    );
    const token = tokens.find((t) => t.sid === signedIn.claims.sid);
    expect(token).toMatchObject({
      iss: `${base}/oidc`,
      aud: 'inspection-sign-in-test',
      sub: signedIn.claims.sub,
      sid: signedIn.claims.sid,
    });
    expect(token?.events).toHaveProperty(['http://schemas.openid.net/event/backchannel-logout']);
    expect(await refusal(client.refreshTokenGrant(await rp.config(), signedIn.tokens.refresh_token ?? ''))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  }

  const console = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, authorization = adminToken) =>
    a.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { host: new URL(base).host, 'x-requested-with': 'XMLHttpRequest', authorization },
      ...(payload ? { payload } : {}),
    });

  it('signs a fresh browser in at the central login and back at the application: code with PKCE, a verified ID token, claims per scope', async () => {
    const { hops, form, after, landed } = await signIn(rp, 'admin');
    // RP → /oidc/auth → /oidc/interaction/:uid → the central login's form, on the portal's origin.
    expect(hops.map((h) => new URL(h.url).pathname)).toEqual([
      '/login',
      '/oidc/auth',
      expect.stringMatching(/^\/oidc\/interaction\/[\w-]+$/),
      '/cas/login',
    ]);
    expect(new URL(form.url).searchParams.get('service')).toMatch(new RegExp(`^${base}/oidc/interaction/[\\w-]+/callback$`));
    // The redirects after the form's post end at the relying party: its origin is a form-action of the page.
    expect(form.headers.get('content-security-policy')).toMatch(new RegExp(`form-action 'self'[^;]* ${rp.origin}(;| )`));
    expect(after.map((h) => h.status)).toEqual([303, 303, 303, 200]);
    expect(landed?.url).toMatch(new RegExp(`^${rp.redirectUri}\\?code=`));
    expect(landed?.text).toContain(`signed in as ${await accountId('admin')}`);

    const [signedIn] = rp.signIns;
    const { claims } = signedIn ?? {};
    expect(claims).toMatchObject({ iss: `${base}/oidc`, aud: 'inspection-sign-in-test', sub: String(await accountId('admin')) });
    expect(claims?.sid).toEqual(expect.any(String));
    // auth_time: the SSO session's login, which has just happened.
    expect(Math.abs(Number(claims?.auth_time) - Date.now() / 1000)).toBeLessThan(30);
    const userinfo = await client.fetchUserInfo(await rp.config(), signedIn?.tokens.access_token ?? '', String(claims?.sub));
    expect(userinfo).toEqual({ sub: String(await accountId('admin')) });

    // One 登录日志 row names the application.
    const logged = await db.database.db
      .selectFrom('login_log')
      .select(['result', 'application_name'])
      .where('application_id', '=', inspectionId)
      .where('account_id', '=', await accountId('admin'))
      .execute();
    expect(logged).toEqual([{ result: 'success', application_name: '恒岳移动巡检（测试）' }]);
  });

  it('counts the sign-in, the code and tokens issued and the token request in the instance’s metrics', async () => {
    // The text a scrape of this instance answers (its /metrics serves the same).
    const sample = (text: string, series: string) =>
      Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    const series = [
      'portal_sign_ins_total{protocol="oidc",result="success"}',
      'portal_tickets_issued_total{kind="oidc_authorization_code"}',
      'portal_tickets_issued_total{kind="oidc_access_token"}',
      'portal_tickets_validated_total{kind="oidc_grant",result="success"}',
    ];
    const before = (await a.metrics.scrape()).body;
    const { landed } = await signIn(rp, 'admin');
    expect(landed?.url).toMatch(new RegExp(`^${rp.redirectUri}\\?code=`));
    const after = (await a.metrics.scrape()).body;
    expect(series.map((s) => sample(after, s) - sample(before, s))).toEqual([1, 1, 1, 1]);
  });

  it('releases the claims of every scope asked for: profile, email, phone (E.164), enterprise, groups, roles', async () => {
    const { landed } = await signIn(rp, 'admin', { scope: 'openid profile email phone enterprise groups roles' });
    expect(landed?.status).toBe(200);
    const signedIn = rp.signIns.at(-1);
    const sub = String(signedIn?.claims.sub);
    const userinfo = await client.fetchUserInfo(await rp.config(), signedIn?.tokens.access_token ?? '', sub);
    const { groups, roles } = await a.ssoAppRepository.groupsAndRoles(Number(sub));
    expect(userinfo).toEqual({
      sub,
      name: '张伟',
      preferred_username: 'admin',
      email: 'zhangwei@hengyue-hi.cn',
      phone_number: '+8613800000001',
      enterprise_id: expect.stringMatching(/^\d+$/),
      enterprise_name: HENGYUE,
      employee_number: 'HY0001',
      groups,
      roles,
    });
    expect(roles.length).toBeGreaterThan(0);
  });

  it('signs in once for CAS and OpenID Connect applications alike, in both directions', async () => {
    // A CAS service first (the portal's own address is platform-wide), then the OIDC application: no form.
    const service = `${base}/demo-app/`;
    const browser = new TestBrowser(base);
    const [casHop] = await browser.casLogin('staff', DEMO_PASSWORD, service);
    expect(casHop?.location).toMatch(/ticket=ST-/);
    const hops = await startAt(browser, rp);
    expect(hops.some(isLoginForm)).toBe(false);
    expect(hops.at(-1)?.text).toContain(`signed in as ${await accountId('staff')}`);

    // The OIDC application first, then the CAS service: a ticket without the form.
    const { browser: other } = await signIn(rp, 'staff');
    const sso = await other.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    expect(sso.status).toBe(303);
    expect(sso.location).toMatch(/ticket=ST-/);
  });

  it('takes the SSO session as the authority: after a logout at the central login the application gets the form again', async () => {
    const { browser } = await signIn(rp, 'staff');
    expect((await startAt(browser, rp)).some(isLoginForm)).toBe(false);
    const logout = await browser.fetch('/cas/logout');
    expect(logout.text).toContain('您已安全退出');
    // The provider's own session cookie is still there; it issues no code on its own.
    expect(browser.cookies.has('oidc_session')).toBe(true);
    const again = await startAt(browser, rp);
    expect(again.some(isLoginForm)).toBe(true);
    expect(rp.requests.filter((r) => r.url.startsWith('/callback'))).toHaveLength(2);
  });

  it('ends every sign-in of an SSO session at a logout: the CAS application gets a logoutRequest, the OIDC one a logout_token with its sid', async () => {
    const { browser, signedIn } = await signedInToBoth('staff');
    expect((await browser.fetch('/cas/logout')).status).toBe(200);
    await expectSignedOut(signedIn);
  });

  it('shows both applications in 在线会话 and ends both at 强制下线', async () => {
    const { signedIn } = await signedInToBoth('wangfang');
    const listed = await console('GET', '/session/page/list?keyword=wangfang');
    expect(listed.statusCode, listed.body).toBe(200);
    const [page] = (JSON.parse(listed.body) as { data: { rows: { id: string; applications: string[] }[] }[] }).data;
    const rows = page?.rows ?? [];
    const row = rows.find((r) => r.applications.includes('恒岳移动巡检（测试）'));
    expect(row?.applications).toEqual(expect.arrayContaining(['恒岳移动巡检（测试）', '恒岳设备台账（测试）']));
    expect((await console('DELETE', `/session/${row?.id ?? ''}`)).statusCode).toBe(200);
    await expectSignedOut(signedIn);
  });

  it('ends both sign-ins when the account is disabled (停用)', async () => {
    const { signedIn } = await signedInToBoth('liuyang');
    const id = await accountId('liuyang');
    try {
      expect((await console('PUT', `/account/${id}/status`, { status: 'disabled' })).statusCode).toBe(200);
      await expectSignedOut(signedIn);
    } finally {
      await console('PUT', `/account/${id}/status`, { status: 'active' });
    }
  });

  it("signs out of the central login at the application's request (RP-initiated logout): the CAS application hears of it too", async () => {
    const { browser, signedIn } = await signedInToBoth('staff');
    const confirm = await browser.fetch(
      `/oidc/session/end?${new URLSearchParams({ client_id: 'inspection-sign-in-test', id_token_hint: signedIn.tokens.id_token ?? '' })}`,
      { headers: { accept: 'text/html' } },
    );
    expect(confirm.text).toContain('确认退出登录');
    const done = await browser.submitForm(confirm, { logout: 'yes' });
    expect(done.at(-1)?.text).toContain('您已退出统一身份认证');
    await expectSignedOut(signedIn);
    // The SSO session has ended: the CAS application's next visit meets the login form.
    expect((await browser.navigate(casApp.serviceUrl)).some(isLoginForm)).toBe(true);
    // 登录日志's 登出 row names the application that asked.
    const logout = await db.database.db
      .selectFrom('login_log')
      .select(['reason', 'application_id'])
      .where('account_id', '=', await accountId('staff'))
      .where('result', '=', 'logout')
      .execute();
    expect(logout).toContainEqual({ reason: 'signed-out', application_id: inspectionId });
  });

  it('refuses an account 应用授权 does not admit with the same page as for CAS: no code, a 登录日志 row naming the application', async () => {
    const { landed } = await signIn(restricted, 'admin');
    expect(landed?.status).toBe(403);
    expect(landed?.url).toMatch(new RegExp(`^${base}/cas/login`));
    expect(landed?.text).toContain('您无权访问该应用');
    expect(landed?.text).toContain('恒岳质量看板（测试）');
    expect(restricted.requests.some((r) => r.url.startsWith('/callback'))).toBe(false);
    const logged = await db.database.db
      .selectFrom('login_log')
      .select(['result', 'reason'])
      .where('application_id', '=', restrictedId)
      .execute();
    expect(logged).toContainEqual({ result: 'failure', reason: 'not-authorized' });
  });

  it('each sign-in through the central login has a sid of its own, so a late logout for an ended session cannot reach the next', async () => {
    const first = await signIn(rp, 'zhoujie');
    const sid = rp.signIns.at(-1)?.claims['sid'];
    expect(sid).toBeTruthy();
    await first.browser.fetch('/cas/logout');
    // The same browser signs in again: the provider's session lives on, the SSO session is a new one.
    const hops = await startAt(first.browser, rp);
    const form = hops.at(-1);
    if (!form || !isLoginForm(form)) throw new Error('no login form after the logout');
    await first.browser.submitForm(form, { username: 'zhoujie', password: DEMO_PASSWORD }, '/cas/login');
    const again = rp.signIns.at(-1)?.claims['sid'];
    expect(again).toBeTruthy();
    expect(again).not.toBe(sid);
  });

  it('a refresh token without offline_access ends with its SSO session’s idle timeout; one with offline_access outlives it', async () => {
    const first = await signIn(rp, 'liuyang', { scope: 'openid offline_access', prompt: 'consent' });
    const offline = rp.signIns.at(-1)?.tokens;
    // The same browser, signed on already: no form, a sign-in of its own without offline_access.
    const hops = await startAt(first.browser, rp, { scope: 'openid profile' });
    expect(hops.some(isLoginForm)).toBe(false);
    const online = rp.signIns.at(-1)?.tokens;
    if (!online?.refresh_token || !offline?.refresh_token || online === offline) throw new Error('no refresh tokens');
    const config = await rp.config();
    const rotated = await client.refreshTokenGrant(config, online.refresh_token);
    expect(rotated.refresh_token).toBeTruthy();

    // The SSO session has been idle for longer than the policy allows (the platform default is 2 h).
    const idle = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await db.database.db
      .updateTable('cas_tgt')
      .set({ last_used_at: idle })
      .where('account_id', '=', await accountId('liuyang'))
      .execute();
    expect(await refusal(client.refreshTokenGrant(config, rotated.refresh_token ?? ''))).toEqual({ error: 'invalid_grant', status: 400 });
    expect((await client.refreshTokenGrant(config, offline.refresh_token)).access_token).toBeTruthy();
  });

  it('fails a code exchange, a refresh, userinfo and introspection once the right is revoked', async () => {
    const restore = () => db.database.db.updateTable('sso_application').set({ all_members: 1 }).where('id', '=', inspectionId).execute();
    const revoke = () => db.database.db.updateTable('sso_application').set({ all_members: 0 }).where('id', '=', inspectionId).execute();
    try {
      // Revoked between the login and the code exchange.
      rp.exchange = false;
      const kept = await signIn(rp, 'wangfang', { scope: 'openid offline_access', prompt: 'consent' });
      expect(kept.landed?.text).toContain('code kept');
      const code = rp.codes[0];
      if (!code) throw new Error('no code');
      await revoke();
      expect(await refusal(rp.exchangeCode(code))).toEqual({ error: 'invalid_grant', status: 400 });
      await restore();

      // Revoked after the tokens were issued.
      rp.exchange = true;
      await signIn(rp, 'wangfang', { scope: 'openid offline_access', prompt: 'consent' });
      const tokens = rp.signIns.at(-1)?.tokens;
      if (!tokens?.refresh_token) throw new Error('no refresh token');
      const config = await rp.config();
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
      await revoke();
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
      expect(await refusal(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck))).toMatchObject({ status: 401 });
      expect(await refusal(client.refreshTokenGrant(config, tokens.refresh_token))).toEqual({ error: 'invalid_grant', status: 400 });
      const logged = await db.database.db
        .selectFrom('login_log')
        .select('reason')
        .where('application_id', '=', inspectionId)
        .where('account_id', '=', await accountId('wangfang'))
        .where('result', '=', 'failure')
        .execute();
      expect(logged.length).toBeGreaterThanOrEqual(2);
      expect(new Set(logged.map((l) => l.reason))).toEqual(new Set(['not-authorized']));
    } finally {
      await restore();
    }
  });

  it('keeps the lockout: wrong passwords lock the account at the central login and the application gets nothing', async () => {
    const browser = new TestBrowser(base);
    let page = (await startAt(browser, rp)).at(-1);
    for (let i = 0; i < 3 && page; i++) page = (await browser.submitForm(page, { username: 'zhoujie', password: 'wrong-password' })).at(-1);
    expect(page?.text).toContain('账号已锁定');
    const right = await browser.submitForm(page as BrowserResponse, { username: 'zhoujie', password: DEMO_PASSWORD });
    expect(right.at(-1)?.status).toBe(423);
    expect(rp.requests.some((r) => r.url.startsWith('/callback'))).toBe(false);
  });

  it('asks for the password again on prompt=login and on a max_age older than the login, not on a larger max_age', async () => {
    const { browser } = await signIn(rp, 'liuyang');
    const first = rp.signIns.at(-1)?.claims;
    // The SSO session's login was a minute ago (the provider session learnt that time at the sign-in).
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await db.database.db
      .updateTable('cas_tgt')
      .set({ created_at: minuteAgo })
      .where('account_id', '=', await accountId('liuyang'))
      .execute();
    expect((await startAt(browser, rp, { max_age: '3600' })).some(isLoginForm)).toBe(false);

    const relogin = await startAt(browser, rp, { prompt: 'login' });
    const form = relogin.at(-1);
    expect(form && isLoginForm(form)).toBe(true);
    expect(new URL(form?.url ?? base).searchParams.get('renew')).toBe('true');
    const after = await browser.submitForm(form as BrowserResponse, { username: 'liuyang', password: DEMO_PASSWORD }, '/cas/login');
    expect(after.at(-1)?.status).toBe(200);
    expect(Number(rp.signIns.at(-1)?.claims.auth_time)).toBeGreaterThanOrEqual(Number(first?.auth_time));

    // No provider session in this browser yet: the SSO session's login time decides (a minute ago > 30 s).
    const casOnly = new TestBrowser(base);
    await casOnly.casLogin('liuyang', DEMO_PASSWORD, `${base}/demo-app/`);
    await db.database.db
      .updateTable('cas_tgt')
      .set({ created_at: minuteAgo })
      .where('account_id', '=', await accountId('liuyang'))
      .execute();
    const aged = await startAt(casOnly, rp, { max_age: '30' });
    expect(aged.some(isLoginForm)).toBe(true);
    expect(new URL(aged.at(-1)?.url ?? base).searchParams.get('renew')).toBe('true');
  });

  it('answers a sign-in it cannot finish with a Chinese page, never a server error', async () => {
    const browser = new TestBrowser(base);
    const hops = await startAt(browser, rp);
    const form = hops.at(-1) as BrowserResponse;
    const callback = new URL(form.url).searchParams.get('service') ?? '';
    // The callback without this browser's interaction cookie, and an unknown interaction.
    for (const url of [
      callback,
      `${callback}?ticket=ST-unknown`,
      `${base}/oidc/interaction/unknown-uid`,
      `${base}/oidc/interaction/unknown-uid/callback`,
    ]) {
      const res = await new TestBrowser(base).fetch(url);
      expect([res.status, res.text.includes('登录请求已过期')], url).toEqual([400, true]);
    }
    // A ticket used once cannot be used again.
    const after = await browser.submitForm(form, { username: 'admin', password: DEMO_PASSWORD }, '/cas/login');
    const withTicket = after.find((h) => h.url.startsWith(callback));
    expect(withTicket?.status).toBe(303);
    const again = await browser.fetch(withTicket?.url ?? '');
    expect(again.status).toBe(400);
    expect(again.text).toContain('登录请求已过期');
    // The login form of an expired sign-in says so rather than 未授权的服务.
    const stale = await browser.fetch(`/cas/login?service=${encodeURIComponent(callback)}`);
    expect([stale.status, stale.text.includes('登录请求已过期')]).toEqual([400, true]);
  });

  it('finishes on one instance a sign-in started on the other', async () => {
    const browser = new TestBrowser(base);
    const hops = await startAt(browser, rp);
    const form = hops.at(-1) as BrowserResponse;
    // The load balancer sends the form's post to instance B; the public address (the callback's) stays A's.
    const toB = new TestBrowser(baseB);
    for (const [name, cookie] of browser.cookies) toB.cookies.set(name, cookie);
    const onB = { ...form, url: form.url.replace(base, baseB), text: form.text.replaceAll(`"${base}/cas/`, `"${baseB}/cas/`) };
    const after = await toB.submitForm(onB, { username: 'admin', password: DEMO_PASSWORD }, '/cas/login');
    expect(after[0]?.url.startsWith(`${baseB}/cas/login`)).toBe(true);
    expect(after.at(-1)?.text).toContain(`signed in as ${await accountId('admin')}`);
  });

  it('switches accounts: a browser signed in to the application as one account comes back as the other after a new login', async () => {
    const { browser } = await signIn(rp, 'admin');
    // 切换账号 at the central login: the first account signs out, another signs in, in the same browser.
    await browser.fetch('/cas/logout');
    const [cas] = await browser.casLogin('staff', DEMO_PASSWORD, `${base}/demo-app/`);
    expect(cas?.status).toBe(303);
    const hops = await startAt(browser, rp);
    expect(hops.some(isLoginForm)).toBe(false);
    // The provider ends its session of the first account by posting its own logout form, then resumes.
    const endOld = hops.at(-1) as BrowserResponse;
    expect(endOld.text).toContain('/oidc/session/end/confirm');
    const after = await browser.submitForm(endOld, {}, '/session/end/confirm');
    expect(after.at(-1)?.text).toContain(`signed in as ${await accountId('staff')}`);
    expect(rp.signIns.map((x) => x.claims.sub)).toEqual([String(await accountId('admin')), String(await accountId('staff'))]);
  });

  it("takes the central login's password steps on the way: a first login changes the initial password, then lands in the application", async () => {
    await db.database.db.updateTable('account').set({ must_change_password: 1 }).where('username', '=', 'wangfang').execute();
    const browser = new TestBrowser(base);
    const form = (await startAt(browser, rp)).at(-1) as BrowserResponse;
    const [change] = await browser.submitForm(form, { username: 'wangfang', password: DEMO_PASSWORD }, '/cas/login');
    expect(change?.text).toContain('修改初始密码');
    // Its form, too, may lead on to the application's origin.
    expect(change?.headers.get('content-security-policy')).toMatch(new RegExp(`form-action 'self'[^;]* ${rp.origin}(;| )`));
    const after = await browser.submitForm(
      change as BrowserResponse,
      { password: 'Wangfang#2026', confirm: 'Wangfang#2026' },
      '/cas/login/password',
    );
    expect(after.at(-1)?.text).toContain(`signed in as ${await accountId('wangfang')}`);
  });

  it('answers prompt=none from the SSO session: a code while it lives, access_denied when 应用授权 refuses, login_required otherwise', async () => {
    const { browser } = await signIn(rp, 'admin');
    const admin = String(await accountId('admin'));
    const silent = await startAt(browser, rp, { prompt: 'none' });
    expect(silent.map((h) => new URL(h.url).pathname)).toEqual(['/login', '/oidc/auth', '/callback']);
    expect(silent.at(-1)?.text).toContain(`signed in as ${admin}`);

    const refusals = () =>
      db.database.db
        .selectFrom('login_log')
        .select('id')
        .where('application_id', '=', restrictedId)
        .where('reason', '=', 'not-authorized')
        .execute();
    const before = (await refusals()).length;
    const refused = await startAt(browser, restricted, { prompt: 'none' });
    expect(refused.at(-1)?.text).toContain('refused: access_denied');
    expect(await refusals()).toHaveLength(before + 1);

    expect((await startAt(new TestBrowser(base), rp, { prompt: 'none' })).at(-1)?.text).toContain('refused: login_required');

    // The silent sign-in belongs to the SSO session: its end tells the application, and prompt=none no longer signs in.
    expect((await browser.fetch('/cas/logout')).status).toBe(200);
    expect(rp.logoutTokens).toHaveLength(1);
    expect((await startAt(browser, rp, { prompt: 'none' })).at(-1)?.text).toContain('refused: login_required');
  });

  it('ends both sign-ins when an administrator resets the password (重置密码)', async () => {
    const { signedIn } = await signedInToBoth('liuyang');
    const reset = await console('POST', `/account/${await accountId('liuyang')}/password`, { passwordMode: 'sms' });
    expect(reset.statusCode, reset.body).toBe(200);
    await expectSignedOut(signedIn, false);
  });

  it("ends the enterprise's sign-ins when an operator disables it (tenant 停用)", async () => {
    const { signedIn } = await signedInToBoth('staff');
    const hengyue = await db.database.db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const operator = await tokenFor({ ...db, app: a, close: () => a.close() }, 'operator');
    const setStatus = async (status: 'active' | 'disabled') =>
      expect((await console('PUT', `/tenant/${hengyue.id}/status`, { status }, operator)).statusCode).toBe(200);
    await setStatus('disabled');
    try {
      // Every live sign-in of the enterprise hears of it; this browser's among them.
      const sids = rp.logoutTokens.map(
        (t) => (JSON.parse(Buffer.from(t.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid?: string }).sid,
      );
      expect(sids).toContain(signedIn.claims.sid);
      expect(casApp.logoutTickets.length).toBeGreaterThanOrEqual(1);
      expect(await refusal(client.refreshTokenGrant(await rp.config(), signedIn.tokens.refresh_token ?? ''))).toMatchObject({
        error: expect.stringMatching(/^invalid_(grant|client)$/),
      });
    } finally {
      await setStatus('active');
    }
    // Enabled again, the client is known, and the refresh token stays ended.
    expect(await refusal(client.refreshTokenGrant(await rp.config(), signedIn.tokens.refresh_token ?? ''))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('takes the two-factor steps on the way: enrolment at the first login, a code at the next, each ending in the application', async () => {
    // A session of its own: an earlier test's tenant 停用 ended the administrator's.
    const admin = await tokenFor({ ...db, app: a, close: () => a.close() }, 'admin');
    const setTwoFactor = async (twoFactor: 'off' | 'all') => {
      const res = await console('PUT', '/security/policy', { ...a.config.securityDefaults, twoFactor }, admin);
      expect(res.statusCode, res.body).toBe(200);
    };
    await setTwoFactor('all');
    try {
      const browser = new TestBrowser(base);
      const form = (await startAt(browser, rp)).at(-1) as BrowserResponse;
      const [enrol] = await browser.submitForm(form, { username: 'admin', password: DEMO_PASSWORD }, '/cas/login');
      expect(enrol?.text).toContain('<h1>绑定二次验证</h1>');
      expect(enrol?.headers.get('content-security-policy')).toMatch(new RegExp(`form-action 'self'[^;]* ${rp.origin}(;| )`));
      const key = enrolmentKey(enrol?.text ?? '');
      const [codes] = await browser.submitForm(enrol as BrowserResponse, { code: totp(key, Date.now()) }, '/two-factor/enrol');
      expect(codes?.text).toContain('<h1>保存恢复码</h1>');
      const landed = await browser.submitForm(codes as BrowserResponse, {}, '/two-factor/continue');
      expect(landed.at(-1)?.text).toContain(`signed in as ${await accountId('admin')}`);

      const later = new TestBrowser(base);
      const again = (await startAt(later, rp)).at(-1) as BrowserResponse;
      const [ask] = await later.submitForm(again, { username: 'admin', password: DEMO_PASSWORD }, '/cas/login');
      expect(ask?.text).toContain('<h1>二次验证</h1>');
      // The next step's code: within the allowed drift and not used yet.
      const after = await later.submitForm(ask as BrowserResponse, { code: totp(key, Date.now() + 30_000) }, '/two-factor');
      expect(after.at(-1)?.text).toContain(`signed in as ${await accountId('admin')}`);
    } finally {
      await setTwoFactor('off');
    }
  });
});
