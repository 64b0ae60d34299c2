import etag from '@fastify/etag';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * How long shared caches (the reverse proxy, a CDN) may keep a public answer, in seconds. Browsers
 * revalidate every time (`max-age=0` unless given) and get 304 while the ETag still matches.
 */
export interface PublicCachePolicy {
  sMaxAge: number;
  staleWhileRevalidate: number;
  maxAge?: number;
}

/** Published content, category trees, applications: an edit shows within seconds everywhere. */
export const CONTENT_CACHE: PublicCachePolicy = { sMaxAge: 10, staleWhileRevalidate: 60 };
/** Header, footer, home blocks and other site settings: edited rarely, read by every page. */
export const SITE_CACHE: PublicCachePolicy = { sMaxAge: 60, staleWhileRevalidate: 600 };
/** Reference data shipped with a release (the administrative divisions): browsers and caches keep it a day. */
export const REFERENCE_CACHE: PublicCachePolicy = { sMaxAge: 86_400, staleWhileRevalidate: 86_400, maxAge: 86_400 };

export function publicCacheControl({ sMaxAge, staleWhileRevalidate, maxAge = 0 }: PublicCachePolicy): string {
  return `public, max-age=${maxAge}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`;
}

/** What depends on the caller (sessions, tokens, console data, errors) is never stored anywhere. */
export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * A public read asked for with the portal session cookie or an Authorization header: the browser may
 * keep it (and revalidate it with its ETag), a shared cache never, as nginx's bypass of such requests.
 */
export const PRIVATE_REVALIDATE = 'private, no-cache';

/** The portal session's cookie (identity's portal-auth sets it): a request carrying it is a signed-in visitor's. */
export const SESSION_COOKIE = 'PORTAL_SESSION';
const SESSION_COOKIE_SENT = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/** Whether the request carries credentials (a session cookie, a bearer token): its answer is never shared. */
export function carriesCredentials(request: FastifyRequest): boolean {
  const { authorization, cookie } = request.headers;
  return authorization !== undefined || (cookie !== undefined && SESSION_COOKIE_SENT.test(cookie));
}

/**
 * Kept by the client for `seconds`, never by a shared cache: identifier answers, so that every lookup a
 * cache does not answer on the client's side reaches the portal and counts in 标识统计.
 */
export function browserCacheControl(seconds: number): string {
  return `private, max-age=${seconds}`;
}

/**
 * HTTP caching: a weak ETag on every answer with a body (304 when `If-None-Match` matches), and a
 * Cache-Control on every answer that has none yet: the route's `publicCache` policy for a 200 or a
 * 404, `private, no-store` for everything else. A public read asked for with credentials is `private,
 * no-cache`: nothing in it depends on them, but a shared cache must never hold what a signed-in
 * visitor was sent. Routes that set their own (identifier answers, `browserCacheControl`) keep it.
 */
async function httpCache(app: FastifyInstance) {
  // Weak: one ETag names the answer whether it travels plain, gzip or brotli (RFC 9110 §8.8.3).
  await app.register(etag, { weak: true });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) {
      const policy = reply.routeOptions.config.publicCache;
      // A 304 carries the Cache-Control its 200 would have (RFC 9110 §15.4.5). A public route's 404 (an
      // article unpublished or deleted) is the same for every visitor and is shared as long as its 200
      // was: it replaces the copy a proxy holds, which would otherwise be served stale while it refreshes.
      const cacheable = reply.statusCode === 200 || reply.statusCode === 304 || reply.statusCode === 404;
      const value =
        !policy || !cacheable ? PRIVATE_NO_STORE : carriesCredentials(request) ? PRIVATE_REVALIDATE : publicCacheControl(policy);
      reply.header('cache-control', value);
    }
    return payload;
  });
}

export default fp(httpCache, { name: 'http-cache' });
