import { createHash } from 'node:crypto';
import type { AuthSourceTestStep, OidcSourceConfig } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  createRemoteJWKSet,
  customFetch as jwksCustomFetch,
  decodeJwt,
  decodeProtectedHeader,
  type FetchImplementation,
  type JWTPayload,
  jwtVerify,
} from 'jose';
import * as oidc from 'openid-client';
import {
  type OutboundGuard,
  OutboundRefusedError,
  OutboundTooLargeError,
  errorCodeOf,
  outboundExchange,
} from '../../platform/lib/outbound.js';
import {
  type ExternalIdentity,
  type FederatedSource,
  type FederationAnswer,
  FederationError,
  type FederationKind,
} from './federation-kind.js';

/** A provider's document larger than this is not read (discovery, JWKS, tokens and userinfo are small). */
const MAX_BYTES = 512 * 1024;
/** How long a provider's discovery (and its JWKS cache) is reused before it is read again. */
const DISCOVERY_MS = 10 * 60_000;

type OidcSource = FederatedSource & { type: 'oidc'; config: OidcSourceConfig };

/** openid-client's requests through the outbound address rules, each bounded by `signal` (its timeout). */
function guardedFetch(guard: OutboundGuard, timeoutMs: number): oidc.CustomFetch {
  return async (url, options) => {
    const method = options.method.toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`unsupported method ${method}`);
    const { body } = options;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof URLSearchParams)) {
      throw new TypeError('unsupported request body');
    }
    const answer = await outboundExchange(guard, new URL(url), {
      method,
      headers: options.headers,
      ...(body ? { body: body.toString() } : {}),
      signal: options.signal ?? AbortSignal.timeout(timeoutMs),
      maxBytes: MAX_BYTES,
    });
    const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : answer.text, { status, headers: answer.headers });
  };
}

