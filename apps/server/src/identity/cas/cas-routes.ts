import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthSourceMessage, type LoginFailureReason, PasswordChangeMessage, TenantRules } from '@portal/shared';
import { Type } from 'typebox';
import { ErrorEnvelope, errorResponses } from '../../platform/lib/envelope.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { accountOfDirectoryLogin, checkDirectoryPassword, hasDirectoryPassword } from '../auth-sources/ldap/ldap-sign-in.js';
import type { LoginAttempt } from '../login-log/login-log-repository.js';
import type { ServiceApplication } from './cas-services.js';
import { TGC, isTrue } from './cas-login.js';
import { type CasAttributes, type CasFailureCode, failureJson, failureXml, successJson, successXml } from './cas-responses.js';
import { SERVICE_TICKET_PATTERN } from './cas-tickets.js';
import type { LockKey } from './login-guard.js';
import { LOGIN_CSS, LOGO_SVG, messagePage } from './login-page.js';

const LoginQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  gateway: Type.Optional(Type.String({ maxLength: 10 })),
});
const LoginBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
});
const ValidateQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  ticket: Type.Optional(Type.String({ maxLength: 300 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  pgtUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  format: Type.Optional(Type.String({ maxLength: 10 })),
});
const PasswordChangeBody = Type.Object({
  change: Type.Optional(Type.String({ maxLength: 400 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
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
  const { accountRepository: accounts, casTickets: tickets, loginGuard: guard, loginSteps: steps } = app;
  const registry = app.casServices;
  const { portalBase, casBase, html, singleLogout, issueTicket, unregisteredService, executionValid, registeredService, renderLogin } =
    app.casLogin;
  // Per-client-IP burst window of the login form, in front of the account lock kept in the database.
  const loginAttempts = app.createRateLimit({ max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

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
      schema: { tags: ['cas'], summary: 'CAS 登录（提交账号密码）', querystring: LoginQuery, body: LoginBody, response: PageAnswers },
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
      if (!login) return page(400, '请输入用户名或手机号');
      if (!password) return page(400, '请输入密码');

      // Failures count per account, whichever login (username or phone) named it; names that match
      // no account count per client IP.
      const account = (await accounts.findForLogin(login)) ?? (await accountOfDirectoryLogin(app, login));
      const key: LockKey = account ? { accountId: account.id } : { ip: request.ip };
      // 安全设置: the account's enterprise decides its lockout (the platform defaults for unknown names).
      const policy = await app.securityPolicies.ofEnterprise(account?.enterpriseId ?? null);
      const attempt = await guard.attempt(key, policy);
      const attemptOf = (result: 'success' | 'failure', reason?: LoginFailureReason): LoginAttempt => ({
        accountId: account?.id ?? null,
        username: account?.username ?? login,
        enterpriseId: account?.enterpriseId ?? null,
        name: account?.name ?? '',
        result,
        ...(reason ? { reason } : {}),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      if (attempt.locked) {
        await app.loginLog.record(request.log, attemptOf('failure', 'locked'));
        return page(423, `密码错误次数过多，账号已锁定，请 ${attempt.minutes} 分钟后再试`);
      }
      // An account linked to an LDAP / AD source: its directory checks the password, never the local hash.
      const directory = account ? await checkDirectoryPassword(app, request.log, account, password) : undefined;
      if (directory?.result === 'unavailable') {
        await guard.refund(key, policy);
        await app.loginLog.record(request.log, attemptOf('failure', 'source-unavailable'));
        return page(503, AuthSourceMessage.sourceUnavailable);
      }
      const valid = directory ? directory.result !== 'invalid' : await verifyPassword(account?.password_hash, password);
      if (!account || !valid) {
        const reason = !account ? 'unknown-account' : directory?.result === 'invalid' ? directory.reason : 'bad-password';
        await app.loginLog.record(request.log, attemptOf('failure', reason));
        await app.auditRepository.record(request.log, {
          accountId: account?.id ?? null,
          username: login,
          enterpriseId: null,
          action: 'login-failed',
          ip: request.ip,
          outcome: 'failure',
          detail: attempt.left === 0 ? '密码错误次数过多，账号已锁定' : '用户名或密码错误',
        });
        if (attempt.left === 0) return page(423, `密码错误次数过多，账号已锁定，请 ${policy.lockMinutes} 分钟后再试`);
        return page(401, `用户名或密码错误，还可尝试 ${attempt.left} 次`);
      }
      if (!account.usable || directory?.result === 'disabled') {
        await guard.succeeded(key);
        await app.loginLog.record(request.log, attemptOf('failure', account.refusal ?? 'disabled'));
        return page(403, '账号已停用，请联系企业管理员');
      }
      // Two-factor code, a new password (initial or expired), two-factor enrolment: login-steps.ts.
      return steps.next(request, reply, account.id, { service, registered: target, renew }, 'password');
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
        body: PasswordChangeBody,
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
      const again = (error: string) =>
        steps.changePage(request, reply, 400, { accountId, name: profile.name, target, proof: change, expired, policy, error });
      const rule = password ? TenantRules.password(password) : PasswordChangeMessage.newRequired;
      if (rule) return again(rule);
      if (!request.body.confirm) return again(PasswordChangeMessage.confirmRequired);
      if (request.body.confirm !== password) return again(PasswordChangeMessage.confirmMismatch);
      if (!expired && (await verifyPassword(await accounts.passwordHash(accountId), password))) return again('新密码不能与初始密码相同');
      const problem = await app.passwordPolicy.problem({ accountId, username: profile.username, password, policy });
      if (problem) return again(problem);
      // The new password, its date and history, and its audit row commit together; it ends the must-change state.
      const passwordHash = await hashPassword(password);
      await accounts.setPasswordHash(accountId, passwordHash, async (trx) => {
        await app.passwordPolicy.remember(trx, accountId, passwordHash);
        await recordAudit(trx, request.log, {
          accountId,
          username: profile.username,
          enterpriseId: profile.enterpriseId,
          action: expired ? 'password-change' : 'password-first-change',
          ip: request.ip,
          outcome: 'success',
          ...(expired ? { detail: '密码已过期' } : {}),
        });
        await app.accountNotices.passwordChanged(trx, accountId, 'self');
      });
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
      if (tgt?.startsWith('TGT-')) {
        const accountId = await tickets.accountOfTgt(tgt);
        const profile = accountId === undefined ? undefined : await accounts.profile(accountId);
        // The ended session and its audit row commit together.
        const ended = await tickets.destroyTgt(tgt, async (trx) => {
          if (accountId === undefined) return;
          await recordAudit(trx, request.log, {
            accountId,
            username: profile?.username ?? '',
            enterpriseId: profile?.enterpriseId ?? null,
            action: 'logout',
            ip: request.ip,
            outcome: 'success',
          });
        });
        await singleLogout(request, ended);
      }
      reply.clearCookie(TGC, { path: '/cas' });
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

  /** Validates a service ticket; answers the account or a CAS failure code. */
  async function validate(q: {
    service?: string | undefined;
    ticket?: string | undefined;
    renew?: string | undefined;
  }): Promise<
    | { ok: true; accountId: number; fromLogin: boolean; application: ServiceApplication | null }
    | { ok: false; code: CasFailureCode; description: string }
  > {
    if (!q.service || !q.ticket) return { ok: false, code: 'INVALID_REQUEST', description: 'service 与 ticket 参数均为必填' };
    if (!SERVICE_TICKET_PATTERN.test(q.ticket))
      return { ok: false, code: 'INVALID_TICKET_SPEC', description: `Ticket ${q.ticket.slice(0, 40)} 格式不正确` };
    const st = await tickets.claimServiceTicket(q.ticket);
    if (!st) return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} not recognized` };
    if (st.expires_at <= new Date().toISOString()) return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 已过期` };
    // The ticket is already claimed: a wrong service voids it too (CAS 3.0 §2.5.3, INVALID_SERVICE).
    if (st.service !== q.service)
      return { ok: false, code: 'INVALID_SERVICE', description: `Ticket ${q.ticket} does not match supplied service` };
    if (isTrue(q.renew) && !st.from_login)
      return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 不是由账号密码登录签发（renew）` };
    // 应用授权 is checked again: a right revoked (or the application disabled or removed) since the ticket was issued voids it.
    let application: ServiceApplication | null = null;
    if (st.application_id !== null) {
      application = (await app.ssoApps.application(st.application_id)) ?? null;
      if (!application || !(await app.ssoApps.mayUse(st.account_id, application.id))) {
        const name = application ? `「${application.name}」` : '';
        return { ok: false, code: 'INVALID_TICKET', description: `Ticket ${q.ticket} 已失效：账号已无权访问该应用${name}` };
      }
    }
    return { ok: true, accountId: st.account_id, fromLogin: st.from_login === 1, application };
  }

  /**
   * The user and attributes a validation answers. Platform-wide services receive the whole profile; an
   * enterprise's application only the 返回属性 checked for it (groups and roles multi-valued). The
   * protocol's own attributes (CAS 3.0 §2.7: authenticationDate, …) go to every service.
   */
  async function attributesOf(
    accountId: number,
    application: ServiceApplication | null,
  ): Promise<{ user: string; attributes: CasAttributes } | undefined> {
    const p = await accounts.profile(accountId);
    if (!p?.usable) return undefined;
    const protocol = { authenticationDate: new Date().toISOString(), longTermAuthenticationRequestTokenUsed: 'false' };
    const profile = { name: p.name, telephone: p.phone, email: p.email, number: p.number, enterpriseName: p.enterpriseName };
    if (!application) {
      return {
        user: p.username,
        attributes: { ...profile, enterpriseId: p.enterpriseId === null ? '' : String(p.enterpriseId), ...protocol },
      };
    }
    const released: CasAttributes = {};
    const memberships = application.attributes.some((a) => a === 'groups' || a === 'roles')
      ? await app.ssoApps.groupsAndRoles(accountId)
      : undefined;
    for (const attribute of application.attributes) {
      released[attribute] = attribute === 'groups' || attribute === 'roles' ? (memberships?.[attribute] ?? []) : profile[attribute];
    }
    return { user: p.username, attributes: { ...released, ...protocol } };
  }

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
      const result = await validate(request.query);
      const who = result.ok ? await attributesOf(result.accountId, result.application) : undefined;
      return who ? `yes\n${who.user}\n` : 'no\n';
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
        const result = await validate(request.query);
        if (!result.ok) return fail(result.code, result.description);
        const who = await attributesOf(result.accountId, result.application);
        if (!who) return fail('INVALID_TICKET', '账号不可用');
        const attributes = withAttributes ? { ...who.attributes, isFromNewLogin: String(result.fromLogin) } : undefined;
        return json ? successJson(who.user, attributes) : successXml(who.user, attributes);
      },
    );
  }
};

export default casRoutes;
