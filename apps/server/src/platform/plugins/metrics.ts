import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { ResponseCode } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PortalMetrics } from '../lib/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's Prometheus metrics: services count through its methods (platform/lib/metrics.ts). */
    metrics: PortalMetrics;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

const UNAUTHORIZED = { code: ResponseCode.Error, msg: '指标接口需要正确的访问令牌' };

/**
 * `/metrics` in the Prometheus text format, never on the public site: on a port of its own
 * (METRICS_PORT, which the proxy does not forward) or behind a bearer token (METRICS_TOKEN), both when
 * both are set; with neither there is no metrics endpoint. Each instance answers for itself.
 */
async function metrics(app: FastifyInstance) {
  const { port, token } = app.config.metrics;
  const portal = new PortalMetrics(app.database.poolState);
  app.decorate('metrics', portal);
  // Query latency through Kysely's log hook (db/database.ts), while this app is open.
  const stopObserving = app.database.observeQueries((ms, failed) => portal.query(ms, failed));
  app.addHook('onClose', async () => stopObserving());
  // The route's pattern (routeOptions.url), never the URL: label values stay bounded whatever clients send.
  app.addHook('onResponse', (request, reply, done) => {
    portal.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  if (port !== undefined) {
    const server = http.createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const answer = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type }).end(body);
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        answer(404, 'application/json; charset=utf-8', JSON.stringify({ code: ResponseCode.Error, msg: '请求的接口不存在' }));
        return;
      }
      if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
        res.setHeader('www-authenticate', 'Bearer');
        answer(401, 'application/json; charset=utf-8', JSON.stringify(UNAUTHORIZED));
        return;
      }
      portal.scrape().then(
        ({ contentType, body }) => answer(200, contentType, body),
        (err: unknown) => {
          app.log.error({ err }, 'metrics scrape failed');
          answer(500, 'text/plain; charset=utf-8', 'metrics unavailable\n');
        },
      );
    });
    // Opened with the portal's listener (tests that only inject open no port), on the same host.
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, app.config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      app.log.info({ port }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return;
  }

  if (token === undefined) return;
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      onRequest: async (request, reply) => {
        if (!bearerMatches(request.headers.authorization, token)) {
          return reply.status(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED);
        }
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await portal.scrape();
      return reply.type(contentType).send(body);
    },
  );
}

export default fp(metrics, { name: 'metrics' });
