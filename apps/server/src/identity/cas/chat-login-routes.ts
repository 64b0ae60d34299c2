import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_SOURCE_TYPE_LABELS, CHAT_SOURCE_TYPES, type ChatSourceType } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CasChatStartQuerySchema } from '@portal/shared';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { chatPlatform } from '../auth-sources/chat/chat-platform.js';
import { SIGN_IN_SECONDS, SignInStates } from '../auth-sources/chat/sign-in-state.js';
import type { LoginTarget } from './cas-login.js';
import { chooseEnterprisePage, messagePage } from './login-page.js';

/** The cookie binding a QR sign-in's state to the browser that started it (HttpOnly, only under /cas/login). */
const STATE_COOKIE = 'CASCHAT';
const STATE_COOKIE_PATH = '/cas/login';

/** 企业微信 and 飞书 return `code`, 钉钉 `authCode`; a refusal comes back without a code (飞书: error=access_denied). */
const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 1024 })),
  authCode: Type.Optional(Type.String({ maxLength: 1024 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), 502: Html, '5xx': ErrorEnvelope };

/**
 * QR sign-in at the central login with 企业微信, 钉钉 and 飞书 (OAuth 2.0 authorization code,
 * RFC 6749 §4.1). The button goes to the enterprise's app on the platform (选择企业 first when several
 * enterprises use the platform); the callback identifies the person, finds their account by the linked
 * identity or, the first time, by phone within the enterprise, and then continues the login exactly as
 * a right password does (login-steps.ts): locks, 停用, a new password and two-factor still apply.
 */
const chatLoginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  const { casSignInService: casLogin, loginStepService: steps } = app;
  const states = new SignInStates(await app.systemRepository.sharedKey('cas-chat-sign-in'));
  // Per-client-IP burst window, as in front of the password form: each callback costs calls to the platform.
  const attempts = app.createRateLimit({ limit: 'chat-login', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  /** The platform returns here; registered with the platform's app as its redirect URL (PUBLIC_URL or the checked origin). */
  const redirectUri = (request: FastifyRequest, type: ChatSourceType) => `${casLogin.portalBase(request)}/cas/login/${type}/callback`;

  const noSuchLogin = (request: FastifyRequest, reply: FastifyReply, type: ChatSourceType, target: LoginTarget) =>
    casLogin.renderLogin(request, reply, 404, {
      service: target.service,
      renew: target.renew,
      error: `未找到启用${AUTH_SOURCE_TYPE_LABELS[type]}登录的企业，请使用账号密码登录`,
    });

  /** The person is not known here: a page saying so, and who can help. */
  function unknownPerson(request: FastifyRequest, reply: FastifyReply, type: ChatSourceType, target: LoginTarget, text?: string) {
    const label = AUTH_SOURCE_TYPE_LABELS[type];
    const casBase = casLogin.casBase(request);
    return casLogin.html(
      reply,
      403,
      messagePage(casBase, '无法登录', text ?? `未找到与该${label}账号关联的平台账号，请联系企业管理员。`, [
        { href: `${casBase}/login${target.service ? `?service=${encodeURIComponent(target.service)}` : ''}`, label: '返回账号登录' },
        { href: `${casLogin.portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  }

  for (const type of CHAT_SOURCE_TYPES) {
    const label = AUTH_SOURCE_TYPE_LABELS[type];

    app.get(
      `/login/${type}`,
      { schema: { tags: ['cas'], summary: `CAS 登录：${label}扫码登录`, querystring: CasChatStartQuerySchema, response: PageAnswers } },
      async (request, reply) => {
        const { target, unregistered } = await casLogin.targetOf(request, reply, request.query);
        if (unregistered) return casLogin.unregisteredService(request, reply);
        const start = await app.chatLoginService.start(type, request.query.source);
        if (start.kind === 'none') return noSuchLogin(request, reply, type, target);
        if (start.kind === 'choose') {
          const { service, renew } = target;
          const page = chooseEnterprisePage({ casBase: casLogin.casBase(request), type, service, renew, enterprises: start.enterprises });
          return casLogin.html(reply, 200, page);
        }
        const { source } = start;
        const { state, cookie: bound } = states.start({ type, sourceId: source.id, service: target.service, renew: target.renew });
        reply.setCookie(STATE_COOKIE, bound, {
          path: STATE_COOKIE_PATH,
          httpOnly: true,
          // Lax: the platform's redirect back is a cross-site top-level navigation, which must carry it.
          sameSite: 'lax',
          secure: request.protocol === 'https',
          maxAge: SIGN_IN_SECONDS,
        });
        return reply.redirect(chatPlatform(source, app.config.auth.chatEndpoints).authorizeUrl(state, redirectUri(request, type)), 302);
      },
    );

    app.get(
      `/login/${type}/callback`,
      { schema: { tags: ['cas'], summary: `CAS 登录：${label}扫码登录回调`, querystring: CallbackQuery, response: PageAnswers } },
      async (request, reply) => {
        const cookieValue = request.cookies[STATE_COOKIE];
        // One use: whatever happens next, this browser's pending sign-in ends here.
        reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
        const started = states.read(type, cookieValue);
        const resolved = await casLogin.targetOf(request, reply, { service: started?.service, renew: started?.renew ? 'true' : undefined });
        if (resolved.unregistered) return casLogin.unregisteredService(request, reply);
        const { target } = resolved;
        const restart = (status: number, error: string) =>
          casLogin.renderLogin(request, reply, status, { service: target.service, renew: target.renew, error });
        const burst = await attempts(request);
        if (!burst.isAllowed && burst.isExceeded) {
          reply.header('retry-after', burst.ttlInSeconds);
          return restart(429, `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`);
        }
        const pending = states.finish(type, request.query.state, cookieValue);
        if (!pending) return restart(400, `${label}扫码登录已过期或无效，请重新扫码登录`);
        const code = request.query.code ?? request.query.authCode;
        if (!code) return restart(400, `未完成${label}授权，请重新扫码登录`);
        const client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log };
        const signedIn = await app.chatLoginService.signIn(type, pending.sourceId, code, redirectUri(request, type), client);
        if (signedIn.kind === 'restart') return restart(signedIn.status, signedIn.error);
        if (signedIn.kind === 'unknown') return unknownPerson(request, reply, type, target, signedIn.text);
        // 仅允许通过企业身份提供方登录 holds for 扫码 as for a password (break glass: 企业管理员).
        const forced = await app.federationService.passwordRefusal(signedIn.accountId, client);
        if (forced) return restart(403, forced);
        return steps.next(request, reply, signedIn.accountId, target, 'password');
      },
    );
  }
};

export default chatLoginRoutes;
