import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../platform/config.js';
import { SITE_CACHE, publicCacheControl } from '../../platform/plugins/http-cache.js';

/** Static HTML fragments the web app's page loader fetches as `/static{path}.htm` (spec section 7). */
export const STATIC_PAGES = path.join(REPO_ROOT, 'apps/server/assets/static');

export default async function staticPageRoutes(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    root: STATIC_PAGES,
    prefix: '/static/',
    decorateReply: false,
    index: false,
    wildcard: false,
    allowedPath: (pathName) => pathName.endsWith('.htm'),
    // Files of the release, the same for every visitor: shared caches keep them as long as site settings.
    setHeaders(reply) {
      reply.header('cache-control', publicCacheControl(SITE_CACHE)).header('content-type', 'text/html; charset=utf-8');
    },
  });
}
