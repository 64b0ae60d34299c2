import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type ChatSourceType, notSubscribedText, type SecurityPolicy } from '@portal/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { recordAudit } from '../../platform/audit/audit-log.js';
import type { AccountProfile } from '../accounts/account-repository.js';
import type { LoginMethod } from '../login-log/login-log-repository.js';
import type { ServiceApplication } from './cas-services.js';
import type { RegisteredService } from './cas-services.js';
import { loginPage, messagePage } from './login-page.js';
import type { IssuedTicket } from './cas-ticket-repository.js';
import { SessionsFullError } from './cas-tickets.js';

/** Ticket-granting cookie (CAS 3.0 §3.6): HttpOnly, path as narrow as the CAS itself, session-only. */
export const TGC = 'TGC';
/** Login-form token (double submit) against login CSRF. */
export const EXECUTION = 'CASEXEC';

export const isTrue = (v: string | undefined) => v === 'true' || v === '1';
const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What `applicationFor` answers for a service, and whether 应用授权 admits the account to that application. */
interface Admission {
  application: ServiceApplication | null | undefined;
  admitted: boolean;
}

/** Where a login goes once it completes: a registered service (CAS 3.0 §2.1.1) or the CAS's own page, and whether it renews. */
export interface LoginTarget {
  service: string | undefined;
  registered: RegisteredService | undefined;
  renew: boolean;
}

/**
 * The central login shared by the CAS route modules (the login form, its steps after the password —
 * two-factor, a new password — and 忘记密码): its addresses, pages and form token, and the end of a
 * successful login. The route modules register @fastify/cookie themselves (cookies are parsed only
 * under /cas).
 */
