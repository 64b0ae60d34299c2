import type { FastifyBaseLogger } from 'fastify';

/**
 * Who calls a service, as its audit rows name them and tenant scope reads them. The identity module
 * builds one from the request's session, so services (and tests of them) need no HTTP request.
 */
export interface Actor {
  /** null before sign-in (login pages, registration) and for refused requests. */
  accountId: number | null;
  username: string;
  enterpriseId: number | null;
  authorities: readonly string[];
  ip: string;
  /** `scheme://host[:port]` the caller reached the portal on: links built for them when PUBLIC_URL is unset. */
  origin: string;
  log: FastifyBaseLogger;
}
