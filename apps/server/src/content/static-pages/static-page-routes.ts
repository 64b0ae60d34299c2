import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../../platform/config.js';

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
    setHeaders(reply) {
      reply.header('cache-control', 'no-cache').header('content-type', 'text/html; charset=utf-8');
    },
  });
}
