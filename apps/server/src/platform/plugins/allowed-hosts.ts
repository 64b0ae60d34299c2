import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AllowedHost } from '../config.js';
import { errorBody } from '../lib/errors.js';

/** Load balancers and Prometheus reach instances by address; the probes and the metrics build no address. */
const ANY_HOST_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function isAllowedHost(request: FastifyRequest, allowed: readonly AllowedHost[]): boolean {
  const hostname = request.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = request.port ?? (request.protocol === 'https' ? 443 : 80);
  return allowed.some((host) => host.hostname === hostname && (host.port === undefined || host.port === port));
}

/**
 * Answers only for the hosts of the configuration (PUBLIC_URL, ALLOWED_HOSTS, loopback by default):
 * addresses the server builds from the request's Host (CAS service registration, callback and
 * runtime-configuration URLs) can then only be configured ones. Others get 421 Misdirected Request
 * (RFC 9110 §15.5.20).
 */
async function allowedHosts(app: FastifyInstance) {
  const allowed = [...app.config.allowedHosts];
  // Listening on port 0 (tests, a supervisor that picks ports): the loopback default follows the port taken.
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address === 'string' || address.port === app.config.port) return;
    for (const host of app.config.allowedHosts) {
      if (host.port === app.config.port) allowed.push({ hostname: host.hostname, port: address.port });
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    if (ANY_HOST_PATHS.has(request.url) || isAllowedHost(request, allowed)) return;
    return reply.status(421).send(errorBody(request.url, '不受支持的访问地址，请使用门户的正式地址访问'));
  });
}

export default fp(allowedHosts, { name: 'allowed-hosts' });
