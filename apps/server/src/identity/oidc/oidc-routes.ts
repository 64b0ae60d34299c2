import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

/**
 * oidc-provider's routes for the features oidc-provider.ts enables (its default paths), with their
 * methods: OPTIONS where it answers CORS preflights. Anything else under /oidc is the portal's 404.
 */
const PROVIDER_ROUTES: readonly (readonly [string, readonly HTTPMethods[]])[] = [
  ['/.well-known/openid-configuration', ['GET', 'OPTIONS']],
  ['/.well-known/oauth-authorization-server', ['GET', 'OPTIONS']],
  ['/jwks', ['GET', 'OPTIONS']],
  ['/auth', ['GET']],
  ['/auth/:uid', ['GET']],
  ['/token', ['POST', 'OPTIONS']],
  ['/token/introspection', ['POST', 'OPTIONS']],
  ['/token/revocation', ['POST', 'OPTIONS']],
  ['/me', ['GET', 'POST', 'OPTIONS']],
  ['/session/end', ['GET']],
  ['/session/end/confirm', ['POST']],
  ['/session/end/success', ['GET']],
];

/**
 * /oidc: the OpenID provider's endpoints (discovery, JWKS, authorization, token, userinfo, introspection,
 * revocation, end session) answered by oidc-provider itself, and the interaction page it sends a
 * browser to for signing in. Registered with the prefix /oidc, encapsulated: the content-type parsers
 * removed here leave every body to the provider, which reads and checks its own (form posts, JSON).
 */
export default async function oidcRoutes(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The provider sends a browser here to sign in: on to the central login, and back (oidc-sign-in.ts).
  const Uid = Type.Object({ uid: Type.String({ maxLength: 64 }) });
  const Html = Type.String({ description: 'text/html; charset=utf-8' });
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/interaction/:uid', { schema: { hide: true, params: Uid, response: { 400: Html } } }, async (request, reply) =>
    app.oidcSignInService.start(request, reply, request.params.uid),
  );
  typed.get(
    '/interaction/:uid/callback',
    {
      schema: {
        hide: true,
        params: Uid,
        querystring: Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 300 })) }),
        response: { 400: Html },
      },
    },
    async (request, reply) => app.oidcSignInService.callback(request, reply, request.params.uid, request.query.ticket),
  );

  // The provider's own routes: its answers (OAuth errors in JSON, redirects, its pages) go out as it
  // writes them, with the headers OidcService sets; Fastify's reply hooks do not run for them.
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    try {
      await app.oidcService.handle(request, reply.raw);
    } catch (err) {
      // Only the provider's start can fail here (its own errors it answers itself): an OAuth error, never a hang.
      request.log.error({ err }, 'the OpenID provider could not answer');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        reply.raw.end(JSON.stringify({ error: 'server_error', error_description: '服务器内部错误，请稍后重试' }));
      }
    }
  };
  for (const [url, method] of PROVIDER_ROUTES) {
    // Clients post forms and Basic credentials from other sites by design (OAuth 2.0 §3.2): no CSRF check;
    // the provider guards its own browser form (the end-session xsrf token).
    app.route({ method: [...method], url, schema: { hide: true }, config: { csrf: false }, handler: forward });
  }
}
