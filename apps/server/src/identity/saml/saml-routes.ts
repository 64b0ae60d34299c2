import cookie from '@fastify/cookie';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ErrorEnvelope } from '../../platform/lib/envelope.js';
import { InputError } from '../../platform/lib/errors.js';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import { describeValidation } from '../../platform/plugins/error-handler.js';
import { type InboundParams, LOGOUT_CONTINUATION_PATH } from './saml-service.js';

/** The message fields of both bindings; bounds only (the service reads and checks the message). */
const Message = Type.Object({
  SAMLRequest: Type.Optional(Type.String({ maxLength: 200_000 })),
  SAMLResponse: Type.Optional(Type.String({ maxLength: 200_000 })),
  RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
  SigAlg: Type.Optional(Type.String({ maxLength: 200 })),
  Signature: Type.Optional(Type.String({ maxLength: 2000 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });
/** Pages for the person, whatever the status; the framework's own refusals keep the envelope. */
const PageAnswers = { 200: Html, '4xx': Type.Union([Html, ErrorEnvelope]), '5xx': ErrorEnvelope };

/** The refusal page for input refused before the service reads it; anything else goes to the portal's handler. */
function pageOnRefusal(app: FastifyInstance) {
  return (error: FastifyError | InputError, _request: unknown, reply: FastifyReply) => {
    if (error instanceof InputError) return app.samlService.invalid(reply, error.message);
    if (!('validation' in error) || !error.validation) throw error;
    return app.samlService.invalid(reply, describeValidation(error.validation, error.validationContext));
  };
}

/**
 * /saml: the identity provider's metadata, single sign-on and single logout endpoints (HTTP-Redirect
 * GET, HTTP-POST form), the central login's callback and 我的应用's IdP-initiated start. SPs post forms
 * from their own sites by design (SAML Bindings §3.5): no CSRF check; the messages are checked instead.
 */
export default async function samlRoutes(app: FastifyInstance) {
  acceptFormBodies(app);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => app.samlService;

  // Per-client-IP window of every SAML endpoint (each message costs a signature check and a row), wider
  // than the login form's: one sign-in is a request, a callback and a response.
  const messages = app.createRateLimit({ limit: 'saml', max: app.config.auth.loginAttemptsPerMinute * 3, timeWindow: 60_000 });
  app.addHook('onRequest', async (request, reply) => {
    const burst = await messages(request);
    if (!burst.isAllowed && burst.isExceeded) return service().busy(reply, burst.ttlInSeconds);
    return undefined;
  });
  // A message the schema or the input guard (control characters) refuses is answered with a page the
  // person can read, not an envelope.
  app.setErrorHandler(pageOnRefusal(app));

  typed.get('/metadata', { schema: { hide: true, response: { 200: Type.String() } } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .header('content-disposition', 'inline; filename="idp-metadata.xml"')
      .type('application/samlmetadata+xml; charset=utf-8')
      .send(await service().metadata()),
  );

  const sso = { hide: true, response: PageAnswers };
  typed.get('/sso', { schema: { ...sso, querystring: Message } }, async (request, reply) =>
    service().signOn(request, reply, 'redirect', request.query as InboundParams),
  );
  typed.post('/sso', { schema: { ...sso, body: Message }, config: { csrf: false } }, async (request, reply) =>
    service().signOn(request, reply, 'post', request.body as InboundParams),
  );
  typed.get('/slo', { schema: { ...sso, querystring: Message } }, async (request, reply) =>
    service().logout(request, reply, 'redirect', request.query as InboundParams),
  );
  typed.post('/slo', { schema: { ...sso, body: Message }, config: { csrf: false } }, async (request, reply) =>
    service().logout(request, reply, 'post', request.body as InboundParams),
  );

  typed.get(
    '/sign-in/:uid/callback',
    {
      schema: {
        hide: true,
        params: Type.Object({ uid: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 300 })) }),
        response: PageAnswers,
      },
    },
    async (request, reply) => service().callback(request, reply, request.params.uid, request.query.ticket),
  );
  typed.get(
    '/initiate/:applicationId',
    {
      schema: {
        hide: true,
        params: Type.Object({ applicationId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        response: PageAnswers,
      },
    },
    async (request, reply) => service().initiate(request, reply, request.params.applicationId),
  );
}

/**
 * The SP-initiated logout's second half, mounted under /cas: the TGC's cookie path, so that only the
 * session of the browser that brought the accepted LogoutRequest can end.
 */
export async function samlCasRoutes(app: FastifyInstance) {
  await app.register(cookie);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler(pageOnRefusal(app));
  typed.get(
    LOGOUT_CONTINUATION_PATH,
    { schema: { hide: true, querystring: Type.Object({ t: Type.String({ maxLength: 4000 }) }), response: PageAnswers } },
    async (request, reply) => app.samlService.continueLogout(request, reply, request.query.t),
  );
}
