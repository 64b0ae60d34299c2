import { randomBytes, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiPrefix,
  EmptyAnswerSchema,
  PasswordChangeBodySchema,
  PasswordTransportKeySchema,
  PortalCallbackQuerySchema,
  PortalLoginQuerySchema,
  PortalAppMenuSchema,
  PortalMenuEntrySchema,
  PortalTokenSchema,
  siteRedirectPath,
} from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, ErrorEnvelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { resolveRuntimeConfig } from '../../platform/config.js';
import { BadRequestError, TooManyRequestsError, UnauthorizedError } from '../../platform/lib/errors.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { loopbackOrigin } from '../../platform/lib/loopback-origin.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { portalUser } from '../accounts/account-repository.js';
import { TOKEN_TYPE } from './access-tokens.js';
import { sessionIndexOf } from './cas-client.js';
import { PORTAL_CALLBACK_PATH, SESSION_COOKIE } from './portal-sessions.js';
import escapeHtml from 'escape-html';
import { actorOf } from './auth.js';

const CALLBACK_PATH = PORTAL_CALLBACK_PATH;
/** Where a login starts (the web app's login links and its silent single sign-on go here). */
const LOGIN_PATH = `${ApiPrefix.portalAuth}/cas/login`;
/**
 * Login CSRF (OWASP login CSRF; RFC 6749 §10.12's `state`): a random state in an HttpOnly cookie set
 * where this browser started the login, and in the callback address the CAS returns to; the callback
 * takes a ticket only when both agree. The silent check keeps its own, so it never voids a visible login.
 */
const LOGIN_STATE = 'PORTAL_LOGIN_STATE';
const SILENT_STATE = 'PORTAL_SSO_STATE';
const STATE_PATH = `${ApiPrefix.portalAuth}/cas`;
const STATE_SECONDS = 600;
/** Password-change attempts per account a minute (besides the account lockout). */
const PASSWORD_CHANGES_PER_MINUTE = 5;

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The service URL the CAS saw: this request's URL without the `ticket` parameter. */
function serviceUrl(base: string, rawUrl: string): string {
  const [path = '', query = ''] = rawUrl.split('?', 2) as [string, string?];
  const kept = query
    .split('&')
    .filter((p) => p && !p.startsWith('ticket='))
    .join('&');
  return `${base}${path}${kept ? `?${kept}` : ''}`;
}

const SILENT_SCRIPT = `(function(){var b=document.body;parent.postMessage({type:'portal-sso',loggedIn:b.getAttribute('data-logged-in')==='1'},location.origin);})();`;

/**
 * The portal side of login (docs/architecture.md, "Login, session and token"): the CAS callback,
 * the menus call, the token endpoint, the password-transport key and the password change.
 */
const portalAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Cookies are parsed and set only by the login routes: an onRequest and an onSend hook less on every other call.
  await app.register(cookie);
  acceptFormBodies(app);
  const { auth } = app.config;
  const portalBase = (request: FastifyRequest) => app.config.publicUrl ?? requestOrigin(request);
  const registry = app.casApplicationService;
  /** A page of this site to return to: anything else (other hosts, `//`, `/\`, encoded tricks) is the home page. */
  const targetOf = (request: FastifyRequest, target: string | undefined) => siteRedirectPath(target, portalBase(request)) ?? '/';

  /** Where tickets are validated: the configured CAS, or the embedded one over loopback. */
  function casServerUrl(): string {
    return auth.casServerUrl ?? `${loopbackOrigin(app)}/cas`;
  }

  const cookieOptions = (request: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  });
  // Lax: the CAS sends the browser back with a top-level GET, also from another site.
  const stateCookieOptions = (request: FastifyRequest) => ({ ...cookieOptions(request), path: STATE_PATH, maxAge: STATE_SECONDS });

  /** The login start for `target` (a second try after a refused state says so, so it cannot loop). */
  function loginStart(target: string, retry: boolean): string {
    return `${LOGIN_PATH}?${new URLSearchParams({ target, ...(retry ? { retry: '1' } : {}) }).toString()}`;
  }

  // The callback's pages depend on the caller: they keep the default `private, no-store`.
  function silentPage(reply: FastifyReply, loggedIn: boolean): string {
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>SSO</title></head><body data-logged-in="${loggedIn ? '1' : '0'}"><script src="${STATE_PATH}/silent.js"></script></body></html>`;
  }

  function failurePage(reply: FastifyReply, request: FastifyRequest, description: string): string {
    const login = new URL(`${portalBase(request)}/`);
    reply.code(401).type('text/html; charset=utf-8');
    return (
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>登录失败 - Engineering e+</title>` +
      `<link rel="stylesheet" href="/cas/assets/login.css"></head><body><main class="cas"><section class="cas-card" style="border-radius:16px">` +
      `<h1>登录验证失败</h1><p class="cas-card__text">${escapeHtml(description)}，请重新登录。</p>` +
      `<div class="cas-links cas-links--buttons"><a class="cas-button" href="${escapeHtml(login.toString())}">返回门户首页</a></div></section></main></body></html>`
    );
  }

  app.get(
    LOGIN_PATH,
    {
      schema: {
        tags: ['portal-auth'],
        summary: '开始登录：记录本浏览器的登录状态并转到统一身份认证',
        querystring: PortalLoginQuerySchema,
        // 303 to the CAS login (with gateway=true in silent mode).
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      const base = portalBase(request);
      const silent = request.query.mode === 'silent';
      const state = randomBytes(16).toString('base64url');
      reply.setCookie(silent ? SILENT_STATE : LOGIN_STATE, state, stateCookieOptions(request));
      const callback = new URLSearchParams(silent ? { mode: 'silent' } : { target: targetOf(request, request.query.target) });
      if (request.query.retry && !silent) callback.set('retry', '1');
      callback.set('state', state);
      const login = new URL(resolveRuntimeConfig(app.config, base).casLoginUrl);
      login.searchParams.set('service', `${base}${CALLBACK_PATH}?${callback.toString()}`);
      // CAS 3.0 §2.1.1: gateway asks the CAS without showing its login form.
      if (silent) login.searchParams.set('gateway', 'true');
      return reply.redirect(login.toString(), 303);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        tags: ['portal-auth'],
        summary: 'CAS 登录回调：核对登录状态、校验票据、建立门户会话并返回原页面',
        querystring: PortalCallbackQuerySchema,
        // 303 back to the target; HTML in silent mode and when the ticket is refused.
        response: { 200: Type.String({ description: 'text/html' }), ...errorResponses, '4xx': Type.Union([Type.String(), ErrorEnvelope]) },
      },
    },
    async (request, reply) => {
      const base = portalBase(request);
      const silent = request.query.mode === 'silent';
      const target = targetOf(request, request.query.target);
      const { ticket, state, retry } = request.query;
      const stateCookie = silent ? SILENT_STATE : LOGIN_STATE;
      const expected = request.cookies[stateCookie];
      // A state is good for one return from the CAS.
      if (expected !== undefined) reply.clearCookie(stateCookie, { path: STATE_PATH });
      // gateway=true without an SSO session comes back without a ticket: browse on as a visitor.
      if (!ticket) return silent ? silentPage(reply, false) : reply.redirect(target, 303);
      // A ticket for a login this browser did not start (another site's link, a stale tab) opens no
      // session: the login starts again from here, once.
      if (!expected || !state || !sameToken(expected, state)) {
        request.log.warn('login callback without its state');
        if (silent) return silentPage(reply, false);
        if (retry) return failurePage(reply, request, '登录状态已失效');
        return reply.redirect(loginStart(target, true), 303);
      }

      const previous = request.cookies[SESSION_COOKIE];
      const signedIn = await app.portalAuthService.signIn(casServerUrl(), serviceUrl(base, request.url), ticket, previous);
      if (!signedIn.ok) {
        if (signedIn.code !== undefined) request.log.warn({ cas: signedIn.code }, 'service ticket rejected');
        return silent ? silentPage(reply, false) : failurePage(reply, request, signedIn.description);
      }
      reply.setCookie(SESSION_COOKIE, signedIn.session, cookieOptions(request));
      return silent ? silentPage(reply, true) : reply.redirect(target, 303);
    },
  );

  // CAS single logout (protocol §2.3.3): the CAS posts `logoutRequest` to the service URL.
  app.post(
    CALLBACK_PATH,
    {
      config: { csrf: false },
      schema: {
        tags: ['portal-auth'],
        summary: 'CAS 单点登出通知',
        body: Type.Object({ logoutRequest: Type.String({ maxLength: 10_000 }) }),
        response: { 200: Type.String({ description: 'text/plain: ok' }), ...errorResponses },
      },
    },
    async (request) => {
      const serviceTicket = sessionIndexOf(request.body.logoutRequest);
      if (!serviceTicket) throw new BadRequestError('单点登出请求格式不正确');
      const closed = await app.portalSessionService.closeByServiceTicket(serviceTicket);
      request.log.info({ closed }, 'single logout');
      return 'ok';
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/cas/silent.js`,
    { schema: { hide: true, response: { 200: Type.String() } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8');
      return SILENT_SCRIPT;
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/menu/list`,
    {
      schema: {
        tags: ['portal-auth'],
        summary: '菜单、用户与令牌（访客为空列表）',
        response: { 200: Envelope(PortalMenuEntrySchema), ...errorResponses },
      },
    },
    async (request) => {
      const session = await app.portalSessionService.fromCookie(request.cookies[SESSION_COOKIE]);
      const profile = session && (await app.accountRepository.profile(session.accountId));
      if (!session || !profile) return ok([]);
      return ok({
        routers: await app.accountRepository.routers(profile.authorities),
        user: portalUser(profile),
        token: {
          token_type: TOKEN_TYPE,
          access_token: app.accessTokenService.issue(session.key, session.accountId),
          expires_in: app.accessTokenService.lifetimeSeconds,
        },
        authorities: profile.authorities,
      });
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/app/menus`,
    {
      schema: {
        tags: ['portal-auth'],
        summary: '门户应用菜单（控制台入口；非空表示需要登录）',
        response: { 200: Envelope(PortalAppMenuSchema), ...errorResponses },
      },
    },
    async () => ok(await app.accountRepository.appMenus()),
  );

  /** CORS for the token endpoint: registered origins only, with credentials. */
  function allowOrigin(request: FastifyRequest, reply: FastifyReply) {
    const origin = request.headers.origin;
    if (!origin) return;
    if (!registry.isRegisteredOrigin(origin, portalBase(request))) return;
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-credentials', 'true')
      .header('access-control-allow-headers', 'X-Requested-With, Authorization, Content-Type')
      .header('access-control-allow-methods', 'GET, OPTIONS')
      .header('vary', 'Origin');
  }

  app.options(`${ApiPrefix.portalAuth}/oauth/token`, { schema: { hide: true, response: { 204: Type.Null() } } }, async (request, reply) => {
    allowOrigin(request, reply);
    reply.code(204);
    return null;
  });

  app.get(
    `${ApiPrefix.portalAuth}/oauth/token`,
    {
      schema: {
        tags: ['portal-auth'],
        summary: '换取新的访问令牌（需登录会话）',
        response: { 200: Envelope(PortalTokenSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      allowOrigin(request, reply);
      const session = await app.portalSessionService.fromCookie(request.cookies[SESSION_COOKIE]);
      if (!session) throw new UnauthorizedError('登录已失效，请重新登录');
      return ok({
        token_type: TOKEN_TYPE,
        access_token: app.accessTokenService.issue(session.key, session.accountId),
        expires_in: app.accessTokenService.lifetimeSeconds,
      });
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/account/public-key`,
    {
      schema: {
        tags: ['portal-auth'],
        summary: '密码传输公钥（RSA-OAEP SHA-256，SPKI DER base64）',
        response: { 200: Envelope(PasswordTransportKeySchema), ...errorResponses },
      },
    },
    async () => ok({ algorithm: 'RSA-OAEP-256', publicKey: await app.passwordTransportService.publicKey() }),
  );

  app.put(
    `${ApiPrefix.portalAuth}/account/password`,
    {
      onRequest: app.authenticate,
      config: {
        // Guessing the current password from a stolen session: a few tries a minute per account.
        rateLimit: {
          limit: 'password-change',
          max: PASSWORD_CHANGES_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) => `account:${request.principal?.accountId ?? request.ip}`,
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(`修改密码尝试过于频繁，请 ${Math.ceil(context.ttl / 1000)} 秒后再试`),
        },
      },
      schema: {
        tags: ['portal-auth'],
        summary: '修改密码（三个字段均以 RSA-OAEP 加密后 base64 传输）',
        body: PasswordChangeBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (!principal) throw new UnauthorizedError();
      const ended = await app.portalAuthService.changePassword(principal, request.body, { ip: request.ip, log: request.log });
      await app.ssoSessionService.notify(actorOf(request), ended);
      return ok([], '密码修改成功');
    },
  );
};

export default portalAuthRoutes;
