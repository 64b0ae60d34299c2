import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { acceptFormBodies } from '../../lib/form-body.js';
import { requestOrigin } from '../../lib/request-origin.js';
import { AccountRepository } from '../accounts/account-repository.js';
import { verifyPassword } from '../accounts/passwords.js';
import { recordAudit } from '../audit/audit-log.js';
import { type CasAttributes, type CasFailureCode, failureJson, failureXml, successJson, successXml } from './cas-responses.js';
import { ServiceRegistry } from './cas-services.js';
import { SERVICE_TICKET_PATTERN, TicketStore } from './cas-tickets.js';
import { AttemptWindow, LoginGuard } from './login-guard.js';
import { LOGIN_CSS, LOGO_SVG, loginPage, messagePage } from './login-page.js';
import { sendSingleLogout } from './single-logout.js';

/** Ticket-granting cookie (CAS 3.0 §3.6): HttpOnly, path as narrow as the CAS itself, session-only. */
const TGC = 'TGC';
/** Login-form token (double submit) against login CSRF. */
const EXECUTION = 'CASEXEC';

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
const LogoutQuery = Type.Object({ service: Type.Optional(Type.String({ maxLength: 2000 })) });

const isTrue = (v: string | undefined) => v === 'true' || v === '1';
const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The embedded CAS 3.0 server (docs/architecture.md, "Login"): login page, logout with single
 * logout, and the CAS 1/2/3 validation endpoints. Any CAS 3.0 server can replace it by configuration.
 */
const casRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Cookies are parsed and set only by the login routes: an onRequest and an onSend hook less on every other call.
  await app.register(cookie);
  acceptFormBodies(app);
  const { auth } = app.config;
  const db = app.database.db;
  const tickets = new TicketStore(db, auth);
  const accounts = new AccountRepository(db);
  const guard = new LoginGuard(db, { maxFailures: auth.loginMaxFailures, lockMinutes: auth.loginLockMinutes });
  const attempts = new AttemptWindow(auth.loginAttemptsPerMinute);
  const registry = new ServiceRegistry(auth.casServices);

  const portalBase = (request: FastifyRequest) => app.config.publicUrl ?? requestOrigin(request);
  const casBase = (request: FastifyRequest) => `${portalBase(request)}/cas`;
  const secure = (request: FastifyRequest) => request.protocol === 'https';

  // Housekeeping: expired TGTs and their tickets, every 10 minutes (no timer keeps the process alive).
  const purge = setInterval(
    () => void tickets.purgeExpired().catch((err: unknown) => app.log.warn({ err }, 'ticket purge failed')),
    600_000,
  );
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  function html(reply: FastifyReply, status: number, body: string) {
    return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  }

  /** After login: 303 to the service with its ticket, never cached (CAS 3.0 §2.2.4). */
  function redirectWithTicket(reply: FastifyReply, service: string, ticket: string) {
    const url = new URL(service);
    url.searchParams.append('ticket', ticket);
    return reply.code(303).header('cache-control', 'no-store').header('location', url.toString()).send();
  }

  function executionToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[EXECUTION];
    if (existing && /^[a-f0-9]{32}$/.test(existing)) return existing;
    const token = randomBytes(16).toString('hex');
    reply.setCookie(EXECUTION, token, { path: '/cas', httpOnly: true, sameSite: 'strict', secure: secure(request) });
    return token;
  }

  function renderLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    model: { service?: string | undefined; renew: boolean; username?: string; error?: string },
  ) {
    return html(
      reply,
      status,
      loginPage({
        casBase: casBase(request),
        portalBase: portalBase(request),
        service: model.service,
        renew: model.renew,
        execution: executionToken(request, reply),
        ...(model.username ? { username: model.username } : {}),
        ...(model.error ? { error: model.error } : {}),
      }),
    );
  }

  app.get('/assets/login.css', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(LOGIN_CSS),
  );
  app.get('/assets/logo.svg', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('image/svg+xml').send(LOGO_SVG),
  );

  app.get(
    '/login',
    { schema: { tags: ['cas'], summary: 'CAS 登录页（SSO、renew、gateway）', querystring: LoginQuery } },
    async (request, reply) => {
      const { service } = request.query;
      const renew = isTrue(request.query.renew);
      if (service !== undefined && !registry.isRegistered(service, portalBase(request))) {
        return html(
          reply,
          403,
          messagePage(casBase(request), '未授权的服务', '该应用未在统一身份认证中注册，不能使用此处登录。', [
            { href: `${portalBase(request)}/`, label: '返回门户首页' },
          ]),
        );
      }
      const tgt = await tickets.liveTgt(request.cookies[TGC]);
      if (tgt && !renew) {
        if (service) return redirectWithTicket(reply, service, await tickets.issueServiceTicket(tgt.id, service, false));
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
      if (service && isTrue(request.query.gateway) && !renew) {
        return reply.code(303).header('cache-control', 'no-store').header('location', service).send();
      }
      return renderLogin(request, reply, 200, { service, renew });
    },
  );

  app.post(
    '/login',
    { config: { csrf: false }, schema: { tags: ['cas'], summary: 'CAS 登录（提交账号密码）', querystring: LoginQuery, body: LoginBody } },
    async (request, reply) => {
      const { service } = request.query;
      const renew = isTrue(request.query.renew) || isTrue(request.body.renew);
      const login = (request.body.username ?? '').trim();
      const password = request.body.password ?? '';
      const page = (status: number, error: string) => renderLogin(request, reply, status, { service, renew, username: login, error });

      if (service !== undefined && !registry.isRegistered(service, portalBase(request))) {
        return html(
          reply,
          403,
          messagePage(casBase(request), '未授权的服务', '该应用未在统一身份认证中注册，不能使用此处登录。', [
            { href: `${portalBase(request)}/`, label: '返回门户首页' },
          ]),
        );
      }
      const expected = request.cookies[EXECUTION];
      if (!expected || !request.body.execution || !sameToken(expected, request.body.execution)) {
        return page(400, '登录页面已过期，请重新输入账号和密码');
      }
      const wait = attempts.hit(request.ip);
      if (wait > 0) return page(429, `登录尝试过于频繁，请 ${wait} 秒后再试`);
      if (!login) return page(400, '请输入用户名或手机号');
      if (!password) return page(400, '请输入密码');

      const key = login.toLowerCase();
      const locked = await guard.lockedMinutes(key);
      if (locked > 0) return page(423, `密码错误次数过多，账号已锁定，请 ${locked} 分钟后再试`);

      const account = await accounts.findForLogin(login);
      const valid = await verifyPassword(account?.password_hash, password);
      if (!account || !valid) {
        const left = await guard.recordFailure(key);
        await recordAudit(db, request.log, {
          accountId: account?.id ?? null,
          username: login,
          enterpriseId: null,
          action: 'login-failed',
          ip: request.ip,
          outcome: 'failure',
          detail: left === 0 ? '密码错误次数过多，账号已锁定' : '用户名或密码错误',
        });
        if (left === 0) return page(423, `密码错误次数过多，账号已锁定，请 ${auth.loginLockMinutes} 分钟后再试`);
        return page(401, `用户名或密码错误，还可尝试 ${left} 次`);
      }
      if (account.status !== 'active') return page(403, '账号已停用，请联系企业管理员');
      await guard.reset(key);

      // A fresh login replaces any SSO session this browser had.
      const previous = request.cookies[TGC];
      if (previous?.startsWith('TGT-')) await sendSingleLogout(await tickets.destroyTgt(previous), request.log);
      const tgt = await tickets.createTgt(account.id);
      reply.setCookie(TGC, tgt, { path: '/cas', httpOnly: true, sameSite: 'lax', secure: secure(request) });
      const profile = await accounts.profile(account.id);
      await recordAudit(db, request.log, {
        accountId: account.id,
        username: account.username,
        enterpriseId: profile?.enterpriseId ?? null,
        action: 'login',
        target: service ? new URL(service).origin : '',
        ip: request.ip,
        outcome: 'success',
      });
      if (service) return redirectWithTicket(reply, service, await tickets.issueServiceTicket(tgt, service, true));
      return html(
        reply,
        200,
        messagePage(casBase(request), '登录成功', `欢迎您，${profile?.name ?? account.username}。`, [
          { href: `${portalBase(request)}/`, label: '进入门户' },
        ]),
      );
    },
  );

  app.get('/logout', { schema: { tags: ['cas'], summary: 'CAS 退出（单点登出）', querystring: LogoutQuery } }, async (request, reply) => {
    const tgt = request.cookies[TGC];
    if (tgt?.startsWith('TGT-')) {
      const row = await db.selectFrom('cas_tgt').select('account_id').where('id', '=', tgt).executeTakeFirst();
      await sendSingleLogout(await tickets.destroyTgt(tgt), request.log);
      if (row) {
        const profile = await accounts.profile(row.account_id);
        await recordAudit(db, request.log, {
          accountId: row.account_id,
          username: profile?.username ?? '',
          enterpriseId: profile?.enterpriseId ?? null,
          action: 'logout',
          ip: request.ip,
          outcome: 'success',
        });
      }
    }
    reply.clearCookie(TGC, { path: '/cas' });
    const { service } = request.query;
    // Only registered services get the redirect (no open redirect).
    if (registry.isRegistered(service, portalBase(request))) {
      return reply.code(303).header('cache-control', 'no-store').header('location', service).send();
    }
    return html(
      reply,
      200,
      messagePage(casBase(request), '您已安全退出', '统一身份认证会话已结束，所有应用均已退出。', [
        { href: `${portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  });

  /** Validates a service ticket; answers the account or a CAS failure code. */
  async function validate(q: {
    service?: string | undefined;
    ticket?: string | undefined;
    renew?: string | undefined;
  }): Promise<{ ok: true; accountId: number; fromLogin: boolean } | { ok: false; code: CasFailureCode; description: string }> {
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
    return { ok: true, accountId: st.account_id, fromLogin: st.from_login === 1 };
  }

  async function attributesOf(accountId: number): Promise<{ user: string; attributes: CasAttributes } | undefined> {
    const p = await accounts.profile(accountId);
    if (!p || p.status !== 'active') return undefined;
    return {
      user: p.username,
      attributes: {
        name: p.name,
        telephone: p.phone,
        email: p.email,
        number: p.number,
        enterpriseName: p.enterpriseName,
        enterpriseId: p.enterpriseId === null ? '' : String(p.enterpriseId),
        authenticationDate: new Date().toISOString(),
        longTermAuthenticationRequestTokenUsed: 'false',
      },
    };
  }

  app.get('/validate', { schema: { tags: ['cas'], summary: 'CAS 1.0 票据校验', querystring: ValidateQuery } }, async (request, reply) => {
    const result = await validate(request.query);
    const who = result.ok ? await attributesOf(result.accountId) : undefined;
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(who ? `yes\n${who.user}\n` : 'no\n');
  });

  const serviceValidate =
    (withAttributes: boolean) =>
    async (
      request: FastifyRequest<{ Querystring: { service?: string; ticket?: string; renew?: string; pgtUrl?: string; format?: string } }>,
      reply: FastifyReply,
    ) => {
      const format = (request.query.format ?? 'XML').toUpperCase();
      const send = (body: { xml: string; json: unknown }) =>
        format === 'JSON'
          ? reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body.json))
          : reply.header('cache-control', 'no-store').type('application/xml; charset=utf-8').send(body.xml);
      const fail = (code: CasFailureCode, description: string) =>
        send({ xml: failureXml(code, description), json: failureJson(code, description) });
      if (format !== 'XML' && format !== 'JSON')
        return fail('INVALID_REQUEST', `format ${request.query.format ?? ''} 不受支持（XML 或 JSON）`);
      const result = await validate(request.query);
      if (!result.ok) return fail(result.code, result.description);
      const who = await attributesOf(result.accountId);
      if (!who) return fail('INVALID_TICKET', '账号不可用');
      const attributes = withAttributes ? { ...who.attributes, isFromNewLogin: String(result.fromLogin) } : undefined;
      return send({ xml: successXml(who.user, attributes), json: successJson(who.user, attributes) });
    };

  const validateSchema = (summary: string) => ({ schema: { tags: ['cas'], summary, querystring: ValidateQuery } });
  app.get('/serviceValidate', validateSchema('CAS 2.0 票据校验'), serviceValidate(false));
  app.get('/proxyValidate', validateSchema('CAS 2.0 票据校验（代理）'), serviceValidate(false));
  app.get('/p3/serviceValidate', validateSchema('CAS 3.0 票据校验（含属性）'), serviceValidate(true));
  app.get('/p3/proxyValidate', validateSchema('CAS 3.0 票据校验（代理，含属性）'), serviceValidate(true));
};

export default casRoutes;
