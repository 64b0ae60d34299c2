import type { FastifyInstance } from 'fastify';

/**
 * This server's own origin over loopback, at the port it listens on (PORT until it listens): how it
 * reaches its embedded CAS over HTTP without leaving the machine, whatever Host a request named.
 */
export function loopbackOrigin(app: FastifyInstance): string {
  const address = app.server.address();
  const bound = address && typeof address === 'object' ? address : undefined;
  const host = !bound || bound.address === '0.0.0.0' || bound.address === '::' ? '127.0.0.1' : bound.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound?.port ?? app.config.port}`;
}
