import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import type { LoginTarget } from '../cas/cas-login.js';
import { messagePage } from '../cas/login-page.js';
import { FEDERATION_SIGN_IN_SECONDS, mapIdentity } from './federation-service.js';
import { FederationError, federationSettings } from './federation-kind.js';
import { FEDERATION_TEST_JS, federationTestPage } from './federation-pages.js';

/** The cookie binding a pending federated sign-in to the browser that started it (HttpOnly, only under its path). */
const BROWSER_COOKIE = 'CASFED';
const COOKIE_PATH = '/cas/login/federation';
/** Logout notices one provider address may send a source per minute (each is checked before any key is fetched). */
const LOGOUT_NOTICES_PER_MINUTE = 600;
/** The cookie naming the provider's session this browser signed in with (read by /cas/logout). */
export const FEDERATION_SESSION_COOKIE = 'CASFEDSP';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const StartQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  /** 测试连接: the console's signed, short-lived link for this source. */
  test: Type.Optional(Type.String({ maxLength: 200 })),
});
/** OIDC's authorization response (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 iss); SAML posts SAMLResponse and RelayState. */
const CallbackFields = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 200_000 }));
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), 502: Html, '5xx': ErrorEnvelope };

/**
 * Federated sign-in at the central login (its README): the button or
 * identity-first's redirect starts here, the enterprise's provider answers at the source's callback,
 * and the account continues through the same steps as a right password (login-steps.ts). 测试连接's
 * popup uses the same two routes and shows what the provider sent instead of signing anyone in.
 */
const federationLoginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  acceptFormBodies(app);
  const { casSignInService: casLogin, loginStepService: steps, federationService: federation, federationTestLinkService: testLinks } = app;
  // Per-client-IP burst window, as in front of the password form: each callback costs calls to the provider.
  const attempts = app.createRateLimit({ limit: 'federation-login', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });
  // The start too: each anonymous start writes a pending sign-in and may read the provider's discovery or metadata.
  const starts = app.createRateLimit({ limit: 'federation-start', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });

  /** Registered at the provider as the source's redirect URI (PUBLIC_URL or the checked origin). */
  const redirectUri = (request: FastifyRequest, id: number) => `${casLogin.portalBase(request)}/cas/login/federation/${id}/callback`;

  const loginHref = (request: FastifyRequest, target: { service: string | undefined }) =>
    `${casLogin.casBase(request)}/login${target.service ? `?service=${encodeURIComponent(target.service)}` : ''}`;

  function refusedPage(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: string,
    text: string,
    target: { service: string | undefined },
  ) {
    return casLogin.html(
      reply,
      status,
      messagePage(casLogin.casBase(request), title, text, [
        { href: loginHref(request, target), label: '返回登录' },
        { href: `${casLogin.portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  }

  app.get('/assets/federation-test.js', { schema: { hide: true, response: { 200: Type.String() } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8');
    return FEDERATION_TEST_JS;
  });

  app.get(
    '/login/federation/:id',
    {
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：跳转到企业身份提供方',
        params: IdParams,
        querystring: StartQuery,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const testing = request.query.test !== undefined;
      if (testing && !testLinks.valid(id, request.query.test ?? '')) {
        return refusedPage(request, reply, 400, '测试链接已失效', '请回到控制台重新点击“测试登录”。', { service: undefined });
      }
      const { target, unregistered } = await casLogin.targetOf(request, reply, request.query);
      if (unregistered) return casLogin.unregisteredService(request, reply);
      const burst = await starts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        return refusedPage(request, reply, 429, '无法登录', `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试。`, target);
      }
      let started;
      try {
        started = await federation.begin({
          sourceId: id,
          purpose: testing ? 'test' : 'login',
          service: target.service,
          renew: target.renew,
          redirectUri: redirectUri(request, id),
        });
      } catch (err) {
        if (!(err instanceof FederationError)) throw err;
        request.log.warn({ sourceId: id, reason: err.reason }, 'federated sign-in could not start');
        return refusedPage(request, reply, 502, '无法连接企业身份提供方', `企业身份认证失败：${err.message}`, target);
      }
      if (!started) return refusedPage(request, reply, 404, '无法登录', '该企业身份提供方不存在或已停用，请使用其他方式登录。', target);
      const secure = request.protocol === 'https';
      reply.setCookie(BROWSER_COOKIE, started.browser, {
        path: COOKIE_PATH,
        httpOnly: true,
        // A GET redirect back is a cross-site top-level navigation, which carries a Lax cookie; a
        // provider's POST back (SAML) carries only a SameSite=None one, which browsers take over HTTPS only.
        sameSite: started.callbackMethod === 'POST' && secure ? 'none' : 'lax',
        secure,
        maxAge: FEDERATION_SIGN_IN_SECONDS,
      });
      return reply.redirect(started.url, 302);
    },
  );

  async function callback(request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply, fields: Record<string, string>) {
    const { id } = request.params;
    const browser = request.cookies[BROWSER_COOKIE];
    // One use: whatever happens next, this browser's pending sign-in ends here.
    reply.clearCookie(BROWSER_COOKIE, { path: COOKIE_PATH });
    const burst = await attempts(request);
    if (!burst.isAllowed && burst.isExceeded) {
      reply.header('retry-after', burst.ttlInSeconds);
      return refusedPage(request, reply, 429, '无法登录', `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试。`, { service: undefined });
    }
    const currentUrl = new URL(request.url, casLogin.portalBase(request));
    const outcome = await federation.complete({
      sourceId: id,
      state: fields.state ?? fields.RelayState,
      browser,
      params: fields,
      currentUrl,
      redirectUri: redirectUri(request, id),
      log: request.log,
    });
    const started = outcome.pending;
    const resolved = await casLogin.targetOf(request, reply, {
      service: started?.service || undefined,
      renew: started?.renew ? 'true' : undefined,
    });
    if (resolved.unregistered) return casLogin.unregisteredService(request, reply);
    const target: LoginTarget = resolved.target;
    if (!outcome.ok) {
      if (started?.purpose === 'test')
        return casLogin.html(
          reply,
          outcome.status,
          federationTestPage(casLogin.casBase(request), casLogin.portalBase(request), id, { ok: false, error: outcome.error }),
        );
      if (started) await federation.recordFailure(started.sourceId, client(request));
      return refusedPage(request, reply, outcome.status, '企业身份登录失败', outcome.error, target);
    }
    const { source, identity } = outcome;
    if (outcome.pending.purpose === 'test') {
      const mapped = mapIdentity(federationSettings(source), identity);
      return casLogin.html(
        reply,
        200,
        federationTestPage(casLogin.casBase(request), casLogin.portalBase(request), id, {
          ok: true,
          subject: identity.subject,
          claims: identity.claims,
          mapped,
        }),
      );
    }
    const signedIn = await federation.signIn(source, identity, client(request));
    if (signedIn.kind === 'refused') return refusedPage(request, reply, signedIn.status, signedIn.title, signedIn.text, target);
    // A kind with single logout (SAML) remembers the provider's session; 退出 reads this cookie to tell the provider.
    const kept = await federation.remember(source, identity, signedIn.accountId);
    if (kept) {
      reply.setCookie(FEDERATION_SESSION_COOKIE, kept, {
        path: '/cas',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    // The provider stands in for the password: two-factor per 安全设置, 应用授权, the session cap and single logout follow.
    // directoryPassword: the account's password is not what signed it in, so no 修改初始密码 or expiry step.
    const policy = await app.securityPolicyRepository.ofEnterprise(source.enterpriseId);
    return steps.next(request, reply, signedIn.accountId, target, 'password', { policy, directoryPassword: true, method: 'federation' });
  }

  // OpenID Connect Back-Channel Logout 1.0 §2.8: 200 when the logout is done, 400 for a token that is not genuine, never cached.
  // Keyed per source and sender: a provider ending many sessions at once (a bulk sign-out) sends a token each, and a
  // stranger's flood at one source costs neither another source nor the provider's own address.
  const logouts = app.createRateLimit({
    limit: 'federation-logout',
    max: LOGOUT_NOTICES_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `federation-logout:${(request.params as { id?: unknown }).id}:${request.ip}`,
  });
  app.post(
    '/login/federation/:id/backchannel-logout',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: '企业身份提供方的后端登出通知（OpenID Connect Back-Channel Logout）',
        params: IdParams,
        body: Type.Object({ logout_token: Type.Optional(Type.String({ maxLength: 20_000 })) }),
        response: {
          200: Type.String(),
          '4xx': Type.Union([Type.Object({ error: Type.String(), error_description: Type.String() }), ErrorEnvelope]),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const burst = await logouts(request);
      if (!burst.isAllowed && burst.isExceeded)
        return reply.code(429).send({ error: 'too_many_requests', error_description: '请求过于频繁' });
      const origin = casLogin.portalBase(request);
      const params = { ...(request.body.logout_token ? { logout_token: request.body.logout_token } : {}) };
      const done = await federation.upstreamLogout(request.params.id, params, { origin, log: request.log });
      if (!done.ok) return reply.code(400).send({ error: 'invalid_request', error_description: done.error });
      return reply.code(200).type('text/plain; charset=utf-8').send('');
    },
  );

  const callbackSchema = { tags: ['cas'], summary: 'CAS 登录：企业身份提供方回调', params: IdParams, response: PageAnswers };
  app.get('/login/federation/:id/callback', { schema: { ...callbackSchema, querystring: CallbackFields } }, (request, reply) =>
    callback(request, reply, request.query),
  );
  app.post(
    '/login/federation/:id/callback',
    { config: { csrf: false }, schema: { ...callbackSchema, body: CallbackFields } },
    (request, reply) => callback(request, reply, request.body),
  );
};

export default federationLoginRoutes;
