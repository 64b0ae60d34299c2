import { createHash, randomBytes } from 'node:crypto';
import {
  OIDC_SELF_TEST_STEP_TITLES,
  type OidcSelfTestStepKey,
  OidcSelfTestMessage as M,
  type SelfTestResult,
  type SelfTestStep,
  type SelfTestStepStatus,
  SelfTestMessage,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, type JSONWebKeySet, jwtVerify } from 'jose';
import { publicSiteUrl } from '../../platform/config.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { ID_TOKEN_SIGNING_ALG } from '../oidc/oidc-adapter.js';
import { OIDC_PREFIX } from '../oidc/oidc-provider.js';
import { exchange, redirectTarget, statusOf } from './self-test-http.js';
import { type SelfTestAccount, signInSkipReason } from './self-test.js';
import type { SsoApplication } from './sso-app-repository.js';

/** What the administrator sends with a run of an OpenID Connect application's check. */
export interface OidcSelfTestInput {
  redirectUri?: string | undefined;
  /** A confidential client's secret, for this run's token exchange only: never stored, logged or answered. */
  clientSecret?: string | undefined;
}

type OidcSettings = NonNullable<SsoApplication['oidc']>;

const step = (key: OidcSelfTestStepKey, status: SelfTestStepStatus, detail: string): SelfTestStep => ({
  key,
  title: OIDC_SELF_TEST_STEP_TITLES[key],
  status,
  detail,
});

/** The provider as its discovery document and JWKS describe it (OpenID Connect Discovery 1.0 §3). */
interface ProviderMetadata {
  issuer: string;
  authorization: URL;
  token: URL;
  userinfo: URL;
  revocation: URL | undefined;
  jwks: JSONWebKeySet;
}

/** The cookies of the provider's own pages during one run (its interaction and session cookies), sent back as a browser would. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /;\s*max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  headers(): Record<string, string> {
    if (this.#cookies.size === 0) return {};
    return { cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

/** A JSON object answered with 200, or why not (the body of any other answer is dropped unread). */
async function jsonOf(response: Response): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  if (response.status !== 200) {
    // OAuth errors come as JSON with 400 and 401 (RFC 6749 §5.2).
    if (response.status === 400 || response.status === 401) return { status: response.status, body: await readObject(response) };
    return { status: (await statusOf(response)).status, body: undefined };
  }
  return { status: 200, body: await readObject(response) };
}

async function readObject(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An OAuth error's code and description, as the provider wrote them (RFC 6749 §5.2). */
const oauthError = (body: Record<string, unknown> | undefined) => ({
  error: text(body?.['error']).slice(0, 100),
  description: text(body?.['error_description']).slice(0, 200),
});

/**
 * 发现文档与 JWKS: the document at the issuer's well-known address names that issuer and endpoints
 * under it, and its JWKS holds a key for the ID tokens' algorithm.
 */
async function discover(issuer: string): Promise<{ step: SelfTestStep; provider?: ProviderMetadata }> {
  const url = new URL(`${issuer}/.well-known/openid-configuration`);
  const failed = (detail: string) => ({ step: step('discovery', 'failed', detail) });
  const answer = await exchange(url, { method: 'GET', headers: { accept: 'application/json' } });
  if (!answer.ok) return failed(M.discoveryFailed(url.href, answer.reason));
  const document = await jsonOf(answer.response);
  if (document.status !== 200) return failed(M.discoveryStatus(url.href, document.status));
  if (!document.body) return failed(M.discoveryUnreadable(url.href));
  const found = text(document.body['issuer']);
  if (found !== issuer) return failed(M.issuerMismatch(url.href, found, issuer));
  const endpoints: Partial<Record<string, URL>> = {};
  for (const name of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'revocation_endpoint']) {
    const value = text(document.body[name]);
    if (!value) {
      if (name === 'revocation_endpoint') continue;
      return failed(M.endpointMissing(name));
    }
    // Every request of the run goes to the issuer's own endpoints, never elsewhere.
    if (!value.startsWith(`${issuer}/`) || !URL.canParse(value)) return failed(M.endpointElsewhere(name, value.slice(0, 200), issuer));
    endpoints[name] = new URL(value);
  }
  const { authorization_endpoint: authorization, token_endpoint: token, userinfo_endpoint: userinfo, jwks_uri: jwksUri } = endpoints;
  if (!authorization || !token || !userinfo || !jwksUri) return failed(M.endpointMissing('jwks_uri'));

  const keysAnswer = await exchange(jwksUri, { method: 'GET', headers: { accept: 'application/json' } });
  if (!keysAnswer.ok) return failed(M.jwksFailed(jwksUri.href, keysAnswer.reason));
  const keySet = await jsonOf(keysAnswer.response);
  if (keySet.status !== 200) return failed(M.jwksStatus(jwksUri.href, keySet.status));
  const keys = keySet.body?.['keys'];
  if (!Array.isArray(keys)) return failed(M.jwksUnreadable(jwksUri.href));
  const signing = keys.filter(
    (k): k is Record<string, unknown> => k !== null && typeof k === 'object' && (k as { use?: unknown }).use !== 'enc',
  );
  const algs = [...new Set(signing.map((k) => text(k['alg'])).filter(Boolean))];
  if (!algs.includes(ID_TOKEN_SIGNING_ALG)) return failed(M.noSigningKey(jwksUri.href, ID_TOKEN_SIGNING_ALG));
  return {
    step: step('discovery', 'passed', M.discovered(url.href, issuer, jwksUri.href, signing.length, algs.join('、'))),
    provider: {
      issuer,
      authorization,
      token,
      userinfo,
      revocation: endpoints['revocation_endpoint'],
      jwks: { keys: signing } as JSONWebKeySet,
    },
  };
}

