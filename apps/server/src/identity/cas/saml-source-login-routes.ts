import cookie from '@fastify/cookie';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import escapeHtml from 'escape-html';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { SAML_SP_REQUEST_SECONDS } from '../auth-sources/saml/saml-sp.js';
import { SUBMIT_SCRIPT_HASH, samlPostPage } from '../saml/saml-pages.js';
import { layout, messagePage } from './login-page.js';
import type { SamlSource, SamlTestOutcome } from './saml-source-login-service.js';

/** The cookie binding a pending SAML sign-in to the browser that started it (HttpOnly, under the source's paths only). */
const PENDING_COOKIE = 'CASSAML';
const PENDING_PATH = '/cas/login/saml';
/** The cookie naming the federated sign-in this browser holds, read by 退出 (/cas/logout). */
export const SAML_SESSION_COOKIE = 'CASSAMLSP';
const SESSION_PATH = '/cas';

const SourceParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const StartQuery = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2048 })),
  renew: Type.Optional(Type.String({ maxLength: 8 })),
  test: Type.Optional(Type.String({ maxLength: 512 })),
});
/** The message fields of both bindings; bounds only (saml-sp.ts reads and checks the message). */
const Message = Type.Object({
  SAMLRequest: Type.Optional(Type.String({ maxLength: 400_000 })),
  SAMLResponse: Type.Optional(Type.String({ maxLength: 400_000 })),
  RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
  SigAlg: Type.Optional(Type.String({ maxLength: 200 })),
  Signature: Type.Optional(Type.String({ maxLength: 2000 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
const PageAnswers = { 200: Html, '4xx': Html };

/** 测试连接's popup page: what the IdP sent and which account fields it fills; nobody is signed in. */
function testResultPage(casBase: string, outcome: SamlTestOutcome): string {
  const row = (name: string, value: string) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value || '（空）')}</td></tr>`;
  const attributes = Object.entries(outcome.attributes)
    .map(([name, values]) => row(name, values.join('、')))
    .join('');
  const body = outcome.ok
    ? `<h1>测试登录成功</h1>
<p class="cas-card__text">${escapeHtml(outcome.detail)}。未登录任何账号，可以关闭此窗口。</p>
<h2>NameID</h2><p class="cas-card__text" data-field="nameId">${escapeHtml(outcome.nameId)}</p>
<h2>收到的属性</h2><table class="cas-table" data-field="attributes">${attributes || row('（无属性）', '')}</table>
<h2>映射到账号的字段</h2><table class="cas-table" data-field="mapped">${row('用户名', outcome.fields.username)}${row('姓名', outcome.fields.name)}${row('手机号', outcome.fields.phone)}${row('邮箱', outcome.fields.email)}</table>
<p class="cas-card__text">${escapeHtml(outcome.account)}</p>`
    : `<h1>测试登录失败</h1><p class="cas-card__text">${escapeHtml(outcome.detail)}</p>`;
  return layout(outcome.ok ? '测试登录成功' : '测试登录失败', casBase, body, 'SAML 2.0');
}

/**
 * Sign-in through an enterprise's SAML 2.0 identity provider (the portal as its service provider), under
 * `/cas/login/saml/{source}`: the start (the AuthnRequest, HTTP-Redirect or HTTP-POST), the ACS (the
 * IdP's HTTP-POST response), the SLO endpoint (the IdP's LogoutRequest, and its LogoutResponse to ours)
 * and the SP metadata the enterprise registers at its IdP. The IdP posts from its own site by design
 * (SAML Bindings §3.5): no CSRF check on the ACS and SLO; the messages are checked instead.
 */
export default async function samlSourceLoginRoutes(app: FastifyInstance) {
  await app.register(cookie);
  acceptFormBodies(app);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { casSignInService: casLogin, loginStepService: steps } = app;
  const login = () => app.samlSourceLoginService;
  // Per client IP, as in front of the password form: each response costs signature checks.
  const attempts = app.createRateLimit({ limit: 'saml-source-login', max: app.config.auth.loginAttemptsPerMinute, timeWindow: 60_000 });

  const page = (request: FastifyRequest, reply: FastifyReply, status: number, title: string, text: string, service?: string) => {
    const casBase = casLogin.casBase(request);
    return casLogin.html(
      reply,
      status,
      messagePage(casBase, title, text, [
        { href: `${casBase}/login${service ? `?service=${encodeURIComponent(service)}` : ''}`, label: '返回登录' },
        { href: `${casLogin.portalBase(request)}/`, label: '返回门户首页' },
      ]),
    );
  };
  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });

  /** Sends the browser to the IdP with a new AuthnRequest; its answer is bound to this browser by the cookie. */
  async function sendToIdp(
    request: FastifyRequest,
    reply: FastifyReply,
    source: SamlSource,
    target: { service?: string; renew: boolean; test?: boolean },
  ) {
    const started = await login().start(source, casLogin.portalBase(request), {
      service: target.service,
      renew: target.renew,
      test: target.test ?? false,
    });
    reply.setCookie(PENDING_COOKIE, started.cookie, {
      path: PENDING_PATH,
      httpOnly: true,
      // The IdP's answer is a cross-site POST: only SameSite=None (with Secure) carries the cookie on it.
      sameSite: secure(request) ? 'none' : 'lax',
      secure: secure(request),
      maxAge: SAML_SP_REQUEST_SECONDS,
    });
    if (started.post) {
      const { SAMLRequest = '', RelayState = '' } = started.post.fields;
      const origin = new URL(started.post.action).origin;
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          `default-src 'none'; script-src ${SUBMIT_SCRIPT_HASH}; style-src 'self'; img-src 'self'; form-action ${origin}; frame-ancestors 'none'; base-uri 'none'`,
        )
        .type('text/html; charset=utf-8')
        .send(samlPostPage(casLogin.casBase(request), started.post.action, 'SAMLRequest', SAMLRequest, RelayState));
    }
    return reply.redirect(started.redirect ?? source.config.ssoUrl, 302);
  }

  typed.get(
    '/login/saml/:id',
    {
      schema: {
        tags: ['cas'],
        summary: 'CAS 登录：通过企业的 SAML 2.0 身份提供方登录',
        params: SourceParams,
        querystring: StartQuery,
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (request.query.test !== undefined) {
        // 测试连接's popup: a short-lived ticket the console handed out for this source, no login target.
        const source = await login().anySource(id);
        if (!source || !login().testTicketValid(request.query.test, source)) {
          return page(request, reply, 400, '测试链接已失效', '测试链接已过期或无效，请在认证源页面重新点击测试登录。');
        }
        return sendToIdp(request, reply, source, { renew: true, test: true });
      }
      const { target, unregistered } = await casLogin.targetOf(request, reply, request.query);
      if (unregistered) return casLogin.unregisteredService(request, reply);
      const source = await login().enabledSource(id);
      if (!source) {
        return casLogin.renderLogin(request, reply, 404, {
          service: target.service,
          renew: target.renew,
          error: '该企业的 SAML 登录未启用，请使用账号密码登录',
        });
      }
      return sendToIdp(request, reply, source, { ...(target.service ? { service: target.service } : {}), renew: target.renew });
    },
  );

  typed.post(
    '/login/saml/:id/acs',
    {
      schema: {
        tags: ['cas'],
        summary: 'SAML 2.0 认证源：断言消费地址（ACS，HTTP-POST）',
        params: SourceParams,
        body: Message,
        response: PageAnswers,
      },
      config: { csrf: false },
    },
    async (request, reply) => {
      const cookieValue = request.cookies[PENDING_COOKIE];
      // One use: whatever happens next, this browser's pending sign-in ends here.
      reply.clearCookie(PENDING_COOKIE, { path: PENDING_PATH });
      const pending = login().pending(cookieValue);
      const burst = await attempts(request);
      if (!burst.isAllowed && burst.isExceeded) {
        reply.header('retry-after', burst.ttlInSeconds);
        return page(request, reply, 429, '登录尝试过于频繁', `请 ${burst.ttlInSeconds} 秒后再试。`);
      }
      const encoded = request.body.SAMLResponse;
      const source = await (pending?.test ? login().anySource(request.params.id) : login().enabledSource(request.params.id));
      if (!source) return page(request, reply, 404, '无法登录', '该企业的 SAML 登录未启用，请使用账号密码登录。');
      if (!pending || pending.sourceId !== source.id || !encoded) {
        // An unsolicited (IdP-initiated) response, another browser's, or one that came too late: nothing is signed in.
        await login().refusedWithoutRequest(
          source,
          clientOf(request),
          pending ? '缺少 SAMLResponse' : '没有待完成的登录请求（IdP 发起的登录、已过期或在其他浏览器发起）',
        );
        return page(request, reply, 400, '登录请求已过期', '登录请求已过期或无效，请重新从登录页选择企业身份提供方登录。');
      }
      const portalBase = casLogin.portalBase(request);
      if (pending.test) {
        return casLogin.html(
          reply,
          200,
          testResultPage(casLogin.casBase(request), await login().testSignIn(source, pending, encoded, portalBase)),
        );
      }
      const resolved = await casLogin.targetOf(request, reply, { service: pending.service, renew: pending.renew ? 'true' : undefined });
      if (resolved.unregistered) return casLogin.unregisteredService(request, reply);
      const signedIn = await login().signIn(source, pending, encoded, portalBase, clientOf(request));
      if (signedIn.kind === 'refused') return page(request, reply, signedIn.status, signedIn.title, signedIn.text, pending.service);
      reply.setCookie(SAML_SESSION_COOKIE, login().sessionCookie(signedIn.sessionId), {
        path: SESSION_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
      });
      // The IdP holds the credential: no password of the portal's is changed or expires.
      const policy = await app.securityPolicyRepository.ofEnterprise(source.enterpriseId);
      return steps.next(request, reply, signedIn.accountId, resolved.target, 'password', { policy, directoryPassword: true });
    },
  );

  /** The IdP's LogoutRequest (HTTP-Redirect or HTTP-POST), or its LogoutResponse to ours (the end of 退出). */
  async function slo(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    message: Record<string, string | undefined>,
    posted: boolean,
  ) {
    const source = await login().anySource(id);
    if (!source) return page(request, reply, 404, '无法登出', '认证源不存在。');
    if (message.SAMLResponse !== undefined) {
      // Our LogoutRequest's answer: this browser's sessions ended already, before it went to the IdP.
      return casLogin.html(
        reply,
        200,
        messagePage(casLogin.casBase(request), '您已安全退出', '统一身份认证会话已结束，企业身份提供方也已退出。', [
          { href: `${casLogin.portalBase(request)}/`, label: '返回门户首页' },
        ]),
      );
    }
    const fields = Object.fromEntries(Object.entries(message).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const outcome = await login().idpLogout(
      source,
      casLogin.portalBase(request),
      posted ? { body: fields } : { query: fields, originalQuery: rawQuery },
      { ...clientOf(request), origin: casLogin.portalBase(request) },
    );
    if (outcome.kind === 'refused') return page(request, reply, 400, '登出请求无效', `${outcome.reason}。`);
    reply.clearCookie(SAML_SESSION_COOKIE, { path: SESSION_PATH });
    return reply.redirect(outcome.redirect, 302);
  }

  typed.get(
    '/login/saml/:id/slo',
    {
      schema: {
        tags: ['cas'],
        summary: 'SAML 2.0 认证源：单点登出（HTTP-Redirect）',
        params: SourceParams,
        querystring: Message,
        response: PageAnswers,
      },
    },
    async (request, reply) => slo(request, reply, request.params.id, request.query, false),
  );
  typed.post(
    '/login/saml/:id/slo',
    {
      schema: {
        tags: ['cas'],
        summary: 'SAML 2.0 认证源：单点登出（HTTP-POST）',
        params: SourceParams,
        body: Message,
        response: PageAnswers,
      },
      config: { csrf: false },
    },
    async (request, reply) => slo(request, reply, request.params.id, request.body, true),
  );

  typed.get(
    '/login/saml/:id/metadata',
    {
      schema: {
        tags: ['cas'],
        summary: 'SAML 2.0 认证源：本平台作为 SP 的元数据（在 IdP 登记）',
        params: SourceParams,
        querystring: Type.Object({ download: Type.Optional(Type.String({ maxLength: 8 })) }),
        response: { 200: Type.String(), '4xx': Html },
      },
    },
    async (request, reply) => {
      const source = await login().anySource(request.params.id);
      if (!source) return page(request, reply, 404, '认证源不存在', '该 SAML 认证源不存在。');
      const disposition = request.query.download === undefined ? 'inline' : 'attachment';
      return reply
        .header('cache-control', 'no-cache')
        .header('content-disposition', `${disposition}; filename="sp-metadata-${source.id}.xml"`)
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(await login().metadata(source, casLogin.portalBase(request)));
    },
  );
}
