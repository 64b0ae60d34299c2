import { type AuthSourceDetail, type AuthSourceTestResult, type SamlIdpMetadata } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { type ResponseFault, type SamlIdp, startSamlIdp } from '../../../testing/saml-idp-app.js';
import { createTestDatabase, type TestDatabase, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, freePort, TestBrowser } from '../../../testing/test-browser.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const PERSON = {
  nameId: 'a7f3c9e1-5b2d-4e8a-9c0f-1d2e3f4a5b6c',
  sessionIndex: '_idp-session-1',
  attributes: { uid: 'zhaolei', displayName: '赵磊', mobile: '13912345678', mail: 'zhaolei@hengyue-hi.cn' },
};

type Envelope<T> = { code: number; msg: string; data: T };

/**
 * SAML 2.0 认证源 against an independent identity provider (samlify, a real second HTTP server) while the
 * portal's service provider is @node-saml/node-saml: metadata by address, the SP metadata to register,
 * first sign-in with JIT and the subject matched after, refusal without JIT, every forged or stale response
 * refused with a page and a 登录日志 row, single logout both ways, and 测试连接's popup sign-in.
 */
describe.each(testDialects())('SAML 2.0 认证源 on %s', (dialect) => {
  let db: TestDatabase;
  let app: PortalApp;
  let base: string;
  let idp: SamlIdp;
  let admin: string;
  let rcadmin: string;
  let sourceId: number;
  /** The IdP's metadata as the console read it (reads are rate-limited per enterprise, like 测试连接). */
  let meta: SamlIdpMetadata;
  let groupId: number;

  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: token, host: new URL(base).host, 'x-requested-with': 'XMLHttpRequest' },
      ...(payload ? { payload } : {}),
    });
    // The envelope answers a list; these calls answer one item.
    const body = JSON.parse(res.body) as { code: number; msg: string; data: T[] };
    return { status: res.statusCode, body: { ...body, data: body.data?.[0] as T } };
  };
  const sourceBody = (meta: SamlIdpMetadata, config: Record<string, unknown> = {}) => ({
    type: 'saml',
    name: '恒岳 SAML',
    enabled: true,
    config: {
      metadataUrl: idp.metadataUrl,
      ...meta,
      nameIdFormat: 'persistent',
      mapping: { username: 'uid', name: 'displayName', phone: 'mobile', email: 'mail' },
      wantAssertionsSigned: true,
      domains: [],
      jit: true,
      groupIds: [groupId],
      enforce: false,
      ...config,
    },
  });
  const setSource = async (config: Record<string, unknown>) => {
    const saved = await call('PUT', `/web-api/console/v1/auth/sources/${sourceId}`, admin, sourceBody(meta, config));
    expect(saved.status, saved.body.msg).toBe(200);
  };
  const loginLog = (username: string) =>
    db.database.db
      .selectFrom('login_log')
      .select(['result', 'reason', 'username'])
      .where('username', 'like', `${username}%`)
      .orderBy('id', 'desc')
      .execute();

  /** A browser that starts the portal's login and goes to the IdP; answers the IdP's auto-posting form page. */
  async function toIdp(browser: TestBrowser): Promise<BrowserResponse> {
    const start = await browser.fetch('/web/portal/cas/login?target=%2F');
    const service = new URL(start.location ?? '', base).searchParams.get('service') ?? '';
    const hops = await browser.navigate(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    expect(hops[0]?.location?.startsWith(`${idp.base}/sso?SAMLRequest=`)).toBe(true);
    const form = hops.at(-1) as BrowserResponse;
    expect(form.text).toContain(`/cas/login/federation/${sourceId}/callback`);
    return form;
  }
  const signedInUser = async (browser: TestBrowser) =>
    (await browser.json<Envelope<{ user?: { username: string } }[]>>('/web/portal/menu/list')).body.data[0]?.user?.username;

  async function signIn(fault: ResponseFault = 'none') {
    const browser = new TestBrowser(base);
    idp.state.fault = fault;
    const form = await toIdp(browser);
    const hops = await browser.submitForm(form, {});
    return { browser, form, hops, landed: hops.at(-1) as BrowserResponse };
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await createTestDatabase(dialect, {
      PUBLIC_URL: base,
      OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    });
    app = await buildApp({ config: db.config, database: db.database, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    idp = await startSamlIdp();
    idp.state.user = PERSON;
    const t = { ...db, app, close: async () => undefined };
    [admin, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin')]);
    const hengyue = await db.database.db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    ({ id: groupId } = await db.database.db
      .insertInto('account_group')
      .values({ enterprise_id: hengyue.id, name: 'SAML 新员工', description: '', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow());
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
    await db?.drop();
  });

  it('reads the IdP metadata by address, saves the source and shows what to register at the IdP; the SP metadata names it', async () => {
    const read = await call<SamlIdpMetadata>('POST', '/web-api/console/v1/auth/sources/saml-metadata', admin, { url: idp.metadataUrl });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      idpEntityId: `${idp.base}/metadata`,
      ssoUrl: `${idp.base}/sso`,
      ssoBinding: 'redirect',
      sloUrl: `${idp.base}/slo`,
    });
    expect(read.body.data.certificates).toHaveLength(1);
    meta = read.body.data;
    // Pasted metadata reads the same.
    const pasted = await call<SamlIdpMetadata>('POST', '/web-api/console/v1/auth/sources/saml-metadata', admin, { xml: idp.metadata() });
    expect(pasted.body.data).toEqual(read.body.data);

    const created = await call<{ id: number }>('POST', '/web-api/console/v1/auth/sources', admin, sourceBody(read.body.data));
    expect(created.status).toBe(200);
    sourceId = created.body.data.id;
    const detail = await call<AuthSourceDetail>('GET', `/web-api/console/v1/auth/sources/${sourceId}`, admin);
    const sp = `${base}/cas/login/saml/${sourceId}`;
    const acs = `${base}/cas/login/federation/${sourceId}/callback`;
    expect(detail.body.data.serviceProvider).toEqual({
      entityId: `${sp}/metadata`,
      metadataUrl: `${sp}/metadata`,
      acsUrl: acs,
      sloUrl: `${sp}/slo`,
    });
    expect(detail.body.data.callbackUrl).toBe(acs);
    expect(detail.body.data).not.toHaveProperty('secret');

    const metadata = await fetch(`${sp}/metadata?download=1`);
    expect(metadata.headers.get('content-disposition')).toContain('attachment');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${sp}/metadata"`);
    expect(xml).toContain(`Location="${acs}"`);
    expect(xml).toContain(`Location="${sp}/slo"`);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    // Signed with the portal's own SAML key: the identity provider's certificate.
    const portalIdp = await (await fetch(`${base}/saml/metadata`)).text();
    const cert = /<(?:\w+:)?X509Certificate>([^<]+)</.exec(portalIdp)?.[1]?.replace(/\s+/g, '') ?? 'none';
    expect(xml.replace(/\s+/g, '')).toContain(cert);

    // Another enterprise's administrator cannot see it.
    expect((await call('GET', `/web-api/console/v1/auth/sources/${sourceId}`, rcadmin)).status).toBe(404);
  });

  it('refuses bad settings with a Chinese message and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ssoUrl: '' }, '请输入 IdP 单点登录地址（SSO URL）'],
      [{ ssoUrl: 'ftp://idp.example.com/sso' }, '地址须为 http:// 或 https:// 开头的完整网址'],
      [{ certificates: [] }, '请提供 IdP 的签名证书'],
      [{ certificates: [`MII${'A'.repeat(400)}`] }, '签名证书不是有效的 X.509 证书（PEM 或 Base64）'],
      [{ groupIds: [999_999] }, '默认账号组不存在'],
      [{ mapping: { username: '', name: '', phone: '', email: '' } }, '属性映射必须指定用户名对应的属性（或 NameID）'],
      [{ domains: ['not a domain'] }, '邮箱域名格式不正确：not a domain（如 example.com）'],
    ];
    for (const [config, msg] of cases) {
      const res = await call('POST', '/web-api/console/v1/auth/sources', admin, { ...sourceBody(meta, config), name: '坏的 SAML' });
      expect(res.status, msg).toBe(400);
      expect(res.body).toMatchObject({ code: 1, msg });
    }
    const unreachable = await call('POST', '/web-api/console/v1/auth/sources/saml-metadata', admin, { url: 'http://10.20.30.40/metadata' });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.msg).toContain('无法获取 IdP 元数据：不允许连接到该地址');
    const garbage = await call('POST', '/web-api/console/v1/auth/sources/saml-metadata', admin, {
      xml: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    });
    expect(garbage.body).toMatchObject({ code: 1, msg: 'IdP 元数据无效：含有 DOCTYPE（不接受外部实体）' });
    expect(await db.database.db.selectFrom('auth_source').select('id').where('name', '=', '坏的 SAML').execute()).toEqual([]);
  });

  it('测试连接 checks the metadata step by step, and the popup sign-in shows the attributes without signing anyone in', async () => {
    const test = await call<AuthSourceTestResult>('POST', '/web-api/console/v1/auth/sources/test', admin, {
      ...sourceBody(meta),
      id: sourceId,
    });
    expect(test.body.data.ok).toBe(true);
    expect(test.body.data.steps.map((s) => s.name)).toEqual([
      '获取元数据',
      '解析元数据',
      '核对设置',
      '签名证书',
      '单点登录地址',
      '单点登出',
    ]);

    const popup = await call<{ url: string }>('POST', `/web-api/console/v1/auth/sources/${sourceId}/sign-in-test`, admin);
    const browser = new TestBrowser(base);
    const hops = await browser.navigate(popup.body.data.url);
    const result = (await browser.submitForm(hops.at(-1) as BrowserResponse, {})).at(-1) as BrowserResponse;
    expect(result.text).toContain('测试登录成功');
    expect(result.text).toContain(PERSON.nameId);
    expect(result.text).toContain('zhaolei@hengyue-hi.cn');
    expect(result.text).toContain('赵磊');
    expect(browser.cookies.has('TGC')).toBe(false);
    expect(await db.database.db.selectFrom('account').select('id').where('username', '=', 'zhaolei').execute()).toEqual([]);
    // The ticket is the console's, for this source: a forged one is refused.
    const forged = await browser.fetch(`/cas/login/federation/${sourceId}?test=forged.ticket`);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('测试链接已失效');
  });

  it('refuses the first sign-in without JIT, with a page and a 登录日志 row, and creates nothing', async () => {
    await setSource({ jit: false });
    const { landed } = await signIn();
    expect(landed.status).toBe(403);
    expect(landed.text).toContain('企业未开启首次登录自动创建账号');
    expect(await db.database.db.selectFrom('account').select('id').where('username', '=', 'zhaolei').execute()).toEqual([]);
    expect((await loginLog('恒岳 SAML:'))[0]).toMatchObject({ result: 'failure', reason: 'federation-unlinked' });
  });

  it('creates the account at the first sign-in (JIT, default group) and finds it by its subject afterwards', async () => {
    await setSource({ jit: true });
    const first = await signIn();
    expect(await signedInUser(first.browser)).toBe('zhaolei');
    const account = await db.database.db
      .selectFrom('account')
      .select(['id', 'name', 'phone', 'email', 'must_change_password'])
      .where('username', '=', 'zhaolei')
      .executeTakeFirstOrThrow();
    // The source claims no email domain yet: the IdP's address is not one the enterprise vouched for, so the account keeps none.
    expect(account).toMatchObject({ name: '赵磊', phone: '13912345678', email: '', must_change_password: 0 });
    const member = await db.database.db
      .selectFrom('account_group_member')
      .select('group_id')
      .where('account_id', '=', account.id)
      .execute();
    expect(member.map((m) => m.group_id)).toEqual([groupId]);
    expect((await loginLog('zhaolei'))[0]).toMatchObject({ result: 'success' });

    // The IdP renames the person: the subject still finds the same account, nothing new is created.
    idp.state.user = { ...PERSON, attributes: { ...PERSON.attributes, uid: 'zhaolei2', mobile: '13912345679' } };
    const again = await signIn();
    expect(await signedInUser(again.browser)).toBe('zhaolei');
    expect(await db.database.db.selectFrom('account').select('id').where('username', '=', 'zhaolei2').execute()).toEqual([]);
    idp.state.user = PERSON;
  });

  it('an IdP that takes requests on HTTP-POST only gets a signed AuthnRequest posted from the portal’s own page', async () => {
    await setSource({ jit: true, ssoBinding: 'post' });
    const browser = new TestBrowser(base);
    const start = await browser.fetch('/web/portal/cas/login?target=%2F');
    const service = new URL(start.location ?? '', base).searchParams.get('service') ?? '';
    const hops = await browser.navigate(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}`);
    const posting = hops.at(-1) as BrowserResponse;
    expect(posting.url.startsWith(`${base}/cas/login/saml/${sourceId}/request?r=`)).toBe(true);
    expect(posting.text).toContain(`action="${idp.base}/sso"`);
    expect(posting.headers.get('content-security-policy')).toContain(`form-action ${idp.base}`);
    const requests = idp.state.requests.length;
    const answer = (await browser.submitForm(posting, {}, '/sso')).at(-1) as BrowserResponse;
    expect(idp.state.requests.length).toBe(requests + 1);
    await browser.submitForm(answer, {});
    expect(await signedInUser(browser)).toBe('zhaolei');
    // A tampered page address posts nothing.
    const tampered = await browser.fetch(`/cas/login/saml/${sourceId}/request?r=forged.value`);
    expect(tampered.status).toBe(400);
    await setSource({ jit: true });
  });

  it.each([
    ['unsigned', '签名无效'],
    ['wrong-key', '签名无效'],
    ['wrapped', '签名无效'],
    ['wrong-audience', '受众（Audience）'],
    ['expired', '有效期'],
  ] as const)('refuses a %s response with a page and a 登录日志 row, signing no one in', async (fault, text) => {
    const before = (await loginLog('SAML 2.0:')).length;
    const { browser, landed } = await signIn(fault);
    expect(landed.status).toBe(502);
    expect(landed.text).toContain('企业身份登录失败');
    expect(landed.text).toContain(text);
    expect(browser.cookies.has('TGC')).toBe(false);
    const rows = await loginLog('SAML 2.0:');
    expect(rows.length).toBe(before + 1);
    expect(rows[0]).toMatchObject({ result: 'failure', reason: 'federation-failed' });
  });

  it('CAS renew (an application asking for a fresh sign-in) sends ForceAuthn to the IdP; an ordinary sign-in does not', async () => {
    await signIn();
    expect(idp.state.requests.at(-1)?.forceAuthn).toBe(false);
    const browser = new TestBrowser(base);
    const start = await browser.fetch('/web/portal/cas/login?target=%2F');
    const service = new URL(start.location ?? '', base).searchParams.get('service') ?? '';
    const hops = await browser.navigate(`/cas/login/federation/${sourceId}?service=${encodeURIComponent(service)}&renew=true`);
    expect(idp.state.requests.at(-1)?.forceAuthn).toBe(true);
    await browser.submitForm(hops.at(-1) as BrowserResponse, {});
    expect(await signedInUser(browser)).toBe('zhaolei');
  });

  it('refuses a replayed response and one no browser asked for', async () => {
    const { browser, form } = await signIn();
    expect(await signedInUser(browser)).toBe('zhaolei');
    // The same response again, in the same browser state as before (its cookie) and in a fresh one.
    const replay = new TestBrowser(base);
    const hops = await replay.submitForm(form, {});
    expect(hops.at(-1)?.status).toBe(400);
    expect(hops.at(-1)?.text).toContain('企业身份登录已过期或无效');
    expect(replay.cookies.has('TGC')).toBe(false);
  });

  it('identity-first sends an address of a claimed domain to the IdP; the verified email links the existing account; the forced provider refuses its password', async () => {
    await setSource({ jit: false, domains: ['hengyue-hi.cn'], enforce: false });
    // The claim routes once a platform operator approved it (租户管理).
    const operator = await tokenFor({ ...db, app, close: async () => undefined }, 'operator');
    const hengyue = await db.database.db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const approved = await call('PUT', `/web-api/console/v1/tenants/${hengyue.id}/federation-domains/hengyue-hi.cn`, operator, {
      approve: true,
    });
    expect(approved.status, approved.body.msg).toBe(200);
    const browser = new TestBrowser(base);
    const form = await browser.fetch('/cas/login');
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const identify = await browser.fetch('/cas/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'LiNa@Hengyue-HI.cn', execution, step: 'identify' }).toString(),
    });
    // The hand-over is a same-site refresh page to the source's start (CSP form-action after the form's post).
    expect(identify.status).toBe(200);
    const handOver = (/<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(identify.text)?.[1] ?? '').replaceAll('&amp;', '&');
    expect(handOver).toBe(`${base}/cas/login/federation/${sourceId}`);
    // The IdP's person has a new subject and staff's address in the claimed domain: staff's account, linked now.
    idp.state.user = {
      nameId: 'lina-subject-77',
      sessionIndex: '_idp-session-2',
      attributes: { uid: 'lina', displayName: '李娜', mail: 'lina@hengyue-hi.cn' },
    };
    const toIdpHops = await browser.navigate(handOver);
    idp.state.user = PERSON;
    expect(toIdpHops[0]?.location?.startsWith(`${idp.base}/sso?SAMLRequest=`)).toBe(true);
    await browser.submitForm(toIdpHops.at(-1) as BrowserResponse, {});
    const staff = await db.database.db.selectFrom('account').select('id').where('username', '=', 'staff').executeTakeFirstOrThrow();
    const link = await db.database.db
      .selectFrom('account_identity')
      .select('account_id')
      .where('source_id', '=', sourceId)
      .where('external_id', '=', 'lina-subject-77')
      .executeTakeFirst();
    expect(link?.account_id).toBe(staff.id);

    // The enterprise administrator's address links nobody: 企业管理员 is linked by an administrator, never by email.
    idp.state.user = {
      nameId: 'not-the-admin-88',
      sessionIndex: '_idp-session-3',
      attributes: { uid: 'zhangwei2', displayName: '张伟', mail: 'zhangwei@hengyue-hi.cn' },
    };
    const stranger = new TestBrowser(base);
    const adminHops = await stranger.navigate(handOver);
    idp.state.user = PERSON;
    const adminLanded = (await stranger.submitForm(adminHops.at(-1) as BrowserResponse, {})).at(-1) as BrowserResponse;
    expect(adminLanded.status).toBe(403);
    const adminLink = await db.database.db
      .selectFrom('account_identity')
      .select('account_id')
      .where('source_id', '=', sourceId)
      .where('external_id', '=', 'not-the-admin-88')
      .executeTakeFirst();
    expect(adminLink).toBeUndefined();

    // 仅允许通过该 IdP 登录: staff's right password no longer signs in; the enterprise administrator's still does.
    await setSource({ jit: false, domains: ['hengyue-hi.cn'], enforce: true });
    const refused = (await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD)).at(-1) as BrowserResponse;
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('企业要求通过企业身份提供方登录');
    const adminLogin = await new TestBrowser(base).casLogin('admin', DEMO_PASSWORD);
    expect(adminLogin[0]?.status).not.toBe(403);
    await setSource({ jit: true, domains: [], enforce: false });
  });

  it('the IdP’s signed LogoutRequest ends the federated session; one signed by another key changes nothing', async () => {
    const { browser } = await signIn();
    expect(await signedInUser(browser)).toBe('zhaolei');
    const spEntity = `${base}/cas/login/saml/${sourceId}/metadata`;

    const forged = await fetch(await idp.logoutRequestUrl(spEntity, PERSON.nameId, PERSON.sessionIndex, 'other'), { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(await signedInUser(browser)).toBe('zhaolei');

    const logout = await fetch(await idp.logoutRequestUrl(spEntity, PERSON.nameId, PERSON.sessionIndex), { redirect: 'manual' });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toMatch(new RegExp(`^${idp.base}/metadata|^${idp.base}/slo`));
    expect(new URL(logout.headers.get('location') ?? '').searchParams.get('SAMLResponse')).toBeTruthy();
    expect(await signedInUser(browser)).toBeUndefined();
    const ended = await db.database.db.selectFrom('login_log').select('reason').where('reason', '=', 'federation-logout').execute();
    expect(ended.length).toBeGreaterThan(0);
  });

  it('退出 of a federated session sends a signed LogoutRequest to the IdP, which answers back to the SP', async () => {
    const { browser } = await signIn();
    expect(await signedInUser(browser)).toBe('zhaolei');
    const requests = idp.state.logoutRequests.length;
    const hops = await browser.navigate('/cas/logout');
    expect(hops[0]?.status).toBe(303);
    expect(hops[0]?.location?.startsWith(`${idp.base}/slo?SAMLRequest=`)).toBe(true);
    expect(idp.state.logoutRequests.length).toBe(requests + 1);
    expect(idp.state.logoutRequests.at(-1)).toEqual({ nameId: PERSON.nameId, sessionIndex: PERSON.sessionIndex });
    expect(hops.at(-1)?.text).toContain('您已安全退出');
    expect(browser.cookies.has('TGC')).toBe(false);
  });
});
