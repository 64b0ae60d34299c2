import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Below this a compressed answer saves less than its headers and the work cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Response compression (brotli or gzip, as the client accepts) for every answer over 1 KB: pages,
 * JSON, CSV exports. `npm start` has no reverse proxy in front to do it. Built assets are served from
 * their precompressed `.br`/`.gz` files, which already carry a Content-Encoding and are passed as
 * they are; behind nginx the proxy forwards the folded Accept-Encoding and caches one copy per
 * encoding (docs/deploy/nginx.conf).
 */
async function compression(app: FastifyInstance) {
  // Runs before the plugin's own onRoute hook, so the route options it reads are already set.
  app.addHook('onRoute', (route) => {
    // BREACH: the central login's pages carry a secret (the form's execution token) beside text the
    // visitor's address chooses (service, username); they go uncompressed.
    if (route.url.startsWith('/cas') && route.compress === undefined) route.compress = false;
    // The portal's clients never send compressed bodies; inflating them would only add a way to cost it.
    if (route.decompress === undefined) route.decompress = false;
  });
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
}

export default fp(compression, { name: 'compression', dependencies: ['http-cache'] });
