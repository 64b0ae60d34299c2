import { createSign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { type CasClientApp, startCasClientApp } from '../../../testing/cas-client-app.js';
import { OidcClientApp } from '../../../testing/oidc-client-app.js';
import { queryPlan } from '../../../testing/query-plan.js';
import { idpCertificates, startSamlSp, spKeyPair, type SamlSp } from '../../../testing/saml-sp-app.js';
import { createTestDatabase, type TestDatabase, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, freePort, TestBrowser } from '../../../testing/test-browser.js';
import { enrolmentKey, totp } from '../../../testing/totp.js';
import { hashClientSecret } from '../../oidc/client-secret.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const DAY = 86_400_000;
const isLoginForm = (hop: BrowserResponse | undefined) => hop?.status === 200 && hop.text.includes('账号登录');
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A hand-written AuthnRequest (what no SP library would send), for the HTTP-Redirect binding. */
function authnRequest(
  issuer: string,
  destination: string,
  extra: { id?: string; issueInstant?: string; acs?: string; prefix?: string } = {},
) {
  const id = extra.id ?? `_${Math.random().toString(16).slice(2)}${Date.now()}`;
  const xml =
    `${extra.prefix ?? ''}<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${id}" Version="2.0" IssueInstant="${extra.issueInstant ?? new Date().toISOString()}"${destination ? ` Destination="${destination}"` : ''}` +
    `${extra.acs ? ` AssertionConsumerServiceURL="${extra.acs}"` : ''} ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`;
  return deflateRawSync(Buffer.from(xml)).toString('base64');
}

/** A hand-written, unsigned LogoutRequest for the HTTP-Redirect binding. */
function logoutRequestMessage(issuer: string, fields: { id?: string; nameId?: string; sessionIndex?: string } = {}) {
  const xml =
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${fields.id ?? `_${Math.random().toString(16).slice(2)}${Date.now()}`}" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
    `<saml:Issuer>${issuer}</saml:Issuer><saml:NameID>${fields.nameId ?? 'someone'}</saml:NameID>` +
    `<samlp:SessionIndex>${fields.sessionIndex ?? 'index'}</samlp:SessionIndex></samlp:LogoutRequest>`;
  return deflateRawSync(Buffer.from(xml)).toString('base64');
}

/**
 * The SAML 2.0 identity provider through the central login, against an independent service provider
 * (@node-saml/node-saml, a real second HTTP server): SP-initiated sign-on on both bindings, attributes,
 * 应用授权, IdP-initiated sign-on, single logout both ways, and the classic attacks refused.
 */
describe.each(testDialects())('SAML 2.0 identity provider on %s', (dialect) => {
  let db: TestDatabase;
  let app: PortalApp;
  let base: string;
  /** Signs nothing, persistent NameID, 企业全员, every attribute. */
  let open: SamlSp;
  /** Must sign its requests (HTTP-POST), email NameID. */
  let signing: SamlSp;
  /** Nobody granted (应用授权). */
  let restricted: SamlSp;
  let openId: number;
  let adminToken: string;
  /** The signing SP's key. */
  let spKeys: ReturnType<typeof spKeyPair>;
  /** A CAS application and an OpenID Connect one of the same enterprise (one sign-on session with the SPs). */
  let casApp: CasClientApp;
  let rp: OidcClientApp;

  const accountRow = (username: string) =>
    db.database.db.selectFrom('account').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

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
    const keys = spKeyPair();
    spKeys = keys;
    [open, signing, restricted] = await Promise.all([
      startSamlSp({ idpBase: base, unsolicited: true }),
      startSamlSp({
        idpBase: base,
        signing: keys,
        identifierFormat: EMAIL,
        overrides: { authnRequestBinding: 'HTTP-POST', skipRequestCompression: true },
      }),
      startSamlSp({ idpBase: base }),
    ]);
    const hengyue = await db.database.db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const insert = async (
      sp: SamlSp,
      name: string,
      allMembers: number,
      settings: { certificate?: string; nameIdFormat: string; wantRequestsSigned: number },
    ) => {
      const { id } = await db.database.db
        .insertInto('sso_application')
        .values({
          enterprise_id: hengyue.id,
          name,
          protocol: 'saml2',
          all_members: allMembers,
          attributes: 'name,telephone,email,enterpriseName,groups,roles',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.database.db
        .insertInto('saml_service_provider')
        .values({
          application_id: id,
          entity_id: sp.entityId,
          acs_url: sp.acsUrl,
          slo_url: sp.sloUrl,
          certificate: settings.certificate ?? '',
          name_id_format: settings.nameIdFormat,
          sign_response: 1,
          sign_assertion: 1,
          want_requests_signed: settings.wantRequestsSigned,
        })
        .execute();
      return id;
    };
    openId = await insert(open, '恒岳供应链协同（测试）', 1, { nameIdFormat: 'persistent', wantRequestsSigned: 0 });
    await insert(signing, '恒岳采购门户（测试）', 1, { certificate: keys.certificate, nameIdFormat: 'email', wantRequestsSigned: 1 });
    await insert(restricted, '恒岳财务共享（测试）', 0, { nameIdFormat: 'persistent', wantRequestsSigned: 0 });
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
    const secret = 'saml-sso-oidc-secret-for-tests-only';
    rp = await OidcClientApp.start({ issuer: `${base}/oidc`, clientId: 'saml-sso-oidc-test', clientSecret: secret });
    await db.database.db
      .insertInto('sso_application')
      .values({
        enterprise_id: hengyue.id,
        name: '恒岳移动巡检（测试）',
        protocol: 'oidc',
        all_members: 1,
        oidc_client_id: 'saml-sso-oidc-test',
        oidc_client_type: 'confidential',
        oidc_secret_hash: hashClientSecret(secret),
        oidc_redirect_uris: JSON.stringify([rp.redirectUri]),
        oidc_backchannel_logout_uri: rp.backchannelUri,
        oidc_scopes: 'openid profile',
        created_at: now,
        updated_at: now,
      })
      .execute();
    adminToken = await tokenFor({ ...db, app, close: () => app.close() }, 'admin');
  });
  afterAll(async () => {
    await Promise.all([open.close(), signing.close(), restricted.close(), casApp.close(), rp.close()]);
    await app.close();
    await db.drop();
  });
  beforeEach(() => {
    for (const sp of [open, signing, restricted]) {
      sp.received.profiles.length = 0;
      sp.received.refusals.length = 0;
      sp.received.logoutRequests.length = 0;
      sp.received.logoutResponses = 0;
      sp.received.hits = 0;
    }
    casApp.reset();
    rp.reset();
  });

  /** The response the IdP's HTTP-POST page carries to the registered ACS, validated by the SP that asked (`sp`). */
  async function answered(sp: SamlSp, page: BrowserResponse | undefined) {
    expect(page?.status).toBe(200);
    expect(page?.text).toContain(`action="${open.acsUrl}"`);
    const fields = Object.fromEntries(
      [...(page?.text ?? '').matchAll(/<input[^>]*name="(SAMLResponse|RelayState)"[^>]*value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    return sp.saml.validatePostResponseAsync(fields as Record<string, string>);
  }

  /** The fields of the IdP's HTTP-POST page. */
  const postedFields = (page: BrowserResponse) =>
    Object.fromEntries(
      [...page.text.matchAll(/<input[^>]*name="(SAMLResponse|RelayState)"[^>]*value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;

  /** The status codes (top level first) of the LogoutResponse an HTTP-POST page carries. */
  const logoutStatus = (page: BrowserResponse) => {
    const xml = Buffer.from(postedFields(page).SAMLResponse ?? '', 'base64').toString('utf8');
    return [...xml.matchAll(/<(?:\w+:)?StatusCode Value="([^"]+)"/g)].map((m) => m[1]);
  };

  /** The certificates in a posted response's signatures (KeyInfo): the key that signed it. */
  const signingCertificates = (page: BrowserResponse | undefined) => {
    const response = /name="SAMLResponse"[^>]*value="([^"]*)"/.exec(page?.text ?? '')?.[1] ?? '';
    const xml = Buffer.from(response, 'base64').toString('utf8');
    return [...new Set([...xml.matchAll(/<(?:\w+:)?X509Certificate>([^<]+)</g)].map((m) => (m[1] ?? '').replace(/\s+/g, '')))];
  };

  /** A fresh browser starting at the SP: the central login's form, then the response posted to the SP. */
  async function signIn(sp: SamlSp, username: string, browser = new TestBrowser(base)) {
    const hops = await browser.navigate(sp.loginUrl, {}, 12);
    const form = hops.at(-1);
    if (!isLoginForm(form) || !form) throw new Error(`no login form: ${form?.status} ${form?.url}`);
    const after = await browser.submitForm(form, { username, password: DEMO_PASSWORD }, '/cas/login');
    const post = after.at(-1) as BrowserResponse;
    return { browser, hops, post };
  }

  /** 登录日志's refused SAML messages at an application. */
  const refusalsAt = async (applicationName: string) =>
    Number(
      (
        await db.database.db
          .selectFrom('login_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('reason', '=', 'saml-refused')
          .where('application_name', '=', applicationName)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Whether this browser's sign-on session is live: the SAML application's next sign-in goes without the form. */
  const sessionLive = async (browser: TestBrowser) => !isLoginForm((await browser.navigate(open.loginUrl, {}, 12)).at(-1));

  it('publishes its metadata with the signing certificate and its endpoints', async () => {
    const res = await fetch(`${base}/saml/metadata`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${base}/saml/metadata"`);
    expect(xml).toMatch(/<(\w+:)?X509Certificate>[A-Za-z0-9+/=]{500,}</);
    expect(xml).toContain(`Location="${base}/saml/sso"`);
    expect(xml).toContain(`Location="${base}/saml/slo"`);
  });

  it('signs in SP-initiated over HTTP-Redirect: the central login, a signed response posted to the registered ACS, attributes under their SAML names', async () => {
    const { hops, post, browser } = await signIn(open, 'admin');
    // The SP's request went to the IdP, the IdP on to the central login (never straight back to the SP).
    expect(new URL(hops[1]?.url ?? '').pathname).toBe('/saml/sso');
    expect(hops[1]?.status).toBe(303);
    expect(post.status).toBe(200);
    expect(post.text).toContain(`action="${open.acsUrl}"`);
    // The page may post only to the SP's origin, by a hashed script.
    const csp = post.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`form-action ${open.base}`);
    expect(csp).toMatch(/script-src 'sha256-/);
    const landed = (await browser.submitForm(post, {}, open.acsUrl)).at(-1);
    expect(landed?.status).toBe(200);
    const profile = JSON.parse(landed?.text ?? '{}') as Record<string, unknown>;
    const admin = await accountRow('admin');
    expect(profile).toMatchObject({
      issuer: `${base}/saml/metadata`,
      nameIDFormat: PERSISTENT,
      relayState: 'relay-1',
      name: admin.name,
      email: admin.email,
      telephone: admin.phone,
      enterpriseName: HENGYUE,
    });
    // A password sign-in says so (SAML Authn Context §3.4.19).
    expect(open.received.profiles[0]?.getAssertionXml?.()).toContain(
      '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>',
    );
    // Persistent: opaque, not the username or the account id.
    expect(String(profile.nameID)).toMatch(/^[\w-]{40,}$/);
    expect(profile.sessionIndex).toEqual(expect.any(String));
    expect(Array.isArray(profile.roles) || typeof profile.roles === 'string').toBe(true);
    // 登录日志 has the sign-in at this application.
    const log = await db.database.db
      .selectFrom('login_log')
      .select(['application_name', 'result'])
      .where('username', '=', 'admin')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ application_name: '恒岳供应链协同（测试）', result: 'success' });
  });

  it('signs in to a second SP over HTTP-POST with a signed request and the email NameID, without the form (one sign-on session)', async () => {
    const { browser, post } = await signIn(open, 'admin');
    await browser.submitForm(post, {}, open.acsUrl);
    const start = await browser.fetch(`${signing.base}/saml/login-post`);
    const hops = await browser.submitForm(start, {});
    expect(hops.some(isLoginForm)).toBe(false);
    const page = hops.at(-1) as BrowserResponse;
    expect(page.text).toContain(`action="${signing.acsUrl}"`);
    const landed = (await browser.submitForm(page, {}, signing.acsUrl)).at(-1);
    const profile = JSON.parse(landed?.text ?? '{}') as Record<string, unknown>;
    expect(profile).toMatchObject({ nameID: (await accountRow('admin')).email, nameIDFormat: EMAIL, relayState: 'relay-2' });
  });

  it('refuses a person 应用授权 does not admit, and the SP receives nothing', async () => {
    const { post } = await signIn(restricted, 'admin');
    expect(post.status).toBe(403);
    expect(post.text).toContain('您无权访问该应用');
    expect(post.text).not.toContain('SAMLResponse');
    expect(restricted.received.profiles).toHaveLength(0);
  });

  it('answers ForceAuthn with the form again although a sign-on session is live', async () => {
    const { browser, post } = await signIn(open, 'staff');
    await browser.submitForm(post, {}, open.acsUrl);
    const forced = await startSamlSp({
      idpBase: base,
      overrides: { forceAuthn: true, issuer: open.entityId, callbackUrl: open.acsUrl, audience: open.entityId },
    });
    try {
      const hops = await browser.navigate(`${forced.base}/saml/login`, {}, 12);
      expect(isLoginForm(hops.at(-1))).toBe(true);
      expect(hops.at(-1)?.url).toContain('renew=true');
    } finally {
      await forced.close();
    }
  });

  it('honours IsPassive: no page without a sign-on session (a signed NoPassive the SP accepts), a response with one, NoPassive with ForceAuthn', async () => {
    /** An SP (the registered one's entity ID and ACS) whose requests are passive; it validates what the IdP posts. */
    const passiveSp = (forceAuthn = false) =>
      startSamlSp({
        idpBase: base,
        overrides: { passive: true, forceAuthn, issuer: open.entityId, callbackUrl: open.acsUrl, audience: open.entityId },
      });
    const [passive, passiveForced] = await Promise.all([passiveSp(), passiveSp(true)]);
    try {
      const browser = new TestBrowser(base);
      const none = await browser.navigate(`${passive.base}/saml/login`, {}, 12);
      expect(none.some(isLoginForm)).toBe(false);
      expect(none.some((hop) => hop.url.includes('gateway=true'))).toBe(true);
      expect(await answered(passive, none.at(-1))).toEqual({ profile: null, loggedOut: false });
      // The same browser signs in; a passive request now gets a response without the form.
      const { post } = await signIn(open, 'liuyang', browser);
      await browser.submitForm(post, {}, open.acsUrl);
      const live = await browser.navigate(`${passive.base}/saml/login`, {}, 12);
      expect(live.some(isLoginForm)).toBe(false);
      const { profile } = await answered(passive, live.at(-1));
      expect(profile).toMatchObject({ nameIDFormat: PERSISTENT, name: (await accountRow('liuyang')).name });
      // ForceAuthn with IsPassive cannot be met even with a session (SAML Core §3.4.1).
      const forced = await browser.navigate(`${passiveForced.base}/saml/login`, {}, 12);
      expect(forced.some(isLoginForm)).toBe(false);
      expect(await answered(passiveForced, forced.at(-1))).toEqual({ profile: null, loggedOut: false });
    } finally {
      await Promise.all([passive.close(), passiveForced.close()]);
    }
  });

  describe('bad input is refused with a page: no 500, never a redirect or a form to the SP', () => {
    /** The IdP's answer to an HTTP-Redirect request: refused, nothing on to the login or the SP. */
    async function expectRefused(url: string, init: RequestInit = {}, title = '登录请求无效') {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const text = await res.text();
      expect(text).toContain(title);
      expect(text).not.toContain('SAMLResponse');
    }
    const redirect = (encoded: string) => `${base}/saml/sso?SAMLRequest=${encodeURIComponent(encoded)}`;

    it('an unknown entity ID', async () => {
      await expectRefused(redirect(authnRequest('https://unknown.example/sp', `${base}/saml/sso`)));
    });

    it('an ACS address that is not the registered one', async () => {
      await expectRefused(redirect(authnRequest(open.entityId, `${base}/saml/sso`, { acs: 'https://evil.example/acs' })));
    });

    it('a replayed request and an expired one', async () => {
      const once = redirect(authnRequest(open.entityId, `${base}/saml/sso`, { id: '_replayed-request-1' }));
      expect((await fetch(once, { redirect: 'manual' })).status).toBe(303);
      await expectRefused(once);
      const old = new Date(Date.now() - 3600_000).toISOString();
      await expectRefused(redirect(authnRequest(open.entityId, `${base}/saml/sso`, { issueInstant: old })));
    });

    it('an unsigned request from an SP that must sign, and one signed by another key', async () => {
      await expectRefused(redirect(authnRequest(signing.entityId, `${base}/saml/sso`)));
      const impostor = await startSamlSp({
        idpBase: base,
        signing: spKeyPair(),
        overrides: {
          issuer: signing.entityId,
          callbackUrl: signing.acsUrl,
          authnRequestBinding: 'HTTP-POST',
          skipRequestCompression: true,
        },
      });
      try {
        const message = (await impostor.saml.getAuthorizeMessageAsync('x')) as Record<string, string>;
        await expectRefused(`${base}/saml/sso`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(message).toString(),
        });
      } finally {
        await impostor.close();
      }
    });

    it('a signed request without a Destination, and one signed with SHA-1', async () => {
      /** An HTTP-Redirect request signed over its query octets (SAML Bindings §3.4.4.1) with the signing SP's key. */
      const signed = (encoded: string, algorithm: 'sha256' | 'sha1') => {
        const sigAlg = `http://www.w3.org/${algorithm === 'sha1' ? '2000/09/xmldsig#rsa-sha1' : '2001/04/xmldsig-more#rsa-sha256'}`;
        const octets = `SAMLRequest=${encodeURIComponent(encoded)}&SigAlg=${encodeURIComponent(sigAlg)}`;
        const signature = createSign(algorithm === 'sha1' ? 'RSA-SHA1' : 'RSA-SHA256')
          .update(octets)
          .sign(spKeys.privateKey, 'base64');
        return `${base}/saml/sso?${octets}&Signature=${encodeURIComponent(signature)}`;
      };
      const before = await refusalsAt('恒岳采购门户（测试）');
      await expectRefused(signed(authnRequest(signing.entityId, ''), 'sha256'));
      await expectRefused(signed(authnRequest(signing.entityId, `${base}/saml/sso`), 'sha1'));
      // HTTP-POST: the enveloped signature of the registered key, made with SHA-1.
      const sha1 = await startSamlSp({
        idpBase: base,
        signing: spKeys,
        overrides: {
          issuer: signing.entityId,
          callbackUrl: signing.acsUrl,
          authnRequestBinding: 'HTTP-POST',
          skipRequestCompression: true,
          signatureAlgorithm: 'sha1',
          digestAlgorithm: 'sha1',
        },
      });
      try {
        const message = (await sha1.saml.getAuthorizeMessageAsync('x')) as Record<string, string>;
        await expectRefused(`${base}/saml/sso`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(message).toString(),
        });
      } finally {
        await sha1.close();
      }
      expect(await refusalsAt('恒岳采购门户（测试）')).toBe(before + 3);
      // The same request with its Destination, signed with SHA-256, goes on to the central login.
      const accepted = await fetch(signed(authnRequest(signing.entityId, `${base}/saml/sso`), 'sha256'), { redirect: 'manual' });
      expect(accepted.status).toBe(303);
      expect(accepted.headers.get('location')).toContain('/cas/login?service=');
    });

    it('XML with external entities (XXE) and a comment inside a NameID', async () => {
      const xxe = authnRequest(open.entityId, `${base}/saml/sso`, {
        prefix: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      });
      await expectRefused(redirect(xxe));
      const logout = deflateRawSync(
        Buffer.from(
          `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_c1" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
            `<saml:Issuer>${open.entityId}</saml:Issuer><saml:NameID>admin<!-- -->@evil.example</saml:NameID><samlp:SessionIndex>x</samlp:SessionIndex></samlp:LogoutRequest>`,
        ),
      ).toString('base64');
      await expectRefused(`${base}/saml/slo?SAMLRequest=${encodeURIComponent(logout)}`, {}, '退出请求无效');
    });

    it('a wrapped signature, each variant: the refusal page, nothing to the SP, no sign-in started, 登录日志 has the refusal', async () => {
      const message = (await signing.saml.getAuthorizeMessageAsync('x')) as Record<string, string>;
      const signed = Buffer.from(message.SAMLRequest ?? '', 'base64').toString('utf8');
      const inner = signed.replace(/^<\?xml[^>]*\?>/, '');
      const signature = /<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(inner)?.[0] ?? '';
      expect(signature).toMatch(/^<(ds:)?Signature/);
      const unsigned = inner.replace(signature, '');
      const variants: Record<string, string> = {
        // A forged root (another ACS) carrying the signed original in Extensions.
        'forged ACS, original in Extensions': inner
          .replace(/ID="[^"]+"/, 'ID="_forged1"')
          .replace(/AssertionConsumerServiceURL="[^"]+"/, 'AssertionConsumerServiceURL="https://evil.example/acs"')
          .replace(signature, '')
          .replace(/(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1<samlp:Extensions>${inner}</samlp:Extensions>`),
        // The same wrapping keeping every field: only the signature can tell.
        'kept fields, original in Extensions': unsigned
          .replace(/ID="[^"]+"/, 'ID="_forged2"')
          .replace(/(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1<samlp:Extensions>${inner}</samlp:Extensions>`),
        // The signed original kept as the signature's ds:Object under a forged root with a fresh ID.
        "original in the signature's Object": unsigned
          .replace(/ID="[^"]+"/, 'ID="_forged3"')
          .replace(
            /(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/,
            `$1${signature.replace(/<\/((?:ds:)?)Signature>$/, `<$1Object>${unsigned}</$1Object></$1Signature>`)}`,
          ),
        // The original's signature moved onto a forged root with another ID (the Reference names the original).
        'signature moved to a forged root': unsigned
          .replace(/ID="[^"]+"/, 'ID="_forged4"')
          .replace(/(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1${signature}`),
      };
      for (const [name, xml] of Object.entries(variants)) {
        const before = await refusalsAt('恒岳采购门户（测试）');
        await expectRefused(`${base}/saml/sso`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }).toString(),
        });
        expect(await refusalsAt('恒岳采购门户（测试）'), name).toBe(before + 1);
        const started = await db.database.db.selectFrom('saml_sign_in').select('id').where('request_id', 'like', '_forged%').execute();
        expect(started, name).toEqual([]);
        expect(signing.received.hits, name).toBe(0);
      }
    });

    it('garbage and missing messages', async () => {
      await expectRefused(redirect('not base64 at all %%%'));
      await expectRefused(`${base}/saml/sso`);
    });
  });

  it("refuses the email NameID when the account has no email or another account of its enterprise (any case) holds it: a page, 登录日志, nothing to the SP; another enterprise's or a deleted account does not count", async () => {
    const liuyang = await accountRow('liuyang');
    /** A fresh browser signing in at the SP that asks for the email NameID (HTTP-POST request). */
    const attempt = async () => {
      const browser = new TestBrowser(base);
      const start = await browser.fetch(`${signing.base}/saml/login-post`);
      const form = (await browser.submitForm(start, {})).at(-1);
      if (!form || !isLoginForm(form)) throw new Error(`no login form: ${form?.status}`);
      return (await browser.submitForm(form, { username: 'liuyang', password: DEMO_PASSWORD }, '/cas/login')).at(-1) as BrowserResponse;
    };
    const refusedRows = () =>
      db.database.db
        .selectFrom('login_log')
        .select(['result', 'reason', 'application_name'])
        .where('username', '=', 'liuyang')
        .where('reason', '=', 'name-id-unavailable')
        .execute();
    const setEmail = (username: string, email: string) =>
      db.database.db.updateTable('account').set({ email }).where('username', '=', username).execute();
    const service = await accountRow('service');
    const staff = await accountRow('staff');
    const setStatus = (username: string, status: 'active' | 'deleted') =>
      db.database.db.updateTable('account').set({ status }).where('username', '=', username).execute();
    try {
      // Another enterprise's account and a deleted one of 恒岳 hold the address too: neither names anybody
      // who can sign in here, so the SP gets liuyang's address.
      expect(service.enterprise_id).not.toBe(liuyang.enterprise_id);
      expect(staff.enterprise_id).toBe(liuyang.enterprise_id);
      await setEmail('service', liuyang.email.toUpperCase());
      await setEmail('staff', liuyang.email);
      await setStatus('staff', 'deleted');
      const elsewhere = await attempt();
      expect(elsewhere.status, elsewhere.text).toBe(200);
      expect((await signing.saml.validatePostResponseAsync(postedFields(elsewhere))).profile).toMatchObject({ nameID: liuyang.email });
      await setEmail('service', service.email);
      signing.received.hits = 0;
      // Another account of 恒岳 holds the same address in capitals.
      await setStatus('staff', 'active');
      await setEmail('staff', liuyang.email.toUpperCase());
      const shared = await attempt();
      expect(shared.status).toBe(403);
      expect(shared.text).toContain('无法登录该应用');
      expect(shared.text).toContain('请联系企业管理员在账号管理中为您的账号设置唯一的邮箱');
      expect(shared.text).not.toContain('SAMLResponse');
      await setEmail('staff', staff.email);
      await setEmail('liuyang', '');
      const none = await attempt();
      expect(none.status).toBe(403);
      expect(none.text).not.toContain('SAMLResponse');
      // The SP saw only its own two starts (login-post), no response.
      expect(signing.received.hits).toBe(2);
      expect(signing.received.profiles).toEqual([]);
      expect(await refusedRows()).toEqual([
        { result: 'failure', reason: 'name-id-unavailable', application_name: '恒岳采购门户（测试）' },
        { result: 'failure', reason: 'name-id-unavailable', application_name: '恒岳采购门户（测试）' },
      ]);
    } finally {
      await setStatus('staff', 'active');
      await setEmail('staff', staff.email);
      await setEmail('service', service.email);
      await setEmail('liuyang', liuyang.email);
    }
    // Its own address again, held by nobody else: the SP gets it.
    const page = await attempt();
    const landed = await signing.saml.validatePostResponseAsync(postedFields(page));
    expect(landed.profile).toMatchObject({ nameID: liuyang.email, nameIDFormat: EMAIL });
  });

  it('finds another holder of an email through the lower(email) index, never by scanning accounts', async () => {
    const statement = app.samlRepository.emailHolderStatement(1, 1, 'Liuyang@Example.com').compile();
    const plan = await queryPlan(db.database.db, dialect, statement);
    expect(plan).toMatch(/account_email_lower_idx/);
    expect(plan).not.toMatch(/\bSCAN account\b|Seq Scan/);
  });

  it("SP-initiated logout: unsigned or wrongly signed where the SP has a certificate, replayed, or naming another browser's sign-in ends no session", async () => {
    // Browser A signs in at the SP that signs (its certificate is registered) and at the open one.
    const a = await signIn(open, 'staff');
    const aProfile = JSON.parse((await a.browser.submitForm(a.post, {}, open.acsUrl)).at(-1)?.text ?? '{}') as Parameters<
      SamlSp['saml']['getLogoutUrlAsync']
    >[0];
    const start = await a.browser.fetch(`${signing.base}/saml/login-post`);
    const page = (await a.browser.submitForm(start, {})).at(-1) as BrowserResponse;
    const signed = await signing.saml.validatePostResponseAsync(
      Object.fromEntries(
        [...page.text.matchAll(/<input[^>]*name="(SAMLResponse|RelayState)"[^>]*value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      ) as Record<string, string>,
    );
    const profile = signed.profile as Parameters<SamlSp['saml']['getLogoutUrlAsync']>[0];
    const before = await refusalsAt('恒岳采购门户（测试）');

    // The signing SP's LogoutRequests over HTTP-Redirect (deflated, signed by its registered key).
    const signer = await startSamlSp({ idpBase: base, signing: spKeys, identifierFormat: EMAIL, overrides: { issuer: signing.entityId } });
    const url = new URL(await signer.saml.getLogoutUrlAsync(profile, 'bye', {}));
    await signer.close();
    // Unsigned: the same request without its signature. An SP with a certificate must sign its logout
    // even where its sign-in requests need not be signed.
    const unsigned = url.href.replace(/&(SigAlg|Signature)=[^&]*/g, '');
    expect(unsigned).not.toContain('Signature=');
    const wantSigned = (value: number) =>
      db.database.db
        .updateTable('saml_service_provider')
        .set({ want_requests_signed: value })
        .where('entity_id', '=', signing.entityId)
        .execute();
    await wantSigned(0);
    const refused = await a.browser.fetch(unsigned).finally(() => wantSigned(1));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('退出请求无效');
    expect(refused.headers.get('set-cookie')).toBeNull();
    // Signed by another key.
    const impostor = await startSamlSp({ idpBase: base, signing: spKeyPair(), overrides: { issuer: signing.entityId } });
    try {
      const forged = await a.browser.fetch(await impostor.saml.getLogoutUrlAsync(profile, 'bye', {}));
      expect(forged.status).toBe(400);
      expect(forged.text).toContain('退出请求无效');
    } finally {
      await impostor.close();
    }
    expect(await refusalsAt('恒岳采购门户（测试）')).toBe(before + 2);
    expect(await sessionLive(a.browser)).toBe(true);

    // Browser B (another person) brings A's valid request for the open SP: B's session is not A's, nothing ends.
    const b = await signIn(open, 'liuyang');
    await b.browser.submitForm(b.post, {}, open.acsUrl);
    const other = (await b.browser.navigate(await open.saml.getLogoutUrlAsync(aProfile, 'bye', {}))).at(-1) as BrowserResponse;
    expect(other.text).not.toContain('您已安全退出');
    expect(other.text).toContain(`action="${open.sloUrl}"`);
    // The SP hears that the portal's session went on: Success with PartialLogout (SAML Core §3.7.3.2).
    expect(logoutStatus(other)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Success', 'urn:oasis:names:tc:SAML:2.0:status:PartialLogout']);
    expect(await sessionLive(a.browser)).toBe(true);
    expect(await sessionLive(b.browser)).toBe(true);

    // The signed request from A's browser ends A's session; the same request again is a replay.
    const okHops = await a.browser.navigate(url.href);
    const ok = okHops.at(-1) as BrowserResponse;
    expect(ok.text).toContain(`action="${signing.sloUrl}"`);
    expect(ok.text).toContain('已退出统一认证');
    expect(logoutStatus(ok)).toEqual(['urn:oasis:names:tc:SAML:2.0:status:Success']);
    // The continuation address works once: brought again (history, a copied link) it ends nothing.
    const continuation = okHops.find((hop) => hop.url.includes('/cas/saml/logout?t='))?.url ?? '';
    expect(continuation).not.toBe('');
    const again = await b.browser.fetch(continuation);
    expect(again.status).toBe(400);
    expect(again.text).toContain('退出请求无效');
    expect(await sessionLive(b.browser)).toBe(true);
    expect(await sessionLive(a.browser)).toBe(false);
    const replayed = (await b.browser.navigate(url.href)).at(-1) as BrowserResponse;
    expect(replayed.status).toBe(400);
    expect(replayed.text).toContain('退出请求无效');
    expect(await sessionLive(b.browser)).toBe(true);
  });

  it('answers a malformed message on every /saml address with a readable Chinese page, never a 500', async () => {
    const long = 'x'.repeat(2100);
    for (const [method, path] of [
      ['GET', `/saml/sso?Signature=${long}`],
      ['POST', '/saml/sso'],
      ['GET', `/saml/slo?RelayState=${'r'.repeat(1100)}`],
      ['POST', '/saml/slo'],
      ['GET', `/saml/sign-in/${'u'.repeat(80)}/callback`],
      ['GET', '/saml/initiate/not-a-number'],
      ['GET', '/cas/saml/logout'],
      // A control character in the query: the input guard's refusal, as a page too.
      ['GET', '/saml/sso?SAMLRequest=x&RelayState=a%09b'],
      ['GET', '/saml/slo?RelayState=%00'],
      ['GET', '/cas/saml/logout?t=a%0Ab'],
    ] as const) {
      const res = await app.inject({
        method,
        url: path,
        headers: { host: new URL(base).host },
        ...(method === 'POST'
          ? { payload: `Signature=${long}`, headers: { host: new URL(base).host, 'content-type': 'application/x-www-form-urlencoded' } }
          : {}),
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.body, path).toContain('<h1>请求无效</h1>');
      expect(res.body, path).toMatch(/(查询参数|请求体|路径参数)/);
      expect(res.body, path).not.toContain('[object Object]');
    }

    // Messages whose values cannot be kept or looked up: a control character (PostgreSQL refuses a NUL
    // byte) or a value longer than its column. Refused with the page and 登录日志's row, before any write.
    const sso = (xml: string) => `/saml/sso?SAMLRequest=${encodeURIComponent(xml)}`;
    const slo = (xml: string) => `/saml/slo?SAMLRequest=${encodeURIComponent(xml)}`;
    const at = `${base}/saml/sso`;
    for (const [name, path] of [
      ['NUL in the Issuer', sso(authnRequest(`${open.entityId}\u0000`, at))],
      ['DEL in the Issuer', sso(authnRequest(`${open.entityId}\u007f`, at))],
      ['a tab in the ID', sso(authnRequest(open.entityId, at, { id: '_a\tb' }))],
      ['a character reference to a control character', sso(authnRequest(`${open.entityId}&#x1;`, at))],
      ['an Issuer of 501 characters', sso(authnRequest(`${open.entityId}?${'i'.repeat(501)}`, at))],
      ['an AuthnRequest ID of 257 characters', sso(authnRequest(open.entityId, at, { id: `_${'a'.repeat(256)}` }))],
      ['NUL in a LogoutRequest Issuer', slo(logoutRequestMessage(`${open.entityId}\u0000`))],
      ['a LogoutRequest ID of 3000 characters', slo(logoutRequestMessage(open.entityId, { id: `_${'b'.repeat(2999)}` }))],
      ['a SessionIndex of 65 characters', slo(logoutRequestMessage(open.entityId, { sessionIndex: 's'.repeat(65) }))],
      ['a NameID of 501 characters', slo(logoutRequestMessage(open.entityId, { nameId: 'n'.repeat(501) }))],
      ['NUL in a SessionIndex', slo(logoutRequestMessage(open.entityId, { sessionIndex: 'a\u0000b' }))],
    ] as const) {
      const before = await db.database.db
        .selectFrom('login_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reason', '=', 'saml-refused')
        .executeTakeFirstOrThrow();
      const res = await app.inject({ method: 'GET', url: path, headers: { host: new URL(base).host } });
      expect(res.statusCode, name).toBe(400);
      expect(res.headers.location, name).toBeUndefined();
      expect(res.headers['content-type'], name).toMatch(/^text\/html/);
      expect(res.body, name).toContain(path.startsWith('/saml/sso') ? '<h1>登录请求无效</h1>' : '<h1>退出请求无效</h1>');
      const after = await db.database.db
        .selectFrom('login_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reason', '=', 'saml-refused')
        .executeTakeFirstOrThrow();
      expect(Number(after.n), name).toBe(Number(before.n) + 1);
    }
    const recorded = await db.database.db.selectFrom('saml_sign_in').select('id').where('request_id', 'like', '_bbbb%').execute();
    expect(recorded).toEqual([]);
  });

  it('limits SAML messages per client address with a Chinese page', async () => {
    const strict = await buildApp({
      config: { ...db.config, auth: { ...db.config.auth, loginAttemptsPerMinute: 1 } },
      database: db.database,
      logger: false,
    });
    try {
      const hit = () =>
        strict.inject({ method: 'GET', url: '/saml/metadata', headers: { host: new URL(base).host }, remoteAddress: '10.20.30.40' });
      for (let i = 0; i < 3; i++) expect((await hit()).statusCode).toBe(200);
      const over = await hit();
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toMatch(/^\d+$/);
      expect(over.body).toContain('请求过于频繁，请');
    } finally {
      await strict.close();
    }
  });

  it('states a sign-in with a second factor as multi-factor (REFEDS MFA) in the assertion', async () => {
    const policy = (twoFactor: 'off' | 'all') =>
      app.inject({
        method: 'PUT',
        url: '/web-api/console/v1/security/policy',
        headers: { host: new URL(base).host, 'x-requested-with': 'XMLHttpRequest', authorization: adminToken },
        payload: { ...app.config.securityDefaults, twoFactor },
      });
    expect((await policy('all')).statusCode).toBe(200);
    try {
      const { browser, post: enrol } = await signIn(open, 'liuyang');
      expect(enrol.text).toContain('<h1>绑定二次验证</h1>');
      const codes = (await browser.submitForm(enrol, { code: totp(enrolmentKey(enrol.text), Date.now()) }, '/two-factor/enrol')).at(-1);
      const page = (await browser.submitForm(codes as BrowserResponse, {}, '/two-factor')).at(-1) as BrowserResponse;
      const landed = (await browser.submitForm(page, {}, open.acsUrl)).at(-1);
      expect(landed?.status).toBe(200);
      expect(open.received.profiles[0]?.getAssertionXml?.()).toContain(
        '<saml:AuthnContextClassRef>https://refeds.org/profile/mfa</saml:AuthnContextClassRef>',
      );
    } finally {
      expect((await policy('off')).statusCode).toBe(200);
    }
  });

  it('signs in IdP-initiated from 我的应用: an unsolicited response the SP accepts', async () => {
    const browser = new TestBrowser(base);
    await browser.portalLogin('admin', DEMO_PASSWORD);
    const mine = await browser.json<{ code: number; data: { id: number; url: string }[] }>('/web-api/portal/v1/my-apps', {
      headers: { authorization: adminToken },
    });
    const entry = mine.body.data.find((a) => a.id === openId);
    expect(entry?.url).toBe(`${base}/saml/initiate/${openId}`);
    const hops = await browser.navigate(entry?.url ?? '', {}, 12);
    const page = hops.at(-1) as BrowserResponse;
    expect(page.text).toContain(`action="${open.acsUrl}"`);
    const landed = (await browser.submitForm(page, {}, open.acsUrl)).at(-1);
    const profile = JSON.parse(landed?.text ?? '{}') as Record<string, unknown>;
    expect(profile).toMatchObject({ issuer: `${base}/saml/metadata`, nameIDFormat: PERSISTENT, name: (await accountRow('admin')).name });
    expect(profile.inResponseTo).toBeUndefined();
  });

  it('single logout from the portal: each SP gets a signed LogoutRequest naming its sign-in, recorded as delivered', async () => {
    const { browser, post } = await signIn(open, 'staff');
    const landed = (await browser.submitForm(post, {}, open.acsUrl)).at(-1);
    const profile = JSON.parse(landed?.text ?? '{}') as { nameID: string; sessionIndex: string };
    await browser.navigate('/cas/logout');
    await expect.poll(() => open.received.logoutRequests.length).toBe(1);
    expect(open.received.logoutRequests[0]).toMatchObject({ nameID: profile.nameID, sessionIndex: profile.sessionIndex });
    await expect
      .poll(async () =>
        (
          await db.database.db
            .selectFrom('logout_delivery')
            .select(['protocol', 'state', 'target'])
            .where('protocol', '=', 'saml2')
            .where('username', '=', 'staff')
            .execute()
        ).map((r) => `${r.state} ${r.target}`),
      )
      .toContain(`delivered ${open.sloUrl}`);
  });

  it('single logout from the SP: the sign-on session ends, the SP gets a LogoutResponse, the next sign-in asks again', async () => {
    const { browser, post } = await signIn(open, 'staff');
    const landed = (await browser.submitForm(post, {}, open.acsUrl)).at(-1);
    const profile = JSON.parse(landed?.text ?? '{}') as Parameters<SamlSp['saml']['getLogoutUrlAsync']>[0];
    const url = await open.saml.getLogoutUrlAsync(profile, 'bye', {});
    const hops = await browser.navigate(url);
    const page = hops.at(-1) as BrowserResponse;
    expect(page.text).toContain(`action="${open.sloUrl}"`);
    await browser.submitForm(page, {}, open.sloUrl);
    expect(open.received.logoutResponses).toBe(1);
    const again = await browser.navigate(open.loginUrl, {}, 12);
    expect(isLoginForm(again.at(-1))).toBe(true);
    const row = await db.database.db
      .selectFrom('login_log')
      .select(['result', 'reason', 'application_name'])
      .where('username', '=', 'staff')
      .where('result', '=', 'logout')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ result: 'logout', reason: 'signed-out', application_name: '恒岳供应链协同（测试）' });
  });

  it('one sign-in and one sign-out across a CAS, an OIDC and a SAML application: single logout reaches all three, recorded', async () => {
    // Signs in once, at the SAML application (the central login's form).
    const { browser, post } = await signIn(open, 'wangfang');
    const landed = (await browser.submitForm(post, {}, open.acsUrl)).at(-1);
    const saml = JSON.parse(landed?.text ?? '{}') as { nameID: string; sessionIndex: string };
    expect(saml.sessionIndex).toEqual(expect.any(String));
    // The CAS application and the OIDC one: no form, the same sign-on session.
    const cas = await browser.navigate(casApp.serviceUrl, {}, 12);
    expect(cas.some(isLoginForm)).toBe(false);
    expect(cas.at(-1)?.text).toContain('signed in as wangfang');
    const oidc = await browser.navigate(rp.loginUrl(), {}, 12);
    expect(oidc.some(isLoginForm)).toBe(false);
    const signedIn = rp.signIns.at(-1);
    expect(oidc.at(-1)?.text).toContain(`signed in as ${String(signedIn?.claims.sub)}`);

    // Signs out once, at the CAS application: its sign-out link is the central logout (CAS 3.0 §2.3).
    expect((await browser.fetch('/cas/logout')).text).toContain('您已安全退出');

    // The CAS application's logoutRequest, the OIDC back-channel logout token, the SP's signed LogoutRequest.
    await expect.poll(() => [casApp.logoutTickets.length, rp.logoutTokens.length, open.received.logoutRequests.length]).toEqual([1, 1, 1]);
    const token = JSON.parse(Buffer.from(rp.logoutTokens[0]?.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(token).toMatchObject({ sub: signedIn?.claims.sub, sid: signedIn?.claims.sid });
    expect(rp.rejectedLogoutTokens).toEqual([]);
    expect(open.received.logoutRequests[0]).toMatchObject({ nameID: saml.nameID, sessionIndex: saml.sessionIndex });
    expect(open.received.refusals).toEqual([]);
    // 单点登出记录 has one delivered message per application.
    await expect
      .poll(async () =>
        (
          await db.database.db
            .selectFrom('logout_delivery')
            .select(['protocol', 'state', 'application_name'])
            .where('username', '=', 'wangfang')
            .orderBy('protocol')
            .execute()
        ).map((r) => `${r.protocol} ${r.state} ${r.application_name}`),
      )
      .toEqual(['cas3 delivered 恒岳设备台账（测试）', 'oidc delivered 恒岳移动巡检（测试）', 'saml2 delivered 恒岳供应链协同（测试）']);
    // The sign-on session has ended: each application's next visit meets the form.
    expect(isLoginForm((await browser.navigate(open.loginUrl, {}, 12)).at(-1))).toBe(true);
  });

  it('the retention job prunes sign-ins nothing needs: not those still in their replay window, of a live session or with a logout retry due', async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const account = await accountRow('zhoujie');
    await db.database.db
      .insertInto('cas_tgt')
      .values({
        id: 'TGT-saml-ret',
        account_id: account.id,
        created_at: ago(60_000),
        last_used_at: ago(60_000),
        expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
      })
      .execute();
    await db.database.db
      .insertInto('cas_st')
      .values({
        id: 'ST-saml-ret',
        tgt_id: 'TGT-saml-ret',
        service: `${base}/saml/sign-in/ret-live/callback`,
        created_at: ago(DAY),
        expires_at: ago(DAY),
      })
      .execute();
    const row = (id: string, expiresAt: string, answered: { ticket: string } | undefined) => ({
      id,
      application_id: openId,
      request_id: `_${id}`,
      created_at: ago(DAY),
      expires_at: expiresAt,
      ...(answered ? { answered_at: ago(DAY), account_id: account.id, name_id: 'n', ticket_id: answered.ticket } : {}),
    });
    await db.database.db
      .insertInto('saml_sign_in')
      .values([
        row('ret-waiting-old', ago(DAY), undefined),
        row('ret-waiting-recent', ago(60_000), undefined),
        row('ret-live', ago(DAY), { ticket: 'ST-saml-ret' }),
        row('ret-ended', ago(DAY), { ticket: 'ST-gone-1' }),
        row('ret-retrying', ago(DAY), { ticket: 'ST-gone-2' }),
      ])
      .execute();
    await db.database.db
      .insertInto('logout_delivery')
      .values({
        account_id: account.id,
        username: 'zhoujie',
        session_handle: 'h',
        application_id: openId,
        application_name: '恒岳供应链协同（测试）',
        protocol: 'saml2',
        target: open.sloUrl,
        guarded: 1,
        sid: 'ret-retrying',
        state: 'retrying',
        next_at: new Date(now.getTime() + 60_000).toISOString(),
        created_at: ago(60_000),
        updated_at: ago(60_000),
      })
      .execute();
    await app.retentionService.prune(now);
    const left = await db.database.db.selectFrom('saml_sign_in').select('id').where('id', 'like', 'ret-%').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['ret-live', 'ret-retrying', 'ret-waiting-recent']);
  });

  describe('应用列表: SAML applications', () => {
    const consoleCall = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url: `/web-api/console/v1${url}`,
        headers: { host: new URL(base).host, 'x-requested-with': 'XMLHttpRequest', authorization: adminToken },
        ...(payload ? { payload } : {}),
      });
    const body = (saml: Record<string, unknown>) => ({
      name: '恒岳供应链协同（新建）',
      protocol: 'saml2',
      servicePrefixes: [],
      attributes: ['name', 'email'],
      status: 'enabled',
      saml: {
        entityId: 'https://scm.example.com/saml/metadata',
        acsUrl: 'https://scm.example.com/saml/acs',
        sloUrl: '',
        certificate: '',
        nameIdFormat: 'persistent',
        signResponse: true,
        signAssertion: true,
        wantRequestsSigned: false,
        ...saml,
      },
    });

    it('creates one by hand and answers its settings with the IdP metadata address; bad settings get a Chinese message and write nothing', async () => {
      const created = await consoleCall('POST', '/sso-app', body({}));
      expect(created.statusCode).toBe(200);
      const id = (created.json() as { data: { id: number }[] }).data[0]?.id;
      const detail = (await consoleCall('GET', `/sso-app/${id}`)).json() as { data: Record<string, Record<string, unknown>>[] };
      expect(detail.data[0]?.saml).toMatchObject({ entityId: 'https://scm.example.com/saml/metadata', nameIdFormat: 'persistent' });
      expect(detail.data[0]?.integration?.saml).toMatchObject({ metadataUrl: `${base}/saml/metadata` });
      for (const [saml, msg] of [
        [{ entityId: open.entityId }, '实体 ID 已被其他应用使用'],
        [{ acsUrl: 'http://scm.example.com/acs' }, '断言消费地址（ACS）须为完整的 http(s) 地址（仅 localhost 与 127.0.0.1 可使用 http）'],
        [{ wantRequestsSigned: true }, '要求请求签名时须填写 SP 证书'],
        [{ signResponse: false, signAssertion: false }, '响应与断言至少签名其一'],
        [{ certificate: 'not a certificate' }, 'SP 证书须为 PEM 或 Base64 格式的 X.509 证书'],
      ] as const) {
        const res = await consoleCall('POST', '/sso-app', { ...body(saml), name: `坏的 ${msg.slice(0, 6)}` });
        expect(res.statusCode, msg).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, msg).toBeLessThan(500);
        expect(res.json()).toMatchObject({ code: 1, msg });
      }
      const written = await db.database.db.selectFrom('sso_application').select('name').where('name', 'like', '坏的%').execute();
      expect(written).toEqual([]);
    });

    it('接入自检: the metadata, the ACS, a real signed response the SP accepts and its SLO address answering', async () => {
      const res = await consoleCall('POST', `/sso-app/${openId}/self-test`, {});
      expect(res.statusCode, res.body).toBe(200);
      const result = (res.json() as { data: { protocol: string; passed: boolean; steps: { key: string; status: string }[] }[] }).data[0];
      expect(result?.protocol).toBe('saml2');
      expect(result?.steps.map((s) => [s.key, s.status])).toEqual([
        ['samlMetadata', 'passed'],
        ['acsReachable', 'passed'],
        ['samlResponse', 'passed'],
        ['sloReachable', 'passed'],
      ]);
      // The SP really validated the response and the logout request (signatures, audience, recipient);
      // the logout names the test sign-in, as single logout would after it.
      expect(open.received.profiles).toHaveLength(1);
      expect(open.received.logoutRequests).toHaveLength(1);
      expect(open.received.logoutRequests[0]).toMatchObject({
        nameID: open.received.profiles[0]?.nameID,
        sessionIndex: open.received.profiles[0]?.sessionIndex,
      });
      expect(result?.passed).toBe(true);
      // What can be seen from here is that the SP took the post without an error, worded so.
      const details = (res.json() as { data: { steps: { key: string; detail: string }[] }[] }).data[0]?.steps;
      expect(details?.find((s) => s.key === 'samlResponse')?.detail).toContain('已提交至');
      expect(details?.find((s) => s.key === 'samlResponse')?.detail).not.toContain('已接受');
      expect(details?.find((s) => s.key === 'sloReachable')?.detail).toContain('以 HTTP-POST 发送');
    });

    it('接入自检 does not count a response the SP answers by sending the browser back to sign in', async () => {
      // An ACS that takes nothing: every post is answered with a redirect to the IdP's sign-on.
      const server = http.createServer((req, res) => {
        if (req.method === 'POST') return res.writeHead(302, { location: `${base}/saml/sso?SAMLRequest=x` }).end();
        return res.writeHead(200).end('acs');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const acs = `http://127.0.0.1:${(server.address() as AddressInfo).port}/acs`;
      const setAcs = (url: string) =>
        db.database.db.updateTable('saml_service_provider').set({ acs_url: url }).where('application_id', '=', openId).execute();
      try {
        await setAcs(acs);
        const res = await consoleCall('POST', `/sso-app/${openId}/self-test`, {});
        const result = (res.json() as { data: { passed: boolean; steps: { key: string; status: string; detail: string }[] }[] }).data[0];
        const step = result?.steps.find((s) => s.key === 'samlResponse');
        expect(step?.status).toBe('failed');
        expect(step?.detail).toContain('跳转回统一认证');
        expect(result?.passed).toBe(false);
      } finally {
        await setAcs(open.acsUrl);
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('reads an SP metadata upload into the form fields', async () => {
      const xml = open.saml.generateServiceProviderMetadata(null, spKeyPair().certificate);
      const res = await consoleCall('POST', '/sso-app/saml/metadata', { xml });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { data: unknown[] }).data[0]).toMatchObject({ entityId: open.entityId, acsUrl: open.acsUrl });
      const bad = await consoleCall('POST', '/sso-app/saml/metadata', {
        xml: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 1, msg: '无法解析 SP 元数据：须为含 SPSSODescriptor 的 SAML 2.0 元数据' });
    });

    it('fetches an SP metadata address through the outbound rules: size, redirects, failures and refused addresses get a Chinese message', async () => {
      const xml = open.saml.generateServiceProviderMetadata(null, spKeyPair().certificate);
      const server = http.createServer((req, res) => {
        if (req.url === '/metadata') return res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(xml);
        if (req.url === '/huge') return res.writeHead(200, { 'content-type': 'application/xml' }).end(`<x>${'a'.repeat(300_000)}</x>`);
        if (req.url === '/moved') return res.writeHead(302, { location: 'https://elsewhere.example/saml/metadata?x=1' }).end();
        return res.writeHead(404).end('secret page body');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const res = await consoleCall('POST', '/sso-app/saml/metadata', { url: `${at}/metadata` });
        expect(res.statusCode, res.body).toBe(200);
        expect((res.json() as { data: unknown[] }).data[0]).toMatchObject({ entityId: open.entityId, acsUrl: open.acsUrl });
        for (const [url, msg] of [
          [`${at}/huge`, `无法获取 SP 元数据 ${at}/huge：元数据超过 200 KB`],
          [`${at}/moved`, `无法获取 SP 元数据 ${at}/moved：地址重定向到 https://elsewhere.example/saml/metadata，请填写重定向后的地址`],
          [`${at}/missing`, `无法获取 SP 元数据 ${at}/missing：地址返回 HTTP 404`],
          ['http://10.1.2.3/saml/metadata', '元数据地址 http://10.1.2.3/saml/metadata：不允许连接到该地址（内网地址）'],
          [
            'http://169.254.169.254/latest/meta-data',
            '元数据地址 http://169.254.169.254/latest/meta-data：不允许连接到该地址（链路本地地址）',
          ],
          ['file:///etc/passwd', '元数据地址须为完整的 http(s) 地址，如 https://app.example.com/saml/metadata'],
        ] as const) {
          const bad = await consoleCall('POST', '/sso-app/saml/metadata', { url });
          expect(bad.statusCode, url).toBe(400);
          expect(bad.json(), url).toMatchObject({ code: 1, msg });
        }
        expect((await consoleCall('POST', '/sso-app/saml/metadata', {})).json()).toMatchObject({
          code: 1,
          msg: '请上传 SP 元数据文件或填写元数据地址',
        });
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  // Last: it leaves the identity provider with a rotated key.
  it('rotates its signing key: both certificates published during the roll-over, the old key signing until the delay has passed, then the new one; the SP accepts throughout', async () => {
    const [first, ...others] = await idpCertificates(base);
    expect(others).toEqual([]);
    const { generation, signsFrom } = await app.samlService.keyStore.rotate();
    expect(signsFrom.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const published = await idpCertificates(base);
    expect(published).toHaveLength(2);
    expect(published[0]).toBe(first);
    const second = published[1] ?? '';
    /** SPs (the registered entity ID and ACS): one refreshed its metadata during the roll-over, one did not. */
    const as = { issuer: open.entityId, callbackUrl: open.acsUrl, audience: open.entityId };
    const [refreshed, stale] = await Promise.all([
      startSamlSp({ idpBase: base, overrides: as }),
      startSamlSp({ idpBase: base, overrides: { ...as, idpCert: first ?? '' } }),
    ]);
    try {
      const { browser, post } = await signIn(open, 'zhoujie');
      // During the roll-over the old key signs: an SP that has not refreshed yet still accepts.
      expect(signingCertificates(post)).toEqual([first]);
      const landed = (await browser.submitForm(post, {}, open.acsUrl)).at(-1);
      expect(landed?.status).toBe(200);
      for (const sp of [refreshed, stale]) {
        const page = (await browser.navigate(`${sp.base}/saml/login`, {}, 12)).at(-1);
        expect((await answered(sp, page)).profile).toMatchObject({ nameIDFormat: PERSISTENT });
      }
      // The delay has passed (as if a day went by): the new key signs, both stay in the metadata.
      await db.database.db
        .updateTable('saml_signing_key')
        .set({ created_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
        .where('generation', '=', generation)
        .execute();
      expect(await idpCertificates(base)).toEqual([second, first]);
      const now = (await browser.navigate(`${refreshed.base}/saml/login`, {}, 12)).at(-1);
      expect(signingCertificates(now)).toEqual([second]);
      expect((await answered(refreshed, now)).profile).toMatchObject({ nameIDFormat: PERSISTENT });
      // An SP that never refreshed its copy no longer verifies it.
      const late = (await browser.navigate(`${stale.base}/saml/login`, {}, 12)).at(-1);
      await expect(answered(stale, late)).rejects.toThrow(/signature/i);
    } finally {
      await Promise.all([refreshed.close(), stale.close()]);
    }
  });
});
