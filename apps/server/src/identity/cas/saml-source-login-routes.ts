import cookie from '@fastify/cookie';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { FEDERATION_SESSION_COOKIE } from '../federation/federation-login-routes.js';
import { SUBMIT_SCRIPT_HASH, samlPostPage } from '../saml/saml-pages.js';
import { messagePage } from './login-page.js';

const SourceParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
/** The message fields of both bindings; bounds only (saml-sp.ts reads and checks the message). */
const Message = Type.Object({
  SAMLRequest: Type.Optional(Type.String({ maxLength: 400_000 })),
  SAMLResponse: Type.Optional(Type.String({ maxLength: 400_000 })),
  RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
  SigAlg: Type.Optional(Type.String({ maxLength: 200 })),
  Signature: Type.Optional(Type.String({ maxLength: 2000 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
// A refused request's schema error reaches the error handler's envelope, so 4xx is a page or the envelope.
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/**
 * The portal as an enterprise SAML 2.0 IdP's service provider, under `/cas/login/saml/{source}` (the
 * sign-in and its ACS are the federated sign-in's, `/cas/login/federation/{source}`): the SP metadata the
 * enterprise registers at its IdP, the HTTP-POST binding's request page and the SLO endpoint (the IdP's
 * LogoutRequest, and its LogoutResponse to ours). The IdP posts from its own site by design (SAML
 * Bindings §3.5): no CSRF check on the SLO; the messages are checked instead.
 */
export default async function samlSourceLoginRoutes(app: FastifyInstance) {
  await app.register(cookie);
  acceptFormBodies(app);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { casSignInService: casLogin } = app;
  const login = () => app.samlSourceLoginService;

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
  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? '', log: request.log });

  typed.get(
    '/login/saml/:id/request',
    {
      schema: {
        tags: ['cas'],
        summary: 'SAML 2.0 认证源：以 HTTP-POST 绑定把登录请求发往 IdP',
        params: SourceParams,
        querystring: Type.Object({ r: Type.String({ maxLength: 20_000 }) }),
        response: PageAnswers,
      },
    },
    async (request, reply) => {
      const source = await login().anySource(request.params.id);
      const fields = source && login().postRequest(request.query.r, source.id);
      if (!source || !fields) return page(request, reply, 400, '登录请求已过期', '登录请求已过期或无效，请重新登录。');
      const { SAMLRequest = '', RelayState = '' } = fields;
      const origin = new URL(source.config.ssoUrl).origin;
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          `default-src 'none'; script-src ${SUBMIT_SCRIPT_HASH}; style-src 'self'; img-src 'self'; form-action ${origin}; frame-ancestors 'none'; base-uri 'none'`,
        )
        .type('text/html; charset=utf-8')
        .send(samlPostPage(casLogin.casBase(request), source.config.ssoUrl, 'SAMLRequest', SAMLRequest, RelayState));
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
    reply.clearCookie(FEDERATION_SESSION_COOKIE, { path: '/cas' });
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
        response: { 200: Type.String(), '4xx': Type.Union([Html, ErrorEnvelope]) },
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