/** Walks an error's causes (openid-client wraps oauth4webapi's, which wrap the socket's). */
function causes(err: unknown): unknown[] {
  const seen: unknown[] = [];
  let current = err;
  while (typeof current === 'object' && current !== null && !seen.includes(current)) {
    seen.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return seen;
}

/**
 * A provider's failure in Chinese for the page and 测试连接, and a short reason for the server's log
 * (never a token: openid-client's messages name checks, not values).
 */
export function describeOidcError(err: unknown): FederationError {
  if (err instanceof FederationError) return err;
  const chain = causes(err);
  const refused = chain.find((c) => c instanceof OutboundRefusedError);
  if (refused instanceof OutboundRefusedError) return new FederationError(refused.message, 'outbound-refused');
  if (chain.some((c) => c instanceof OutboundTooLargeError)) return new FederationError('身份提供方的响应过大', 'too-large');
  if (chain.some((c) => c instanceof Error && (c.name === 'TimeoutError' || c.name === 'AbortError'))) {
    return new FederationError('身份提供方响应超时', 'timeout');
  }
  if (err instanceof oidc.AuthorizationResponseError) {
    return new FederationError(`身份提供方拒绝了登录请求（${err.error}）`, `authorization-error:${err.error}`);
  }
  if (err instanceof oidc.ResponseBodyError) {
    return new FederationError(`身份提供方拒绝签发令牌（${err.error}），请检查客户端 ID 与密钥`, `token-error:${err.error}`);
  }
  const message = chain.map((c) => (c instanceof Error ? c.message : '')).join(' | ');
  const claim = chain
    .map((c) => (typeof c === 'object' && c !== null ? (c as { claim?: unknown }).claim : undefined))
    .find((c) => typeof c === 'string');
  if (/signature verification failed/i.test(message)) return new FederationError('身份令牌签名无效', 'bad-signature');
  if (/no applicable key|key selection/i.test(message)) return new FederationError('找不到验证身份令牌签名的公钥', 'no-key');
  if (claim === 'iss' || /"iss"/.test(message)) return new FederationError('身份令牌的签发者与发现地址不一致', 'bad-issuer');
  if (claim === 'nonce' || /"nonce"/.test(message)) return new FederationError('身份令牌的 nonce 校验失败', 'bad-nonce');
  if (claim === 'aud' || claim === 'azp' || /"aud"|"azp"/.test(message))
    return new FederationError('身份令牌不是签发给本平台的', 'bad-audience');
  if (/"state"/.test(message)) return new FederationError('登录请求的 state 校验失败', 'bad-state');
  if (/"exp"|"iat"|timestamp/i.test(message)) return new FederationError('身份令牌已过期或时间无效', 'bad-time');
  if (/issuer/i.test(message)) return new FederationError('发现文档中的签发者（issuer）与发现地址不一致', 'bad-discovery-issuer');
  const code = errorCodeOf(err);
  if (code && /^E[A-Z]+/.test(code)) return new FederationError(`无法连接到身份提供方（${code}）`, `network:${code}`);
  return new FederationError('身份提供方的响应无效', `invalid:${(err as { code?: string } | undefined)?.code ?? 'unknown'}`);
}

/**
 * OpenID Connect's kind (OpenID Connect Core 1.0 authorization code flow with PKCE, RFC 7636), as a
 * relying party built with openid-client (OpenID certified): discovery from the issuer, state and
 * nonce, the ID token's signature, issuer, audience, expiry and nonce checked by the library, then the
 * userinfo endpoint's claims for the same subject. Every call goes through the outbound address rules.
 */
export function createOidcKind(
  guard: OutboundGuard,
  timeoutMs: number,
  now = () => Date.now(),
  replays?: (sourceId: number, jti: string, until: Date) => Promise<boolean>,
): FederationKind {
  const customFetch = guardedFetch(guard, timeoutMs);
  // jose's remote key set per source (its own cache and cool-down), fetching through the outbound rules.
  const keySets = new Map<number, { uri: string; keys: ReturnType<typeof createRemoteJWKSet> }>();
  const jwksFetch: FetchImplementation = (url, options) =>
    customFetch(url, {
      method: 'GET',
      body: undefined,
      headers: Object.fromEntries(options.headers),
      redirect: 'manual',
      signal: options.signal,
    });
  function remoteKeys(source: OidcSource, uri: string) {
    const kept = keySets.get(source.id);
    if (kept?.uri === uri) return kept.keys;
    const keys = createRemoteJWKSet(new URL(uri), { [jwksCustomFetch]: jwksFetch, timeoutDuration: timeoutMs });
    keySets.set(source.id, { uri, keys });
    return keys;
  }
  // openid-client counts its timeout in seconds.
  const timeout = timeoutMs / 1000;
  const cache = new Map<number, { key: string; config: oidc.Configuration; until: number }>();

  async function configOf(source: OidcSource, fresh = false): Promise<oidc.Configuration> {
    const { issuer, clientId } = source.config;
    const key = createHash('sha256')
      .update(JSON.stringify([issuer, clientId, source.secret]))
      .digest('hex');
    const cached = cache.get(source.id);
    if (!fresh && cached && cached.key === key && cached.until > now()) return cached.config;
    const insecure = new URL(issuer).protocol === 'http:';
    const config = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretPost(source.secret), {
      [oidc.customFetch]: customFetch,
      timeout,
      // Every ID token's signature is verified against the provider's JWKS, although it comes straight
      // from the token endpoint (OpenID Connect Core §3.1.3.7 would let TLS stand in): an http:// issuer
      // (an intranet provider the operator allowed) has no TLS to trust.
      execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
    });
    config[oidc.customFetch] = customFetch;
    config.timeout = timeout;
    cache.set(source.id, { key, config, until: now() + DISCOVERY_MS });
    return config;
  }

  return {
    type: 'oidc',
    callbackMethod: 'GET',

    async start(source, redirectUri, state, options) {
      const s = source as OidcSource;
      try {
        const config = await configOf(s);
        const verifier = oidc.randomPKCECodeVerifier();
        const nonce = oidc.randomNonce();
        // A sign-in that must be fresh (CAS renew, an application's prompt=login or max_age) is fresh at the
        // provider too (OpenID Connect Core §3.1.2.1): prompt=login and max_age=0, and the answer's auth_time is checked.
        const renew: Record<string, string> = options?.renew ? { prompt: 'login', max_age: '0' } : {};
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: s.config.scopes.trim(),
          response_type: 'code',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
          ...renew,
        });
        const since: Record<string, string> = options?.renew ? { renewSince: String(Math.floor(now() / 1000)) } : {};
        return { url: url.href, pending: { verifier, nonce, ...since } };
      } catch (err) {
        throw describeOidcError(err);
      }
    },

    async finish(source, answer: FederationAnswer): Promise<ExternalIdentity> {
      const s = source as OidcSource;
      const { verifier, nonce } = answer.pending;
      if (!verifier || !nonce) throw new FederationError('登录请求无效', 'pending-missing');
      try {
        const config = await configOf(s);
        // The answer as the provider addressed it: the registered redirect URI with its query.
        const currentUrl = new URL(answer.redirectUri);
        for (const [name, value] of Object.entries(answer.params)) currentUrl.searchParams.set(name, value);
        const tokens = await oidc.authorizationCodeGrant(
          config,
          currentUrl,
          { pkceCodeVerifier: verifier, expectedState: answer.state, expectedNonce: nonce, idTokenExpected: true },
          { redirect_uri: answer.redirectUri },
        );
        const idClaims = tokens.claims();
        if (!idClaims) throw new FederationError('身份提供方未返回身份令牌', 'no-id-token');
        // OpenID Connect Core §3.1.2.1 max_age: auth_time must be present, and here no older than the redirect.
        if (answer.pending.renewSince !== undefined) {
          const authTime = typeof idClaims.auth_time === 'number' ? idClaims.auth_time : 0;
          if (authTime < Number(answer.pending.renewSince) - RENEW_SKEW_SECONDS)
            throw new FederationError('身份提供方没有重新验证身份（auth_time 早于本次登录）', 'stale-auth-time');
        }
        let claims: Record<string, unknown> = { ...idClaims };
        if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
          // The same subject's claims (OpenID Connect Core §5.3.2: userinfo's sub must equal the ID token's).
          const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          claims = { ...claims, ...info };
        }
        return {
          subject: idClaims.sub,
          claims,
          emailVerified: claims.email_verified === true,
          ...(typeof idClaims.sid === 'string' ? { sessionId: idClaims.sid } : {}),
        };
      } catch (err) {
        throw describeOidcError(err);
      }
    },

    /**
     * Back-Channel Logout 1.0 §2.6: the logout token's issuer and audience (this client) read first, so a
     * token meant for no one here fetches nothing; then its typ when present, its signature (the
     * provider's keys, cached), iat, the logout event, a sub or sid, no nonce, and a jti seen once.
     */
    async logout(source, params) {
      const s = source as OidcSource;
      const token = params.logout_token;
      if (!token) throw new FederationError('缺少 logout_token', 'no-logout-token');
      let unverified: JWTPayload;
      let typ: string | undefined;
      try {
        unverified = decodeJwt(token);
        typ = decodeProtectedHeader(token).typ;
      } catch {
        throw new FederationError('logout_token 无效', 'logout-token:malformed');
      }
      try {
        const config = await configOf(s);
        const meta = config.serverMetadata();
        if (unverified.iss !== meta.issuer) throw new FederationError('logout_token 的签发者不是该身份提供方', 'logout-issuer');
        const audiences = Array.isArray(unverified.aud) ? unverified.aud : [unverified.aud];
        if (!audiences.includes(s.config.clientId)) throw new FederationError('logout_token 不是签发给本平台的', 'logout-audience');
        // §2.4 recommends typ logout+jwt; a provider typing it plainly JWT is accepted, any other type (an access token) is not.
        if (typ !== undefined && !LOGOUT_TYPES.has(typ.toLowerCase())) throw new FederationError('logout_token 的类型不符', 'logout-typ');
        const { payload } = await jwtVerify(token, remoteKeys(s, meta.jwks_uri ?? ''), {
          issuer: meta.issuer,
          audience: s.config.clientId,
          maxTokenAge: LOGOUT_TOKEN_AGE,
          clockTolerance: 30,
        });
        const events = payload.events as Record<string, unknown> | undefined;
        const event = events?.[LOGOUT_EVENT];
        if (typeof event !== 'object' || event === null) throw new FederationError('logout_token 不含登出事件', 'no-logout-event');
        if ('nonce' in payload) throw new FederationError('logout_token 不得含 nonce', 'logout-nonce');
        const subject = typeof payload.sub === 'string' ? payload.sub : undefined;
        const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
        if (!subject && !sessionId) throw new FederationError('logout_token 须含 sub 或 sid', 'logout-no-subject');
        if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 256)
          throw new FederationError('logout_token 须含 jti', 'logout-no-jti');
        // Seen once while it could still pass the iat check (its age and the clocks' tolerance).
        const until = new Date(((payload.iat ?? 0) + LOGOUT_TOKEN_SECONDS + 60) * 1000);
        if (replays && !(await replays(s.id, payload.jti, until)))
          throw new FederationError('logout_token 已使用过（重放）', 'logout-replay');
        return { ...(subject ? { subject } : {}), ...(sessionId ? { sessionId } : {}) };
      } catch (err) {
        if (err instanceof FederationError) throw err;
        const code = (err as { code?: string } | undefined)?.code ?? '';
        if (code.startsWith('ERR_J')) throw new FederationError('logout_token 无效', `logout-token:${code}`);
        throw describeOidcError(err);
      }
    },

    async test(source): Promise<AuthSourceTestStep[]> {
      const s = source as OidcSource;
      const steps: AuthSourceTestStep[] = [];
      let config: oidc.Configuration;
      try {
        config = await configOf(s, true);
      } catch (err) {
        steps.push({ name: '读取发现文档', ok: false, detail: describeOidcError(err).message });
        return steps;
      }
      const meta = config.serverMetadata();
      steps.push({ name: '读取发现文档', ok: true, detail: `签发者 ${meta.issuer}` });
      const methods = meta.code_challenge_methods_supported;
      const missing = [
        ...(meta.authorization_endpoint ? [] : ['authorization_endpoint']),
        ...(meta.token_endpoint ? [] : ['token_endpoint']),
        ...(meta.jwks_uri ? [] : ['jwks_uri']),
      ];
      if (missing.length) {
        steps.push({ name: '检查端点', ok: false, detail: `发现文档缺少 ${missing.join('、')}` });
        return steps;
      }
      const pkce = !methods || methods.includes('S256');
      steps.push({
        name: '检查端点',
        ok: pkce,
        detail: pkce
          ? `授权端点 ${meta.authorization_endpoint ?? ''}，令牌端点 ${meta.token_endpoint ?? ''}`
          : '身份提供方不支持 PKCE（S256）',
      });
      if (!pkce) return steps;
      try {
        const jwks = await customFetch(meta.jwks_uri ?? '', {
          method: 'GET',
          body: undefined,
          headers: { accept: 'application/json' },
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        const keys = jwks.ok ? ((await jwks.json()) as { keys?: unknown[] }).keys : undefined;
        const ok = Array.isArray(keys) && keys.length > 0;
        steps.push({ name: '读取签名公钥（JWKS）', ok, detail: ok ? `${keys.length} 个公钥` : `未取得公钥（HTTP ${jwks.status}）` });
      } catch (err) {
        steps.push({ name: '读取签名公钥（JWKS）', ok: false, detail: describeOidcError(err).message });
      }
      return steps;
    },
  };
}

/** The clocks' tolerance between the portal and a provider for a renewed sign-in's auth_time. */
const RENEW_SKEW_SECONDS = 30;

/** OpenID Connect Back-Channel Logout 1.0 §2.4: the event a logout token carries. */
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old a logout token may be (its iat). */
const LOGOUT_TOKEN_SECONDS = 300;
const LOGOUT_TOKEN_AGE = `${LOGOUT_TOKEN_SECONDS} s`;
/** A logout token's `typ` header, when present (Back-Channel Logout 1.0 §2.4). */
const LOGOUT_TYPES = new Set(['logout+jwt', 'application/logout+jwt', 'jwt']);

export default fp(
  async (app: FastifyInstance) => {
    const { repository } = app.federationService;
    app.federationService.registerKind(
      createOidcKind(app.outbound, app.config.auth.federationTimeoutMs, undefined, (sourceId, jti, until) =>
        repository.messageTaken(sourceId, 'logout-jti', jti, until),
      ),
    );
  },
  { name: 'federation-oidc', dependencies: ['federation-service'] },
);
