import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_SOURCE_TYPE_LABELS, CHAT_SOURCE_TYPES, type ChatSourceType, type LoginFailureReason, PHONE_PATTERN } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { ChatIdentityRepository } from '../auth-sources/chat/chat-identity-repository.js';
import { chatPlatform } from '../auth-sources/chat/chat-platform.js';
import { SIGN_IN_SECONDS, SignInStates } from '../auth-sources/chat/sign-in-state.js';
import { DirectoryError, type DirectoryUser, type LoadedSource } from '../auth-sources/directory.js';
import type { LoginTarget } from './cas-login.js';
import { chooseEnterprisePage, messagePage } from './login-page.js';

/** The cookie binding a QR sign-in's state to the browser that started it (HttpOnly, only under /cas/login). */
const STATE_COOKIE = 'CASCHAT';
const STATE_COOKIE_PATH = '/cas/login';

const StartQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  /** The enterprise's source, picked on 选择企业. */
  source: Type.Optional(Type.String({ maxLength: 20 })),
});
/** 企业微信 and 飞书 return `code`, 钉钉 `authCode`; a refusal comes back without a code (飞书: error=access_denied). */
const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 1024 })),
  authCode: Type.Optional(Type.String({ maxLength: 1024 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), 502: Html, '5xx': ErrorEnvelope };

type ChatSource = LoadedSource & { type: ChatSourceType };

/**
 * QR sign-in at the central login with 企业微信, 钉钉 and 飞书 (OAuth 2.0 authorization code,
 * RFC 6749 §4.1). The button goes to the enterprise's app on the platform (选择企业 first when several
 * enterprises use the platform); the callback identifies the person, finds their account by the linked
 * identity or, the first time, by phone within the enterprise, and then continues the login exactly as
 * a right password does (login-steps.ts): locks, 停用, a new password and two-factor still apply.
 */
const chatLoginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  const { casLogin, loginSteps: steps, accountRepository: accounts, authSourceRepository: sources } = app;
  const states = new SignInStates(await app.systemRepository.sharedKey('cas-chat-sign-in'));
  const identities = new ChatIdentityRepository(app.database.db, sources);
  // Per-client-IP burst window, as in front of the password form: each callback costs calls to the platform.
  const attempts = app.createRateLimit({ max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  /** The platform returns here; registered with the platform's app as its redirect URL (PUBLIC_URL or the checked origin). */
  const redirectUri = (request: FastifyRequest, type: ChatSourceType) => `${casLogin.portalBase(request)}/cas/login/${type}/callback`;

  /** The enterprise's source of `type`, while it and its enterprise are enabled, with its secret. */
  async function enabledSource(type: ChatSourceType, id: number): Promise<ChatSource | undefined> {
    if (!(await sources.enabledChatSources(type)).some((s) => s.id === id)) return undefined;
    const source = await sources.loadAny(id);
    return source && source.type === type ? source : undefined;
  }

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

  const failure = (
    request: FastifyRequest,
    entry: { accountId: number | null; username: string; enterpriseId: number | null; name: string },
    reason: LoginFailureReason,
  ) =>
    app.loginLog.record(request.log, {
      ...entry,
      result: 'failure',
      reason,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });

  for (const type of CHAT_SOURCE_TYPES) {
    const label = AUTH_SOURCE_TYPE_LABELS[type];

    app.get(
      `/login/${type}`,
      { schema: { tags: ['cas'], summary: `CAS 登录：${label}扫码登录`, querystring: StartQuery, response: PageAnswers } },
      async (request, reply) => {
        const { target, unregistered } = await casLogin.targetOf(request, reply, request.query);
        if (unregistered) return casLogin.unregisteredService(request, reply);
        const enabled = await sources.enabledChatSources(type);
        const chosen = request.query.source;
        const picked =
          chosen === undefined ? (enabled.length === 1 ? enabled[0] : undefined) : enabled.find((s) => String(s.id) === chosen);
        if (enabled.length === 0 || (chosen !== undefined && !picked)) return noSuchLogin(request, reply, type, target);
        if (!picked) {
          const enterprises = enabled.map((s) => ({ sourceId: s.id, name: s.enterpriseName }));
          const page = chooseEnterprisePage({
            casBase: casLogin.casBase(request),
            type,
            service: target.service,
            renew: target.renew,
            enterprises,
          });
          return casLogin.html(reply, 200, page);
        }
        const source = await enabledSource(type, picked.id);
        if (!source) return noSuchLogin(request, reply, type, target);
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
        const source = await enabledSource(type, pending.sourceId);
        if (!source) return restart(403, `该企业已停用${label}登录，请使用账号密码登录`);

        let person: DirectoryUser | undefined;
        try {
          person = await chatPlatform(source, app.config.auth.chatEndpoints).identify(code, redirectUri(request, type));
        } catch (err) {
          if (!(err instanceof DirectoryError)) throw err;
          request.log.warn({ sourceId: source.id, reason: err.message }, 'chat sign-in: the platform refused');
          return restart(502, `${label}登录失败：${err.message}`);
        }
        const unknown = { accountId: null, enterpriseId: source.enterpriseId, name: person?.name ?? '' };
        // 登录日志's 账号 for a scan that signs no one in: the platform and its user id.
        const who = (person ? `${label}:${person.externalId}` : label).slice(0, 64);
        if (!person) {
          await failure(request, { ...unknown, username: who }, 'unknown-account');
          return unknownPerson(request, reply, type, target);
        }
        if (!person.active) {
          await failure(request, { ...unknown, username: who }, 'disabled');
          return unknownPerson(request, reply, type, target, `该${label}账号已停用或已离职，不能用于登录。`);
        }

        // By the identity linked before (sync or an earlier sign-in), else the first time by phone within the enterprise.
        let accountId = await sources.accountOf(source.id, person.externalId);
        if (accountId === undefined && PHONE_PATTERN.test(person.phone)) {
          accountId = await identities.linkByPhone(source, person.phone, person.externalId);
        }
        const profile = accountId === undefined ? undefined : await accounts.profile(accountId);
        if (accountId === undefined || !profile || profile.enterpriseId !== source.enterpriseId) {
          await failure(request, { ...unknown, username: who }, 'unknown-account');
          return unknownPerson(request, reply, type, target);
        }

        // The scan stands in for the password: the same lock, 停用 and steps after it (cas-routes.ts, POST /login).
        const account = { accountId, username: profile.username, enterpriseId: profile.enterpriseId, name: profile.name };
        const policy = await app.securityPolicies.ofEnterprise(profile.enterpriseId);
        const attempt = await app.loginGuard.attempt({ accountId }, policy);
        if (attempt.locked) {
          await failure(request, account, 'locked');
          return restart(423, `账号已锁定，请 ${attempt.minutes} 分钟后再试`);
        }
        if (!profile.usable) {
          await app.loginGuard.succeeded({ accountId });
          await failure(request, account, profile.status === 'active' ? 'enterprise-disabled' : 'disabled');
          return restart(403, '账号已停用，请联系企业管理员');
        }
        return steps.next(request, reply, accountId, target, 'password');
      },
    );
  }
};

export default chatLoginRoutes;
