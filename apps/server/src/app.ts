import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HandleResponseCode, ResponseCode } from '@portal/shared';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './platform/config.js';
import type { DatabaseHandle } from './platform/db/database.js';
import { AccessLogController } from './platform/lib/access-log.js';
import { type CacheClock, CacheRegistry } from './platform/lib/cache.js';
import { loggerOptions } from './platform/lib/logger.js';
import { REQUEST_ID_HEADER, requestIdGenerator } from './platform/lib/request-id.js';
import { OutboundGuard } from './platform/lib/outbound.js';
import { answerClientError } from './platform/plugins/error-handler.js';
import { PRIVATE_NO_STORE } from './platform/plugins/http-cache.js';
import webApp from './platform/plugins/web-app.js';
import contentModule from './content/index.js';
import identifiersModule from './identifiers/index.js';
import identityModule from './identity/index.js';
import insightsModule from './insights/index.js';
import organisationModule from './organisation/index.js';
import platformModule from './platform/index.js';

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Whether the socket's peer is a proxy TRUST_PROXY trusts (a number of hops: the peer is the first). */
function trustedPeer(trustProxy: ServerConfig['trustProxy']): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const trusted = proxyAddr.compile(trustProxy.split(',').map((s) => s.trim()));
  return (address) => trusted(address, 0);
}

export interface BuildAppOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  logger?: FastifyServerOptions['logger'];
  /** What the in-process caches' time to live is measured on (`performance` by default); a test moves its own. */
  clock?: CacheClock;
}

/**
 * Builds the portal server: the shared decorators, then each module in its declared order (each
 * registers its app plugins, then its routes), then the web app. The caller owns the database handle and closes it after `app.close()`.
 */
export async function buildApp({ config, database, logger, clock }: BuildAppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    // A number trusts that many hops from the socket: X-Forwarded-For entries further left are the client's to forge.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    return503OnClosing: true,
    // Each request's id, on its every log line and in its answer's X-Request-Id (plugins/request-id.ts).
    genReqId: requestIdGenerator(trustedPeer(config.trustProxy)),
    forceCloseConnections: 'idle',
    // At most one access-log line per request (platform/lib/access-log.ts) instead of Fastify's two.
    logController: new AccessLogController(config.accessLog),
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: true } },
    // What Node's HTTP parser refuses (headers too large, malformed requests) never reaches Fastify's
    // routes: answer it in the envelope too.
    clientErrorHandler: answerClientError,
    // A path with a malformed %-escape never reaches a route or the error handler: answer it as a bad
    // request all the same (the Handle API in its own form: responseCode 102, invalid handle). Such an
    // answer never reaches the HTTP caching hook: it says itself that it is not to be kept.
    frameworkErrors: (_error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', PRIVATE_NO_STORE).header(REQUEST_ID_HEADER, request.id);
      if (request.url.startsWith('/api/handles/')) {
        return reply.status(400).send({ responseCode: HandleResponseCode.InvalidHandle, message: '标识含有无法解码的 % 编码' });
      }
      const envelope = () => reply.status(400).send({ code: ResponseCode.Error, msg: '请求地址格式不正确' });
      // A browser asking for a page gets the site's page saying so; API clients keep the envelope.
      app
        .badRequestPage(request)
        .then((page) =>
          page ? reply.status(400).headers(app.pageSecurityHeaders).type('text/html; charset=utf-8').send(page.html) : envelope(),
        )
        .catch((err: unknown) => {
          request.log.warn({ err }, 'the bad-request page could not be rendered');
          return envelope();
        });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('caches', new CacheRegistry({ clock }));
  app.decorate(
    'outbound',
    new OutboundGuard({
      allowNetworks: config.outboundAllowNetworks,
      publicUrl: config.publicUrl,
      ports: () => {
        const bound = app.server.address();
        const ports = [config.port];
        if (bound && typeof bound === 'object') ports.push(bound.port);
        if (config.publicUrl) {
          const url = new URL(config.publicUrl);
          ports.push(Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
        }
        return ports;
      },
    }),
  );

  // One line per module, lowest first (docs/architecture.md): a module only uses what those before it declared.
  await app.register(platformModule);
  await app.register(identityModule);
  await app.register(contentModule);
  await app.register(organisationModule);
  await app.register(identifiersModule);
  await app.register(insightsModule);
  // Last: the web app answers what no route above claimed.
  await app.register(webApp);
  return app;
}

export type PortalApp = Awaited<ReturnType<typeof buildApp>>;
