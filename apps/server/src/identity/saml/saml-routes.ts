import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { acceptFormBodies } from '../../platform/lib/form-body.js';
import type { InboundParams } from './saml-service.js';

/** The message fields of both bindings; bounds only (the service reads and checks the message). */
const Message = Type.Object({
  SAMLRequest: Type.Optional(Type.String({ maxLength: 200_000 })),
  SAMLResponse: Type.Optional(Type.String({ maxLength: 200_000 })),
  RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
  SigAlg: Type.Optional(Type.String({ maxLength: 200 })),
  Signature: Type.Optional(Type.String({ maxLength: 2000 })),
});
const Html = Type.String({ description: 'text/html; charset=utf-8' });

/**
 * /saml: the identity provider's metadata, single sign-on and single logout endpoints (HTTP-Redirect
 * GET, HTTP-POST form), the central login's callback and 我的应用's IdP-initiated start. SPs post forms
 * from their own sites by design (SAML Bindings §3.5): no CSRF check; the messages are checked instead.
 */
export default async function samlRoutes(app: FastifyInstance) {
  acceptFormBodies(app);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => app.samlService;

  typed.get('/metadata', { schema: { hide: true, response: { 200: Type.String() } } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .header('content-disposition', 'inline; filename="idp-metadata.xml"')
      .type('application/samlmetadata+xml; charset=utf-8')
      .send(await service().metadata()),
  );

  const sso = { hide: true, response: { 400: Html } };
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
        response: { 400: Html },
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
        response: { 404: Html },
      },
    },
    async (request, reply) => service().initiate(request, reply, request.params.applicationId),
  );
}
