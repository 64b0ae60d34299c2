import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id a proxy may hand on: nginx's `$request_id` (32 hex digits), a UUID, or a similar token. Anything
 * else (long, spaces, control or other characters a log or a CSV would have to escape) is replaced.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{8,64}$/;

/**
 * Fastify's genReqId: the trusted proxy's `X-Request-Id` when it is a sane token, so the proxy's log
 * and the portal's name the same request; otherwise a fresh UUID (unique across instances and restarts,
 * unlike a counter). A client reaching the portal directly cannot choose the id its lines are logged under.
 */
export function requestIdGenerator(fromTrustedProxy: (socketAddress: string) => boolean) {
  return (raw: IncomingMessage): string => {
    const given = raw.headers[REQUEST_ID_HEADER];
    if (typeof given === 'string' && SANE_REQUEST_ID.test(given) && fromTrustedProxy(raw.socket.remoteAddress ?? '')) return given;
    return randomUUID();
  };
}

/**
 * The request id a logger is bound to: Fastify binds `reqId` to a request's logger, which every
 * service call carries (`Actor.log`), so what it writes can name the request. '' for the app's own logger.
 */
export function requestIdOf(log: FastifyBaseLogger): string {
  const bindings = (log as { bindings?: () => Record<string, unknown> }).bindings?.();
  const id = bindings?.reqId;
  return typeof id === 'string' ? id : '';
}