/** 回调地址已登记: redirect_uri is compared exactly (OAuth 2.1 §4.1.1, OIDC Core §3.1.2.1), so the check does too. */
function checkRedirectRegistered(application: SsoApplication, oidc: OidcSettings, redirectUri: string): SelfTestStep {
  if (!redirectUri) return step('redirectRegistered', 'failed', M.noRedirectUris(application.name));
  if (!oidc.redirectUris.includes(redirectUri))
    return step('redirectRegistered', 'failed', M.redirectNotOwn(redirectUri, application.name));
  return step('redirectRegistered', 'passed', M.redirectRegistered(redirectUri, application.name));
}

/** 回调地址可访问: any HTTP answer shows the application is there (without a code it may well refuse). */
async function checkRedirectReachable(app: FastifyInstance, redirectUri: string): Promise<SelfTestStep> {
  const url = new URL(redirectUri);
  const answer = await exchange(url, { method: 'GET' }, app.outbound);
  if (!answer.ok) return step('redirectReachable', 'failed', M.redirectFailed(redirectUri, answer.reason));
  const { status, location } = await statusOf(answer.response);
  if (status >= 300 && status < 400 && location) {
    return step('redirectReachable', 'passed', M.redirectReachableRedirect(redirectUri, status, redirectTarget(location, url)));
  }
  return step('redirectReachable', 'passed', M.redirectReachable(redirectUri, status));
}

/**
 * 后端登出地址可响应: an invalid logout_token, which an application must refuse with 400 (Back-Channel
 * Logout 1.0 §2.8), so no session of it ends. A redirect (a login page) or a 5xx cannot take a real one.
 */
async function checkBackchannel(app: FastifyInstance, oidc: OidcSettings): Promise<SelfTestStep> {
  const uri = oidc.backchannelLogoutUri;
  if (!uri) return step('backchannel', 'skipped', M.noBackchannel);
  const url = new URL(uri);
  const body = new URLSearchParams({ logout_token: `self-test.${randomBytes(12).toString('hex')}.invalid` });
  const answer = await exchange(
    url,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    app.outbound,
  );
  if (!answer.ok) return step('backchannel', 'failed', M.backchannelFailed(uri, answer.reason));
  const { status, location } = await statusOf(answer.response);
  if (status === 400) return step('backchannel', 'passed', M.backchannel(uri, status));
  if (status >= 200 && status < 300) return step('backchannel', 'passed', M.backchannelAccepted(uri, status));
  if (status >= 300 && status < 400) {
    return step('backchannel', 'failed', M.backchannelRedirect(uri, status, location ? redirectTarget(location, url) : ''));
  }
  if (status >= 500) return step('backchannel', 'failed', M.backchannelStatus(uri, status));
  return step('backchannel', 'passed', M.backchannelAnswered(uri, status));
}