function createCasLogin(app: FastifyInstance) {
  const { accountRepository: accounts, casTicketService: tickets } = app;
  const registry = app.casApplicationService;

  const portalBase = (request: FastifyRequest) => app.config.publicUrl ?? requestOrigin(request);
  const casBase = (request: FastifyRequest) => `${portalBase(request)}/cas`;
  const secure = (request: FastifyRequest) => request.protocol === 'https';

  function html(reply: FastifyReply, status: number, body: string): string {
    reply.code(status).type('text/html; charset=utf-8');
    return body;
  }

  /** After login: 303 to the service with its ticket (CAS 3.0 §2.2.4). */
  function redirectWithTicket(reply: FastifyReply, service: URL, ticket: string) {
    const url = new URL(service);
    url.searchParams.append('ticket', ticket);
    return reply.redirect(url.toString(), 303);
  }

  /** Single logout to the services of ended tickets that are still registered (never a redirect). */
  const singleLogout = (request: FastifyRequest, ended: IssuedTicket[]) =>
    app.logoutDeliveryService.deliver(ended, portalBase(request), request.log);

  /**
   * The application of 应用列表 a ticket for `target` is for, as the account's enterprise holds it: an
   * enterprise's own application, or for a platform application the copy its enterprise's
   * approved subscription created — undefined when it has none; null for a platform-wide service.
   */
  async function applicationFor(accountId: number, target: RegisteredService): Promise<ServiceApplication | null | undefined> {
    if (target.platformApplication) return app.ssoAppRepository.copyFor(accountId, target.platformApplication.id);
    return target.application;
  }

  /** The application a ticket for `target` is for and whether 应用授权 admits the account to it. */
  async function admission(accountId: number, target: RegisteredService): Promise<Admission> {
    const application = await applicationFor(accountId, target);
    return { application, admitted: !!application && (await app.ssoAppRepository.mayUse(accountId, application.id)) };
  }

  /** A refused ticket lands in the login log (登录日志's 无权访问应用), naming the application. */
  async function logRefusal(request: FastifyRequest, accountId: number, application: { id: number | null; name: string }) {
    const profile = await accounts.profile(accountId);
    await app.loginLogRepository.record(request.log, {
      accountId,
      username: profile?.username ?? '',
      enterpriseId: profile?.enterpriseId ?? null,
      name: profile?.name ?? '',
      result: 'failure',
      reason: 'not-authorized',
      applicationId: application.id,
      applicationName: application.name,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
  }

  /**
   * A ticket for a registered service (CAS 3.0 §2.2.4), after a login or with a live SSO session. An
   * enterprise's application gets one only for an account 应用授权 admits, a platform
   * application only for an account whose enterprise subscribed to it and whose copy 应用授权 admits
   * it to; any other account gets a page saying why, naming the application, no ticket,
   * and the refusal lands in the login log. With `gateway` (no page may be shown, CAS 3.0 §2.1.1) it
   * goes back to the service without one.
   */
  async function issueTicket(
    request: FastifyRequest,
    reply: FastifyReply,
    session: { tgtId: string; accountId: number },
    target: RegisteredService,
    fromLogin: boolean,
    gateway = false,
    decided?: Admission,
  ) {
    const { application, admitted } = decided ?? (await admission(session.accountId, target));
    if (application === undefined) {
      const name = target.platformApplication?.name ?? '';
      await logRefusal(request, session.accountId, { id: null, name });
      if (gateway) return reply.redirect(target.url.href, 303);
      return refusalPage(request, reply, target, notSubscribedText(name));
    }
    if (application && !admitted) {
      await logRefusal(request, session.accountId, application);
      if (gateway) return reply.redirect(target.url.href, 303);
      return notAuthorized(request, reply, target, application);
    }
    const ticket = await tickets.issueServiceTicket(session.tgtId, target.service, fromLogin, application?.id ?? null);
    return redirectWithTicket(reply, target.url, ticket);
  }

  /** Why 应用授权 refused: not granted, or the application is disabled. */
  function notAuthorized(request: FastifyRequest, reply: FastifyReply, target: RegisteredService, application: ServiceApplication) {
    const text =
      application.status === 'enabled'
        ? `您的账号没有访问「${application.name}」的权限。如需使用，请联系企业管理员在“应用授权”中为您开通。`
        : `应用「${application.name}」已停用，暂时无法登录，请联系企业管理员。`;
    return refusalPage(request, reply, target, text);
  }

  /** 您无权访问该应用; 切换账号 ends the SSO session and goes back to the application, which sends the user to the login form again. */
  function refusalPage(request: FastifyRequest, reply: FastifyReply, target: RegisteredService, text: string) {
    return html(
      reply,
      403,
      messagePage(casBase(request), '您无权访问该应用', text, [
        { href: `${portalBase(request)}/`, label: '返回门户首页' },
        { href: `${casBase(request)}/logout?service=${encodeURIComponent(target.service)}`, label: '切换账号' },
      ]),
    );
  }

  function unregisteredService(request: FastifyRequest, reply: FastifyReply) {
    const { service } = request.query as { service?: string };
    if (registry.isInternal(service, portalBase(request))) return signInExpired(request, reply);
    return html(
      reply,
      403,
      messagePage(casBase(request), '未授权的服务', '该应用未在统一身份认证中注册，不能使用此处登录。', [
        { href: `${portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  }

  /** A portal sign-in (OpenID Connect) whose request has expired: the application starts it again. */
  function signInExpired(request: FastifyRequest, reply: FastifyReply) {
    return html(
      reply,
      400,
      messagePage(casBase(request), '登录请求已过期', '登录请求已过期，请返回应用重新进入。', [
        { href: `${portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  }

  function executionToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[EXECUTION];
    if (existing && /^[a-f0-9]{32}$/.test(existing)) return existing;
    const token = randomBytes(16).toString('hex');
    reply.setCookie(EXECUTION, token, { path: '/cas', httpOnly: true, sameSite: 'strict', secure: secure(request) });
    return token;
  }

  /** The form's token matches this browser's cookie (double submit: another site cannot read or set it). */
  function executionValid(request: FastifyRequest, given: string | undefined): boolean {
    const expected = request.cookies[EXECUTION];
    return !!expected && !!given && sameToken(expected, given);
  }

  /**
   * `service` if the registry accepts it. The page answered then may send its forms' redirect to that
   * service's origin (CSP form-action): the login's last 303 leaves this site for it.
   */
  async function registeredService(request: FastifyRequest, reply: FastifyReply, service: string | undefined) {
    const registered = await registry.resolve(service, portalBase(request));
    // Only once per reply (allowFormAction): the origin where the sign-in ends, which for an OpenID
    // Connect sign-in is the relying party's after the portal's own callback (CSP checks every redirect).
    if (registered) reply.allowFormAction(registered.redirectOrigin ?? registered.url.origin);
    return registered;
  }

  /** The target of a step's form: its registered service (undefined and no URL when none was named) and renew. */
  async function targetOf(
    request: FastifyRequest,
    reply: FastifyReply,
    query: { service?: string | undefined; renew?: string | undefined },
    bodyRenew?: string,
  ): Promise<{ target: LoginTarget; unregistered: boolean }> {
    const registered = await registeredService(request, reply, query.service);
    const target: LoginTarget = { service: query.service, registered, renew: isTrue(query.renew) || isTrue(bodyRenew) };
    return { target, unregistered: query.service !== undefined && !registered };
  }

  /** 其他登录方式: the chat platforms some active enterprise has enabled a source of. */
  const chatLogins = (): Promise<ChatSourceType[]> => app.authSourceRepository.enabledChatTypes();

  async function renderLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    model: { service?: string | undefined; renew: boolean; username?: string; error?: string },
  ) {
    // Source buttons only for the enterprise owning the requested service (its CAS application, OIDC client or SAML SP).
    const registered = await registry.resolve(model.service, portalBase(request));
    const owner = registered?.application?.enterpriseId;
    const [chat, federated] = await Promise.all([chatLogins(), app.federationService.loginOptions(owner)]);
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
        chatLogins: chat,
        identityFirst: federated.identityFirst,
        federatedLogins: federated.sources,
      }),
    );
  }

  /**
   * The end of a successful login: a fresh SSO session (replacing any this browser had) whose login
   * audit row, last-login time and `within` commit together, then the service with its ticket.
   */
  async function completeLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    account: {
      id: number;
      username: string;
      profile?: AccountProfile;
      policy?: SecurityPolicy;
      method?: LoginMethod;
      /** A second factor was passed at this login (or a passkey was the sign-in). */
      multiFactor?: boolean;
    },
    target: RegisteredService | undefined,
    within?: (trx: Kysely<Database>) => Promise<void>,
  ) {
    const previous = request.cookies[TGC];
    if (previous?.startsWith('TGT-')) await singleLogout(request, await tickets.destroyTgt(previous, { reason: 'replaced' }));
    const profile = account.profile ?? (await accounts.profile(account.id));
    const policy = account.policy ?? (await app.securityPolicyRepository.ofEnterprise(profile?.enterpriseId ?? null));
    const client = { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
    // The sign-in names the enterprise application it was for when the account may use it (登录日志's 应用);
    // a refused one is logged as not-authorized by the ticket's issue below, on the same verdict.
    const decided = target ? await admission(account.id, target) : undefined;
    const signedInto = decided?.admitted ? (decided.application ?? undefined) : undefined;
    const opened = await tickets
      .createTgt(
        account.id,
        { ...client, authn: account.multiFactor || account.method === 'passkey' ? 'mfa' : account.method === 'password' ? 'password' : '' },
        async (trx) => {
          await within?.(trx);
          // The whole login succeeded: its failure counts (passwords, two-factor codes) start again.
          await app.loginGuardService.loginSucceeded(trx, account.id);
          await accounts.markLoggedIn(trx, account.id);
          await app.loginLogRepository.record(
            request.log,
            {
              accountId: account.id,
              username: account.username,
              enterpriseId: profile?.enterpriseId ?? null,
              name: profile?.name ?? '',
              result: 'success',
              ...(signedInto ? { applicationId: signedInto.id, applicationName: signedInto.name } : {}),
              ...(account.method ? { method: account.method } : {}),
              ...client,
            },
            trx,
          );
          // 新设备登录提醒: a browser the account never signed in from.
          await app.accountNoticeService.signedIn(trx, { id: account.id, authorities: profile?.authorities ?? [] }, client);
          await recordAudit(trx, request.log, {
            accountId: account.id,
            username: account.username,
            enterpriseId: profile?.enterpriseId ?? null,
            action: 'login',
            target: target?.redirectOrigin ?? target?.url.origin ?? '',
            ip: request.ip,
            outcome: 'success',
            ...(account.method === 'passkey' ? { detail: '通行密钥' } : {}),
          });
        },
        policy,
      )
      .catch((err: unknown) => {
        if (err instanceof SessionsFullError) return err;
        throw err;
      });
    if (opened instanceof SessionsFullError) {
      // The account proved itself; only room was lacking: its failure counts start again all the same.
      await app.loginGuardService.loginSucceeded(app.database.db, account.id);
      await app.loginLogRepository.record(request.log, {
        accountId: account.id,
        username: account.username,
        enterpriseId: profile?.enterpriseId ?? null,
        name: profile?.name ?? '',
        result: 'failure',
        reason: 'sessions-full',
        ...client,
      });
      return renderLogin(request, reply, 403, {
        service: target?.service,
        renew: false,
        username: account.username,
        error: opened.message,
      });
    }
    const { tgt, ended } = opened;
    // Sessions beyond 安全设置's cap ended with this one's opening: their applications hear of it.
    if (ended.length > 0) await singleLogout(request, ended);
    reply.setCookie(TGC, tgt, { path: '/cas', httpOnly: true, sameSite: 'lax', secure: secure(request) });
    if (target) return issueTicket(request, reply, { tgtId: tgt, accountId: account.id }, target, true, false, decided);
    return html(
      reply,
      200,
      messagePage(casBase(request), '登录成功', `欢迎您，${profile?.name ?? account.username}。`, [
        { href: `${portalBase(request)}/`, label: '进入门户' },
      ]),
    );
  }

  return {
    portalBase,
    casBase,
    html,
    redirectWithTicket,
    singleLogout,
    issueTicket,
    unregisteredService,
    executionToken,
    executionValid,
    registeredService,
    targetOf,
    renderLogin,
    completeLogin,
  };
}

export type CasLogin = ReturnType<typeof createCasLogin>;

declare module 'fastify' {
  interface FastifyInstance {
    casSignInService: CasLogin;
  }
}

export default fp(
  async (app) => {
    app.decorate('casSignInService', createCasLogin(app));
  },
  {
    name: 'cas-login',
    dependencies: [
      'account-repository',
      'account-notices',
      'cas-tickets',
      'cas-services',
      'login-guard',
      'login-log-repository',
      'sso-app-repository',
    ],
  },
);
