import { OidcAppMessage, type SsoAppCreated, type SsoApplicationRow, type SsoAppSecret, SsoMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { OidcClientApp } from '../../../testing/oidc-client-app.js';
import { freePort, TestBrowser } from '../../../testing/test-browser.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const CALLBACK = 'https://inspection.hengyue.example.cn/callback';

const oidcSettings = (overrides: Record<string, unknown> = {}) => ({
  clientId: '',
  clientType: 'confidential',
  redirectUris: [CALLBACK],
  postLogoutRedirectUris: ['https://inspection.hengyue.example.cn/'],
  backchannelLogoutUri: 'https://inspection.hengyue.example.cn/backchannel',
  initiateLoginUri: 'https://inspection.hengyue.example.cn/login',
  scopes: ['profile', 'email'],
  accessTokenSeconds: 600,
  idTokenSeconds: 600,
  refreshTokenSeconds: 14 * 86_400,
  ...overrides,
});

const body = (name: string, oidc: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) => ({
  name,
  icon: '',
  category: '设备运维',
  description: '',
  protocol: 'oidc',
  servicePrefixes: [],
  logoutUrl: '',
  attributes: [],
  status: 'enabled',
  oidc: oidcSettings(oidc),
  ...overrides,
});

/**
 * 应用列表 with OpenID Connect applications: the console API on one running server (its PUBLIC_URL is
 * where it listens), and each application it creates checked at the provider with plain OAuth requests.
 */
describe.each(testDialects())('应用列表: OpenID Connect applications on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let rcadmin: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp(dialect, { PUBLIC_URL: base, ALLOWED_HOSTS: 'localhost:80' });
    await t.app.listen({ port, host: '127.0.0.1' });
    [admin, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin')]);
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, token: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  const create = async (payload: object) => {
    const res = await call('POST', '/sso-app', admin, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as SsoAppCreated;
  };
  const detail = async (id: number) => {
    const res = await call('GET', `/sso-app/${id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as SsoApplicationRow;
  };
  const refused = async (res: Awaited<ReturnType<typeof call>>) => [res.statusCode, res.json().code, res.json().msg];
  const applications = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('sso_application')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const audit = (action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'detail', 'outcome'])
      .where('action', '=', action)
      .where('outcome', '=', 'success')
      .orderBy('id')
      .execute();

  /** A token request for a made-up code: a client that authenticates gets invalid_grant, any other invalid_client. */
  const tokenRequest = async (clientId: string, secret: string) => {
    const res = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: CALLBACK }),
    });
    return [res.status, ((await res.json()) as { error: string }).error];
  };
  const clientCredentials = async (clientId: string, secret: string) => {
    const res = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const answer = (await res.json()) as { error: string; error_description: string };
    return [res.status, answer.error, answer.error_description];
  };

  it('creates a confidential application whose secret is answered once and authenticates it at the provider', async () => {
    const created = await create(body('恒岳移动巡检（新）', { clientId: 'inspection-console' }));
    expect(created.clientId).toBe('inspection-console');
    // 256 random bits, base64url.
    expect(created.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const row = await detail(created.id);
    expect(row).toMatchObject({ protocol: 'oidc', servicePrefixes: [], attributes: [], logoutUrl: '' });
    expect(row.oidc).toEqual({
      clientId: 'inspection-console',
      clientType: 'confidential',
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: ['https://inspection.hengyue.example.cn/'],
      backchannelLogoutUri: 'https://inspection.hengyue.example.cn/backchannel',
      initiateLoginUri: 'https://inspection.hengyue.example.cn/login',
      // openid is always held.
      scopes: ['openid', 'profile', 'email'],
      accessTokenSeconds: 600,
      idTokenSeconds: 600,
      refreshTokenSeconds: 14 * 86_400,
    });
    expect(row.integration.oidc.discoveryUrl).toBe(`${base}/oidc/.well-known/openid-configuration`);
    // Neither the detail nor the list ever answers the secret again.
    const list = await call('GET', '/sso-app/page/list', admin);
    expect(list.body).not.toContain(created.clientSecret);
    expect(JSON.stringify(row)).not.toContain(created.clientSecret);

    // The integration settings name the provider's own addresses.
    const discovery = (await (await fetch(row.integration.oidc.discoveryUrl)).json()) as Record<string, string>;
    expect(discovery).toMatchObject({
      issuer: row.integration.oidc.issuer,
      authorization_endpoint: row.integration.oidc.authorizationEndpoint,
      token_endpoint: row.integration.oidc.tokenEndpoint,
      userinfo_endpoint: row.integration.oidc.userinfoEndpoint,
      jwks_uri: row.integration.oidc.jwksUri,
      revocation_endpoint: row.integration.oidc.revocationEndpoint,
      introspection_endpoint: row.integration.oidc.introspectionEndpoint,
      end_session_endpoint: row.integration.oidc.endSessionEndpoint,
    });
    // The secret authenticates the client (its made-up code is what fails); a wrong one does not.
    expect(await tokenRequest('inspection-console', created.clientSecret)).toEqual([400, 'invalid_grant']);
    expect(await tokenRequest('inspection-console', `${created.clientSecret}x`)).toEqual([401, 'invalid_client']);
    // A sign-in application gets no tokens of its own (client_credentials is for machine clients).
    expect(await clientCredentials('inspection-console', created.clientSecret)).toEqual([
      400,
      'invalid_request',
      'requested grant type is not allowed for this client',
    ]);

    expect(await audit('sso-app.create')).toContainEqual({
      username: 'admin',
      target: '恒岳移动巡检（新）',
      detail: `客户端 ID：inspection-console；回调地址：${CALLBACK}`,
      outcome: 'success',
    });
  });

  it('generates a client id when none is chosen; a public client has no secret and must use PKCE', async () => {
    const created = await create(body('恒岳巡检小程序', { clientType: 'public', scopes: ['profile', 'offline_access'] }));
    expect(created.clientId).toMatch(/^[0-9a-f]{20}$/);
    expect(created.clientSecret).toBe('');
    expect((await detail(created.id)).oidc?.scopes).toEqual(['openid', 'profile', 'offline_access']);
    const authorize = (extra: Record<string, string>) =>
      fetch(
        `${base}/oidc/auth?${new URLSearchParams({ client_id: created.clientId, response_type: 'code', scope: 'openid', redirect_uri: CALLBACK, ...extra })}`,
        { redirect: 'manual' },
      );
    // Without a code_challenge the provider answers the application with invalid_request (RFC 7636 §4.4.1).
    const withoutPkce = await authorize({});
    expect(withoutPkce.status).toBe(303);
    const location = new URL(withoutPkce.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    // With one it goes on to the central login's interaction.
    const withPkce = await authorize({ code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
    expect(withPkce.status).toBe(303);
    expect(withPkce.headers.get('location')).toMatch(/^\/oidc\/interaction\//);
    // An address it did not register is refused on the provider's page, never redirected to.
    const elsewhere = await authorize({ redirect_uri: 'https://evil.example/callback' });
    expect(elsewhere.status).toBe(400);

    const reset = await call('POST', `/sso-app/${created.id}/reset-secret`, admin);
    expect(await refused(reset)).toEqual([400, 1, OidcAppMessage.noSecret]);
  });

  it('refuses bad settings with a Chinese message, writing nothing', async () => {
    const before = await applications();
    const cases: [Record<string, unknown>, string, Record<string, unknown>?][] = [
      [{ clientId: 'a b' }, OidcAppMessage.clientIdInvalid],
      [{ clientId: '-x1' }, OidcAppMessage.clientIdInvalid],
      [{ redirectUris: [] }, OidcAppMessage.redirectRequired],
      [{ redirectUris: ['  '] }, OidcAppMessage.redirectRequired],
      [{ redirectUris: ['http://inspection.hengyue.example.cn/cb'] }, OidcAppMessage.https('回调地址')],
      [{ redirectUris: ['https://inspection.hengyue.example.cn/cb#x'] }, OidcAppMessage.fragment('回调地址')],
      [{ redirectUris: ['https://*.hengyue.example.cn/cb'] }, OidcAppMessage.wildcard('回调地址')],
      [{ redirectUris: ['javascript:alert(1)'] }, OidcAppMessage.invalid('回调地址')],
      [{ redirectUris: ['https://巡检.example.cn/cb'] }, OidcAppMessage.invalid('回调地址')],
      [{ redirectUris: [CALLBACK, ` ${CALLBACK}`] }, OidcAppMessage.duplicate('回调地址')],
      [{ redirectUris: Array.from({ length: 11 }, (_, i) => `https://a.example.cn/${i}`) }, OidcAppMessage.tooMany('回调地址')],
      [{ postLogoutRedirectUris: ['ftp://a.example.cn/'] }, OidcAppMessage.invalid('登出回调地址')],
      [{ backchannelLogoutUri: 'http://inspection.hengyue.example.cn/bc' }, OidcAppMessage.https('后端登出地址')],
      [{ initiateLoginUri: 'http://localhost:8083/login' }, OidcAppMessage.initiateLoginHttps],
      [{ scopes: ['openid', 'admin'] }, OidcAppMessage.scopeUnknown],
      [{ accessTokenSeconds: 299 }, OidcAppMessage.lifetime('accessTokenSeconds')],
      [{ idTokenSeconds: 3601 }, OidcAppMessage.lifetime('idTokenSeconds')],
      [{ refreshTokenSeconds: 3599 }, OidcAppMessage.lifetime('refreshTokenSeconds')],
      [{ refreshTokenSeconds: 30 * 86_400 + 1 }, OidcAppMessage.lifetime('refreshTokenSeconds')],
      [{}, OidcAppMessage.settingsRequired, { oidc: undefined }],
    ];
    for (const [oidc, message, overrides] of cases) {
      const res = await call('POST', '/sso-app', admin, body('恒岳巡检看板', oidc, overrides));
      expect(await refused(res), JSON.stringify(oidc)).toEqual([400, 1, message]);
    }
    // The portal never posts a logout token to an address it would not connect to (a private network not in OUTBOUND_ALLOW_NETWORKS).
    const internal = await call('POST', '/sso-app', admin, body('恒岳巡检看板', { backchannelLogoutUri: 'https://10.0.0.8/backchannel' }));
    expect([internal.statusCode, internal.json().code]).toEqual([400, 1]);
    expect(internal.json().msg).toMatch(/^后端登出地址 https:\/\/10\.0\.0\.8\/backchannel：/);
    const protocol = await call('POST', '/sso-app', admin, body('恒岳巡检看板', {}, { protocol: 'saml2' }));
    expect([protocol.statusCode, protocol.json().code]).toEqual([400, 1]);
    expect(await applications()).toBe(before);
  });

  it('keeps client ids one namespace with machine clients and the demo application, also for two creates at once', async () => {
    await t.app.machineClientService.create(await callerFor(t, 'admin'), {
      name: 'MES',
      clientId: 'hengyue-mes-console',
      scopes: ['identifiers:read'],
    });
    const before = await applications();
    for (const clientId of ['hengyue-mes-console', 'hengyue-inspection', 'inspection-console']) {
      const res = await call('POST', '/sso-app', admin, body(`恒岳巡检 ${clientId}`, { clientId }));
      expect(await refused(res)).toEqual([409, 1, OidcAppMessage.clientIdTaken]);
    }
    // Two administrators choosing one id at the same moment: one gets it, the other a clean 409.
    const both = await Promise.all([
      call('POST', '/sso-app', admin, body('恒岳巡检甲', { clientId: 'inspection-race' })),
      call('POST', '/sso-app', admin, body('恒岳巡检乙', { clientId: 'inspection-race' })),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)?.json()).toEqual({ code: 1, msg: OidcAppMessage.clientIdTaken });
    expect(await applications()).toBe(before + 1);
    // Across enterprises too: another enterprise's administrator cannot take the id, also at the same
    // moment (two enterprises' writes lock different rows: the namespace's key decides).
    const other = await call('POST', '/sso-app', rcadmin, body('瑞诚巡检', { clientId: 'inspection-race' }));
    expect(await refused(other)).toEqual([409, 1, OidcAppMessage.clientIdTaken]);
    const across = await Promise.all([
      call('POST', '/sso-app', admin, body('恒岳巡检丙', { clientId: 'inspection-across' })),
      call('POST', '/sso-app', rcadmin, body('瑞诚巡检丙', { clientId: 'inspection-across' })),
    ]);
    expect(across.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(across.find((r) => r.statusCode === 409)?.json()).toEqual({ code: 1, msg: OidcAppMessage.clientIdTaken });
    const holders = await t.database.db
      .selectFrom('sso_application')
      .select('name')
      .where('oidc_client_id', '=', 'inspection-across')
      .execute();
    expect(holders).toHaveLength(1);
  });

  it('updates settings but never protocol, client id or client type; 重置密钥 replaces the secret at once; all audited', async () => {
    const created = await create(body('恒岳点检助手', { clientId: 'checkup-console' }));
    const update = (payload: object) => call('PUT', `/sso-app/${created.id}`, admin, payload);
    const saved = await update(
      body('恒岳点检助手', {
        clientId: 'checkup-console',
        redirectUris: [CALLBACK, 'http://localhost:8083/callback?tenant=hy'],
        scopes: ['groups', 'roles'],
        accessTokenSeconds: 3600,
        refreshTokenSeconds: 3600,
        backchannelLogoutUri: '',
        initiateLoginUri: '',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await detail(created.id)).oidc).toMatchObject({
      clientId: 'checkup-console',
      redirectUris: [CALLBACK, 'http://localhost:8083/callback?tenant=hy'],
      scopes: ['openid', 'groups', 'roles'],
      accessTokenSeconds: 3600,
      refreshTokenSeconds: 3600,
      backchannelLogoutUri: '',
      initiateLoginUri: '',
    });
    // Saving leaves the secret as it was.
    expect(await tokenRequest('checkup-console', created.clientSecret)).toEqual([400, 'invalid_grant']);

    expect(await refused(await update(body('恒岳点检助手', { clientId: 'checkup-2' })))).toEqual([400, 1, OidcAppMessage.clientIdFixed]);
    expect(await refused(await update(body('恒岳点检助手', { clientType: 'public' })))).toEqual([400, 1, OidcAppMessage.clientTypeFixed]);
    const cas = { protocol: 'cas3', servicePrefixes: ['https://checkup.hengyue.example.cn/'], oidc: undefined };
    expect(await refused(await update(body('恒岳点检助手', {}, cas)))).toEqual([400, 1, SsoMessage.protocolFixed]);
    const demo = (await call('GET', '/sso-app/page/list?keyword=设备运维平台', admin)).json().data[0].rows[0] as SsoApplicationRow;
    expect(await refused(await call('PUT', `/sso-app/${demo.id}`, admin, body(demo.name)))).toEqual([400, 1, SsoMessage.protocolFixed]);

    const reset = await call('POST', `/sso-app/${created.id}/reset-secret`, admin);
    expect(reset.statusCode, reset.body).toBe(200);
    const { clientId, clientSecret } = reset.json().data[0] as SsoAppSecret;
    expect(clientId).toBe('checkup-console');
    expect(clientSecret).not.toBe(created.clientSecret);
    expect(await tokenRequest('checkup-console', created.clientSecret)).toEqual([401, 'invalid_client']);
    expect(await tokenRequest('checkup-console', clientSecret)).toEqual([400, 'invalid_grant']);
    // A CAS application has no secret.
    expect(await refused(await call('POST', `/sso-app/${demo.id}/reset-secret`, admin))).toEqual([400, 1, OidcAppMessage.notOidc]);

    // 停用 makes the client unknown to the provider at once.
    await update(body('恒岳点检助手', {}, { status: 'disabled' }));
    expect(await tokenRequest('checkup-console', clientSecret)).toEqual([401, 'invalid_client']);

    expect(await audit('sso-app.update')).toContainEqual({
      username: 'admin',
      target: '恒岳点检助手',
      detail: `客户端 ID：checkup-console；回调地址：${CALLBACK} http://localhost:8083/callback?tenant=hy`,
      outcome: 'success',
    });
    expect(await audit('sso-app.reset-secret')).toEqual([
      { username: 'admin', target: '恒岳点检助手', detail: '客户端 ID：checkup-console', outcome: 'success' },
    ]);
    // No secret in any audit row.
    const rows = await t.database.db.selectFrom('audit_log').select(['target', 'detail']).execute();
    for (const secret of [created.clientSecret, clientSecret]) expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it("answers another enterprise's application as not found, and lists its own only", async () => {
    const created = await create(body('恒岳安全巡查', { clientId: 'safety-console' }));
    for (const [method, url, payload] of [
      ['GET', `/sso-app/${created.id}`, undefined],
      ['PUT', `/sso-app/${created.id}`, body('恒岳安全巡查')],
      ['POST', `/sso-app/${created.id}/reset-secret`, undefined],
      ['DELETE', `/sso-app/${created.id}`, undefined],
      ['GET', `/sso-app/${created.id}/grants`, undefined],
    ] as const) {
      const res = await call(method, url, rcadmin, payload);
      expect(await refused(res), `${method} ${url}`).toEqual([404, 1, SsoMessage.notFound]);
    }
    const theirs = (await call('GET', '/sso-app/page/list?limit=100', rcadmin)).json().data[0].rows as SsoApplicationRow[];
    expect(theirs.map((r) => r.name)).not.toContain('恒岳安全巡查');
    expect(await tokenRequest('safety-console', created.clientSecret)).toEqual([400, 'invalid_grant']);
  });

  it('signs a granted account in to an application the console created, through an independent relying party; 应用授权 refuses the others', async () => {
    const created = await create(body('恒岳设备点巡检', { clientId: 'patrol-console', scopes: ['profile', 'groups'] }));
    // The relying party (openid-client, a second HTTP server) holds the secret the console showed; its
    // callback is registered with 编辑.
    const rp = await OidcClientApp.start({ issuer: `${base}/oidc`, clientId: 'patrol-console', clientSecret: created.clientSecret });
    try {
      const saved = await call(
        'PUT',
        `/sso-app/${created.id}`,
        admin,
        body('恒岳设备点巡检', { redirectUris: [rp.redirectUri], backchannelLogoutUri: rp.backchannelUri, scopes: ['profile', 'groups'] }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const signIn = async (username: string) => {
        const browser = new TestBrowser(base);
        const hops = await browser.navigate(rp.loginUrl({ scope: 'openid profile groups' }), {}, 12);
        const form = hops.at(-1);
        expect(form?.text).toContain('账号登录');
        const after = await browser.submitForm(form!, { username, password: DEMO_PASSWORD }, '/cas/login');
        return after.at(-1);
      };
      // Nobody is granted yet: the central login refuses, no code reaches the application.
      expect((await signIn('wangfang'))?.text).toContain('您无权访问该应用');
      expect(rp.signIns).toHaveLength(0);

      const wangfang = await t.database.db.selectFrom('account').select('id').where('username', '=', 'wangfang').executeTakeFirstOrThrow();
      const granted = await call('PUT', `/sso-app/${created.id}/grants`, admin, {
        allMembers: false,
        groupIds: [],
        roleIds: [],
        accountIds: [wangfang.id],
      });
      expect(granted.statusCode, granted.body).toBe(200);
      expect((await signIn('wangfang'))?.text).toContain(`signed in as ${wangfang.id}`);
      const [done] = rp.signIns;
      expect(done?.claims).toMatchObject({ iss: `${base}/oidc`, aud: 'patrol-console', sub: String(wangfang.id) });
      // The token lives as long as the application's setting (10 minutes), and userinfo answers its scopes' claims.
      expect(done?.tokens.expires_in).toBe(600);
      const info = await fetch(`${base}/oidc/me`, { headers: { authorization: `Bearer ${done?.tokens.access_token}` } });
      expect(await info.json()).toMatchObject({ sub: String(wangfang.id), name: '王芳', groups: ['质量部'] });
    } finally {
      await rp.close();
    }
  });

  it('grants an OIDC application like a CAS one (应用授权), and deleting it keeps its client id taken', async () => {
    const created = await create(body('恒岳能耗看板', { clientId: 'energy-console' }));
    const saved = await call('PUT', `/sso-app/${created.id}/grants`, admin, {
      allMembers: true,
      groupIds: [],
      roleIds: [],
      accountIds: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data[0]).toEqual({ allMembers: true, groups: [], roles: [], accounts: [] });
    expect((await call('DELETE', `/sso-app/${created.id}`, admin)).statusCode).toBe(200);
    expect(await tokenRequest('energy-console', created.clientSecret)).toEqual([401, 'invalid_client']);
    // A token or log line naming the id never means another client later.
    const again = await call('POST', '/sso-app', admin, body('恒岳能耗看板', { clientId: 'energy-console' }));
    expect(await refused(again)).toEqual([409, 1, OidcAppMessage.clientIdTaken]);
  });
});

describe('应用列表: OpenID Connect with an external CAS', () => {
  it('refuses an OIDC application when the embedded CAS, and with it the provider, is off', async () => {
    const t = await createTestApp('sqlite', { CAS_EMBEDDED: '0', CAS_SERVER_URL: 'https://sso.example.cn/cas' });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/web-api/console/v1/sso-app',
        headers: { 'x-requested-with': 'XMLHttpRequest', authorization: await tokenFor(t, 'admin') },
        payload: body('恒岳巡检'),
      });
      expect([res.statusCode, res.json()]).toEqual([400, { code: 1, msg: OidcAppMessage.providerOff }]);
    } finally {
      await t.close();
    }
  });
});