/** RFC 6749 §2.3.1: client id and secret form-encoded, then Basic. */
function basicAuthorization(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

interface SignIn {
  account: SelfTestAccount;
  application: SsoApplication;
  oidc: OidcSettings;
  redirectUri: string;
  secret: string;
  provider: ProviderMetadata;
}

type Hop = { ok: true; status: number; location: URL | undefined } | { ok: false; reason: string };

/**
 * 测试账号登录 through the provider's real endpoints, as a browser of the administrator would go: the
 * authorization request (PKCE S256, state, nonce), the provider's sign-in page that sends it to the
 * central login, a service ticket from the administrator's live SSO session for that login's callback
 * (under the rules /cas/login applies: 应用授权, an enabled application), the callback and the
 * resumed request, which ends at the redirect URI with the code. The redirect URI is never visited.
 * `ticket` is set once a ticket was issued: the caller ends that sign-in after the run.
 */
async function authorize(
  app: FastifyInstance,
  run: SignIn,
  checks: { verifier: string; state: string; nonce: string },
  issued: { ticket?: string },
): Promise<{ step: SelfTestStep; code?: string }> {
  const { account, application, oidc, redirectUri, provider } = run;
  const failed = (detail: string) => ({ step: step('authorize', 'failed', detail) });
  const tgtId = await app.casTicketService.tgtOfServiceTicket(account.serviceTicket);
  const tgt = tgtId ? await app.casTicketService.liveTgt(tgtId) : undefined;
  if (!tgt || tgt.accountId !== account.id) return failed(SelfTestMessage.noSsoSession);
  if (application.status !== 'enabled') return failed(SelfTestMessage.appDisabled(application.name));
  if (!(await app.ssoAppRepository.mayUse(account.id, application.id))) {
    return failed(SelfTestMessage.notAuthorized(account.username, application.name));
  }

  const jar = new CookieJar();
  const hop = async (url: URL): Promise<Hop> => {
    const answer = await exchange(url, { method: 'GET', headers: jar.headers() });
    if (!answer.ok) return answer;
    jar.take(answer.response);
    const { status, location } = await statusOf(answer.response);
    return { ok: true, status, location: location && URL.canParse(location, url.href) ? new URL(location, url) : undefined };
  };
  const unexpected = (answer: Hop, url: URL, where: string) => {
    if (!answer.ok) return failed(M.authorizeFailed(url.href, answer.reason));
    return failed(answer.status >= 400 ? M.authorizeStatus(url.href, answer.status) : M.authorizeUnexpected(where));
  };
  // A hop is followed only to the issuer's own pages; the last one's redirect to the redirect URI is read, never visited.
  const registeredAt = new URL(redirectUri);
  const atRedirect = (location: URL | undefined) =>
    location !== undefined && location.origin === registeredAt.origin && location.pathname === registeredAt.pathname;
  const refused = (location: URL) =>
    failed(M.authorizeRefused(location.searchParams.get('error') ?? '', location.searchParams.get('error_description') ?? ''));

  const request = new URL(provider.authorization);
  const scope = oidc.scopes.filter((s) => s !== 'offline_access');
  request.search = new URLSearchParams({
    response_type: 'code',
    client_id: oidc.clientId,
    redirect_uri: redirectUri,
    scope: (scope.includes('openid') ? scope : ['openid', ...scope]).join(' '),
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: createHash('sha256').update(checks.verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const started = await hop(request);
  const interaction = started.ok ? started.location : undefined;
  if (atRedirect(interaction) && interaction?.searchParams.has('error')) return refused(interaction);
  if (!interaction?.href.startsWith(`${provider.issuer}/interaction/`)) return unexpected(started, request, '授权端点');

  const toLogin = await hop(interaction);
  const service = toLogin.ok ? toLogin.location?.searchParams.get('service') : undefined;
  if (!service) return unexpected(toLogin, interaction, '转到统一身份认证登录');
  // The central login's own resolution of the callback: it must sign in to this application.
  const registered = await app.casApplicationService.resolve(service, publicSiteUrl(app.config));
  if (registered?.application?.id !== application.id) return failed(M.callbackElsewhere);
  issued.ticket = await app.casTicketService.issueServiceTicket(tgt.id, service, false, application.id);

  const callback = new URL(service);
  callback.searchParams.set('ticket', issued.ticket);
  const back = await hop(callback);
  const resume = back.ok ? back.location : undefined;
  if (!resume?.href.startsWith(`${provider.issuer}/auth/`)) return unexpected(back, new URL(service), '统一身份认证登录回调');

  const finished = await hop(resume);
  const answer = finished.ok ? finished.location : undefined;
  if (!answer || !atRedirect(answer)) return unexpected(finished, resume, '签发授权码');
  if (answer.searchParams.has('error')) return refused(answer);
  if (answer.searchParams.get('state') !== checks.state) return failed(M.authorizeStateMismatch);
  // RFC 9207: the authorization response names its issuer.
  const iss = answer.searchParams.get('iss');
  if (iss !== null && iss !== provider.issuer) return failed(M.authorizeIssuerMismatch(iss.slice(0, 200), provider.issuer));
  const code = answer.searchParams.get('code');
  if (!code) return failed(M.authorizeUnexpected('签发授权码'));
  return { step: step('authorize', 'passed', M.authorized(account.username, redirectUri)), code };
}

interface Tokens {
  accessToken: string;
  idToken: string;
  refreshToken: string | undefined;
}

/** The client's authentication at the token and revocation endpoints: Basic for a confidential client, its id alone for a public one. */
function clientAuthentication(run: SignIn, body: URLSearchParams): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (run.oidc.clientType === 'confidential') headers['authorization'] = basicAuthorization(run.oidc.clientId, run.secret);
  else body.set('client_id', run.oidc.clientId);
  return headers;
}

/** 令牌交换: the code with its PKCE verifier (RFC 7636 §4.5) at the token endpoint, as the application would. */
async function exchangeCode(run: SignIn, code: string, verifier: string): Promise<{ step: SelfTestStep; tokens?: Tokens }> {
  const url = run.provider.token;
  const failed = (detail: string) => ({ step: step('token', 'failed', detail) });
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: run.redirectUri, code_verifier: verifier });
  const headers = clientAuthentication(run, body);
  const answer = await exchange(url, { method: 'POST', headers, body });
  if (!answer.ok) return failed(M.tokenFailed(url.href, answer.reason));
  const { status, body: json } = await jsonOf(answer.response);
  if (status !== 200) {
    const { error, description } = oauthError(json);
    if (error === 'invalid_client') return failed(M.wrongSecret(url.href));
    return failed(error ? M.tokenRefused(url.href, error, description) : M.tokenStatus(url.href, status));
  }
  const accessToken = text(json?.['access_token']);
  const idToken = text(json?.['id_token']);
  if (!accessToken || !idToken) return failed(M.tokenIncomplete(url.href));
  const refreshToken = text(json?.['refresh_token']) || undefined;
  return {
    step: step('token', 'passed', M.exchanged(url.href, refreshToken !== undefined, run.oidc.clientType === 'confidential')),
    tokens: { accessToken, idToken, refreshToken },
  };
}

/** ID Token 校验 (OIDC Core §3.1.3.7): its signature against the JWKS, iss, aud, exp, and the nonce of the request. */
async function verifyIdToken(run: SignIn, idToken: string, nonce: string): Promise<{ step: SelfTestStep; sub?: string }> {
  const failed = (detail: string) => ({ step: step('idToken', 'failed', detail) });
  const { issuer } = run.provider;
  const clientId = run.oidc.clientId;
  try {
    const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(run.provider.jwks), {
      issuer,
      audience: clientId,
      algorithms: [ID_TOKEN_SIGNING_ALG],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (payload['nonce'] !== nonce) return failed(M.idTokenNonce);
    const sub = payload.sub ?? '';
    const expires = chinaTime(new Date((payload.exp ?? 0) * 1000));
    return { step: step('idToken', 'passed', M.idTokenVerified(protectedHeader.alg, protectedHeader.kid ?? '', sub, expires)), sub };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return failed(M.idTokenExpired);
    if (err instanceof joseErrors.JWTClaimValidationFailed) {
      const why: Record<string, string> = { iss: `应为 issuer ${issuer}`, aud: `应含客户端 ID ${clientId}` };
      return failed(M.idTokenClaim(err.claim, err.reason === 'missing' ? '缺少该声明' : (why[err.claim] ?? '校验未通过')));
    }
    if (
      err instanceof joseErrors.JWSSignatureVerificationFailed ||
      err instanceof joseErrors.JWKSNoMatchingKey ||
      err instanceof joseErrors.JWKSMultipleMatchingKeys
    ) {
      return failed(M.idTokenSignature(err.code));
    }
    if (err instanceof joseErrors.JOSEError) return failed(M.idTokenMalformed(err.code));
    throw err;
  }
}

/** A claim's values as the checklist lists them. */
function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (value !== null && typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

/** 用户信息: the access token at the userinfo endpoint answers the ID token's subject (OIDC Core §5.3.2). */
async function readUserinfo(
  run: SignIn,
  accessToken: string,
  sub: string,
): Promise<{ step: SelfTestStep; claims?: Record<string, string[]> }> {
  const url = run.provider.userinfo;
  const failed = (detail: string) => ({ step: step('userinfo', 'failed', detail) });
  const answer = await exchange(url, { method: 'GET', headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
  if (!answer.ok) return failed(M.userinfoFailed(url.href, answer.reason));
  const { status, body } = await jsonOf(answer.response);
  if (status !== 200) return failed(M.userinfoStatus(url.href, status));
  if (!body) return failed(M.userinfoUnreadable(url.href));
  const got = text(body['sub']);
  if (got !== sub) return failed(M.userinfoSubject(url.href, got.slice(0, 64), sub));
  const claims = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, claimValues(value)]));
  const username = text(body['preferred_username']) || run.account.username;
  return { step: step('userinfo', 'passed', M.userinfo(url.href, username, sub, Object.keys(claims).join('、'))), claims };
}

/** Revokes the refresh token (RFC 7009), which ends its grant with every token under it, as a signing-out client would. */
async function revoke(run: SignIn, tokens: Tokens): Promise<void> {
  const url = run.provider.revocation;
  if (!url) return;
  const body = new URLSearchParams(
    tokens.refreshToken
      ? { token: tokens.refreshToken, token_type_hint: 'refresh_token' }
      : { token: tokens.accessToken, token_type_hint: 'access_token' },
  );
  const answer = await exchange(url, { method: 'POST', headers: clientAuthentication(run, body), body });
  if (answer.ok) await statusOf(answer.response);
}

/** The four sign-in steps; whatever they were issued ends before the answer leaves. */
async function signInSteps(app: FastifyInstance, run: SignIn): Promise<{ steps: SelfTestStep[]; claims: Record<string, string[]> }> {
  const skipped = (key: OidcSelfTestStepKey, detail: string) => step(key, 'skipped', detail);
  const checks = {
    verifier: randomBytes(32).toString('base64url'),
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  };
  const issued: { ticket?: string } = {};
  let tokens: Tokens | undefined;
  try {
    const authorization = await authorize(app, run, checks, issued);
    if (!authorization.code) {
      return {
        steps: [
          authorization.step,
          skipped('token', M.skippedNoCode),
          skipped('idToken', M.skippedNoCode),
          skipped('userinfo', M.skippedNoCode),
        ],
        claims: {},
      };
    }
    const exchanged = await exchangeCode(run, authorization.code, checks.verifier);
    tokens = exchanged.tokens;
    if (!tokens) {
      return {
        steps: [authorization.step, exchanged.step, skipped('idToken', M.skippedNoToken), skipped('userinfo', M.skippedNoToken)],
        claims: {},
      };
    }
    const verified = await verifyIdToken(run, tokens.idToken, checks.nonce);
    // An ID token that did not verify still names the subject userinfo must answer for.
    const userinfo = await readUserinfo(run, tokens.accessToken, verified.sub ?? unverifiedSubject(tokens.idToken));
    return { steps: [authorization.step, exchanged.step, verified.step, userinfo.step], claims: userinfo.claims ?? {} };
  } finally {
    // The test sign-in does not outlive the run: its tokens are revoked at the provider, then its
    // ticket, grant (a code never exchanged too) and provider session end.
    if (tokens) await revoke(run, tokens).catch(() => undefined);
    if (issued.ticket) await app.oidcSignInService.endTestSignIn(issued.ticket);
  }
}

function unverifiedSubject(idToken: string): string {
  try {
    return decodeJwt(idToken).sub ?? '';
  } catch {
    return '';
  }
}

/**
 * 接入自检 of an OpenID Connect application (tool 03 and 应用列表): the provider's discovery document
 * and JWKS, the redirect URI registered (exactly) and answering, the back-channel logout address
 * answering an invalid logout_token, then a real authorization-code sign-in with PKCE S256 as the
 * administrator running it (when 应用授权 admits them), the token exchange (a confidential client with
 * the secret typed for this run), the ID token verified against the JWKS, and userinfo. Addresses of
 * the application are contacted through the outbound rules; the provider at its issuer, as the
 * application would. What the run was issued is revoked before it answers.
 */
export async function runOidcSelfTest(
  app: FastifyInstance,
  application: SsoApplication,
  oidc: OidcSettings,
  input: OidcSelfTestInput,
  account: SelfTestAccount,
): Promise<SelfTestResult> {
  const issuer = `${publicSiteUrl(app.config)}${OIDC_PREFIX}`;
  const redirectUri = input.redirectUri?.trim() || oidc.redirectUris[0] || '';
  const secret = input.clientSecret ?? '';
  const result = (steps: SelfTestStep[], attributes: Record<string, string[]> = {}): SelfTestResult => ({
    applicationId: application.id,
    protocol: 'oidc',
    service: redirectUri,
    username: account.username,
    passed: steps.every((s) => s.status !== 'failed'),
    steps,
    attributes,
    ranAt: chinaTime(new Date()),
  });

  const registered = checkRedirectRegistered(application, oidc, redirectUri);
  const [discovery, signInSkipped] = await Promise.all([
    discover(issuer),
    signInSkipReason(app, application, account.id, account.username),
  ]);
  const backchannel = checkBackchannel(app, oidc);
  const signIn = async (): Promise<{ steps: SelfTestStep[]; claims: Record<string, string[]> }> => {
    const all = (status: SelfTestStepStatus, detail: string) =>
      (['authorize', 'token', 'idToken', 'userinfo'] as const).map((key) => step(key, status, detail));
    if (registered.status !== 'passed') return { steps: all('skipped', M.skippedUnregistered), claims: {} };
    if (signInSkipped) return { steps: all('skipped', signInSkipped), claims: {} };
    if (!discovery.provider) return { steps: all('skipped', M.skippedDiscovery), claims: {} };
    if (oidc.clientType === 'confidential' && !secret) {
      const [authorizeStep, , idTokenStep, userinfoStep] = all('skipped', M.skippedSecretMissing);
      return { steps: [authorizeStep!, step('token', 'failed', M.secretMissing), idTokenStep!, userinfoStep!], claims: {} };
    }
    return signInSteps(app, { account, application, oidc, redirectUri, secret, provider: discovery.provider });
  };
  const [reachable, backchannelStep, signedIn] = await Promise.all([
    registered.status === 'passed'
      ? checkRedirectReachable(app, redirectUri)
      : Promise.resolve(step('redirectReachable', 'skipped', M.skippedUnregistered)),
    backchannel,
    signIn(),
  ]);
  return result([discovery.step, registered, reachable, backchannelStep, ...signedIn.steps], signedIn.claims);
}
