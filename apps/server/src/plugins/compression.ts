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
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
}

export default fp(compression, { name: 'compression', dependencies: ['http-cache'] });
