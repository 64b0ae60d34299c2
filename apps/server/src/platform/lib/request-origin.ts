import type { FastifyRequest } from 'fastify';

/** `scheme://host[:port]` the visitor used to reach this server. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
