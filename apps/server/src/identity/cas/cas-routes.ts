import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthSourceMessage } from '@portal/shared';
import { CasLoginFormSchema, CasPasswordChangeFormSchema } from '@portal/shared';
import { Type } from 'typebox';
import { ErrorEnvelope, errorResponses } from '../../platform/lib/envelope.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { FEDERATION_SESSION_COOKIE } from '../federation/federation-login-routes.js';
import { hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import { TGC, isTrue } from './cas-login.js';
import { type CasFailureCode, failureJson, failureXml, successJson, successXml } from './cas-responses.js';
import { LOGIN_CSS, LOGO_SVG, federatedLoginHref, federatedRedirectPage, messagePage } from './login-page.js';

/** CAS 3.0 §2.1.1, §2.3.1, §2.5.1: the protocol's parameters (the pages' own forms are shared contracts). */
const LoginQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  gateway: Type.Optional(Type.String({ maxLength: 10 })),
});
const ValidateQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  ticket: Type.Optional(Type.String({ maxLength: 300 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  pgtUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  format: Type.Optional(Type.String({ maxLength: 10 })),
});
const LogoutQuery = Type.Object({ service: Type.Optional(Type.String({ maxLength: 2000 })) });

/** The CAS pages: HTML (also for refusals such as a wrong password), or a 303 to the service. */
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };
/** CAS 3.0 §2.5–2.7 and appendix A: XML by default, JSON on `format=JSON`. */
const ValidationAnswer = Type.Union([
  Type.String({ description: 'application/xml; charset=utf-8' }),
  Type.Object({
    serviceResponse: Type.Object({
      authenticationSuccess: Type.Optional(
        Type.Object({
          user: Type.String(),
          attributes: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]))),
        }),
      ),
      authenticationFailure: Type.Optional(Type.Object({ code: Type.String(), description: Type.String() })),
    }),
  }),
]);

/**
 * The embedded CAS 3.0 server (docs/architecture.md, "Login"): login page, logout with single
 * logout, and the CAS 1/2/3 validation endpoints. Any CAS 3.0 server can replace it by configuration.
 * Its answers depend on the caller and keep the default `private, no-store` (CAS 3.0 §2.2.4).
 */
const casRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Cookies are parsed and set only by the login routes: an onRequest and an onSend hook less on every other call.
  await app.register(cookie);
  acceptFormBodies(app);
  const { accountRepository: accounts, casTicketService: tickets, loginStepService: steps } = app;
  const registry = app.casApplicationService;
  const { portalBase, casBase, html, singleLogout, issueTicket, unregisteredService, executionValid, registeredService, renderLogin } =
    app.casSignInService;
  // Per-client-IP burst window of the login form, in front of the account lock kept in the database.
  const loginAttempts = app.createRateLimit({ limit: 'cas-login', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });

  const asset = (type: string, body: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'public, max-age=3600').type(type);
    return body;
  };
  app.get('/assets/login.css', { schema: { hide: true, response: { 200: Type.String() } } }, asset('text/css; charset=utf-8', LOGIN_CSS));
  app.get('/assets/logo.svg', { schema: { hide: true, response: { 200: Type.String() } } }, asset('image/svg+xml', LOGO_SVG));

  app.get(
    '/login',
    { schema: { tags: ['cas'], summary: 'CAS 登录页（SSO、renew、gateway）', querystring: LoginQuery, response: PageAnswers } },
    async (request, reply) => {
      const { service } = request.query;
      const renew = isTrue(request.query.renew);
      const target = await registeredService(request, reply, service);
      if (service !== undefined && !target) return unregisteredService(request, reply);
      const tgt = await tickets.liveTgt(request.cookies[TGC]);
      if (tgt && !renew) {
        if (target) {
          const session = { tgtId: tgt.id, accountId: tgt.accountId };
          return issueTicket(request, reply, session, target, false, isTrue(request.query.gateway));
        }
        const profile = await accounts.profile(tgt.accountId);
        return html(
          reply,
          200,
          messagePage(casBase(request), '您已登录', `当前账号：${profile?.name ?? ''}（${profile?.username ?? ''}）。`, [
            { href: `${portalBase(request)}/`, label: '进入门户' },
            { href: `${casBase(request)}/logout`, label: '退出登录' },
          ]),
        );
      }
      // CAS 3.0 §2.1.1: gateway without an SSO session goes back to the service without a ticket; renew wins over gateway.
      if (target && isTrue(request.query.gateway) && !renew) return reply.redirect(target.url.href, 303);
      return renderLogin(request, reply, 200, { service, renew });
    },
  );

  app.post(
    '/login',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录（提交账号密码）',
        querystring: LoginQuery,
        body: CasLoginFormSchema,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { service } = request.query;
      const renew = isTrue(request.query.renew) || isTrue(request.body.renew);
      const login = (request.body.username ?? '').trim();
      const password = request.body.password ?? '';
      const page = (status: number, error: string) => renderLogin(request, reply, status, { service, renew, username: login, error });

      const target = await registeredService(request, reply, service);
      if (service !== undefined && !target) return unregisteredService(request, reply);
      if (!executionValid(request, request.body.execution)) return page(400, '登录页面已过期，请重新输入账号和密码');
      const burst = await loginAttempts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        return page(429, `登录尝试过于频繁，请 ${burst.ttlInSeconds} 秒后再试`);
      }
      // Identity-first pages ask for 用户名、手机号或企业邮箱 (the field's placeholder): the empty answer says the same.
      if (!login) {
        const { identityFirst } = await app.federationService.loginOptions(undefined);
        return page(400, identityFirst ? '请输入用户名、手机号或企业邮箱' : '请输入用户名或手机号');
      }
      // Identity-first: an address of a domain an enterprise's provider claims signs in there (a password typed with it is not used).
      const sourceId = await app.federationService.sourceOfLogin(login);
      if (sourceId !== undefined)
        return html(reply, 200, federatedRedirectPage(casBase(request), federatedLoginHref(casBase(request), sourceId, service, renew)));
      // 仅允许通过企业身份提供方登录: such an account's password signs nobody in (break glass: 企业管理员). Refused before
      // the password is checked, so wrong guesses neither lock the person out nor tell whether a password was right.
      const named = await accounts.findForLogin(login);
      const forced = named ? await app.federationService.passwordRefusal(named.id, clientOf(request)) : undefined;
      if (forced) return page(403, forced);
      if (!password) return page(400, '请输入密码');

      const checked = await app.casLoginService.checkPassword(login, password, clientOf(request));
      if (!checked.ok) return page(checked.status, checked.error);
      // A directory's own login name (not the account's username or phone) names the account only through its directory.
      const late = named ? undefined : await app.federationService.passwordRefusal(checked.accountId, clientOf(request));
      if (late) return page(403, late);
      // Two-factor code, a new password (initial or expired), two-factor enrolment: login-steps.ts.
      return steps.next(request, reply, checked.accountId, { service, registered: target, renew }, 'password', checked.known);
    },
  );

  // 修改初始密码 and 密码已过期: the step of a login whose password must change first.
  app.post(
    '/login/password',
    {
      config: { csrf: false },
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：修改初始密码或已过期的密码',
        querystring: LoginQuery,
        body: CasPasswordChangeFormSchema,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { service } = request.query;
      const renew = isTrue(request.query.renew) || isTrue(request.body.renew);
      const registered = await registeredService(request, reply, service);
      if (service !== undefined && !registered) return unregisteredService(request, reply);
      const restart = (status: number, error: string) => renderLogin(request, reply, status, { service, renew, error });
      if (!executionValid(request, request.body.execution)) return restart(400, '登录页面已过期，请重新输入账号和密码');
      const change = request.body.change ?? '';
      const accountId = await steps.checkProof(change, 'change');
      if (accountId === undefined) return restart(400, '修改密码页面已过期，请重新登录');
      const context = await steps.contextOf(accountId);
      if (!context?.profile.usable) return restart(403, '账号已停用，请联系企业管理员');
      if (await hasDirectoryPassword(app, accountId)) return restart(403, AuthSourceMessage.directoryPassword);
      const { profile, policy, state } = context;
      const target = { service, registered, renew };
      const expired = !state.mustChangePassword;
      const password = request.body.password ?? '';
      const problem = await app.casLoginService.changeProblem({ profile, policy, expired, password, confirm: request.body.confirm });
      const page = { accountId, name: profile.name, target, proof: change, expired, policy };
      if (problem) return steps.changePage(request, reply, 400, { ...page, error: problem });
      await app.casLoginService.changePassword(profile, password, expired, clientOf(request));
      return steps.next(request, reply, accountId, target, 'change');
    },
  );

  app.get(
    '/logout',
    { schema: { tags: ['cas'], summary: 'CAS 退出（单点登出）', querystring: LogoutQuery, response: PageAnswers } },
    async (request, reply) => {
      const tgt = request.cookies[TGC];
      const service = (await registry.resolve(request.query.service, portalBase(request)))?.url;
      // A logout another site asked for (a link or an image on its page) waits for the user's
      // confirmation on this site; same-site links, typed addresses and clients without Fetch
      // metadata log out at once (W3C Fetch Metadata, `Sec-Fetch-Site`).
      if (tgt?.startsWith('TGT-') && request.headers['sec-fetch-site'] === 'cross-site') {
        const confirm = `${casBase(request)}/logout${service ? `?service=${encodeURIComponent(service.href)}` : ''}`;
        return html(
          reply,
          200,
          messagePage(casBase(request), '确认退出登录', '是否退出统一身份认证？退出后，通过它登录的所有应用都将退出登录。', [
            { href: confirm, label: '确认退出' },
            { href: `${portalBase(request)}/`, label: '返回门户首页' },
          ]),
        );
      }
      if (tgt?.startsWith('TGT-')) await singleLogout(request, await app.casLoginService.logout(tgt, clientOf(request)));
      reply.clearCookie(TGC, { path: '/cas' });
      // Signed in through an enterprise's SAML IdP with single logout: it hears of the 退出 too (SAML Profiles §4.4).
      const federated = app.samlSourceLoginService.signedInSession(request.cookies[FEDERATION_SESSION_COOKIE]);
      if (federated !== undefined) {
        reply.clearCookie(FEDERATION_SESSION_COOKIE, { path: '/cas' });
        const upstream = tgt?.startsWith('TGT-')
          ? await app.samlSourceLoginService.upstreamLogout(federated, portalBase(request))
          : undefined;
        if (upstream) return reply.redirect(upstream, 303);
      }
      // Only registered services get the redirect (no open redirect).
      if (service) return reply.redirect(service.href, 303);
      return html(
        reply,
        200,
        messagePage(casBase(request), '您已安全退出', '统一身份认证会话已结束，所有应用均已退出。', [
          { href: `${portalBase(request)}/`, label: '返回门户首页' },
        ]),
      );
    },
  );

  app.get(
    '/validate',
    {
      schema: {
        tags: ['cas'],
        summary: 'CAS 1.0 票据校验',
        querystring: ValidateQuery,
        response: { 200: Type.String({ description: 'text/plain：yes 与账号两行，或 no' }), ...errorResponses },
      },
    },
    async (request) => {
      const user = await app.casValidationService.validateUser(request.query);
      return user !== undefined ? `yes\n${user}\n` : 'no\n';
    },
  );

  for (const [path, summary, withAttributes] of [
    ['/serviceValidate', 'CAS 2.0 票据校验', false],
    ['/proxyValidate', 'CAS 2.0 票据校验（代理）', false],
    ['/p3/serviceValidate', 'CAS 3.0 票据校验（含属性）', true],
    ['/p3/proxyValidate', 'CAS 3.0 票据校验（代理，含属性）', true],
  ] as const) {
    app.get(
      path,
      { schema: { tags: ['cas'], summary, querystring: ValidateQuery, response: { 200: ValidationAnswer, ...errorResponses } } },
      async (request, reply) => {
        const format = (request.query.format ?? 'XML').toUpperCase();
        const json = format === 'JSON';
        if (!json) reply.type('application/xml; charset=utf-8');
        const fail = (code: CasFailureCode, description: string) => (json ? failureJson(code, description) : failureXml(code, description));
        if (format !== 'XML' && !json) return fail('INVALID_REQUEST', `format ${request.query.format ?? ''} 不受支持（XML 或 JSON）`);
        const result = await app.casValidationService.serviceValidate(request.query, withAttributes);
        if (!result.ok) return fail(result.code, result.description);
        return json ? successJson(result.user, result.attributes) : successXml(result.user, result.attributes);
      },
    );
  }
};

export default casRoutes;
