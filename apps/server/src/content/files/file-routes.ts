import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { BUILTIN_FILES_DIR } from '../../platform/config.js';

/** Images the project draws itself (scripts/draw-demo-images.mjs), referenced by the demo data. */
export const BUILTIN_FILES = BUILTIN_FILES_DIR;

/** `/files/…`: uploads first, then the built-in demo images. */
export default async function fileRoutes(app: FastifyInstance) {
  fs.mkdirSync(app.config.filesDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: [app.config.filesDir, BUILTIN_FILES],
    prefix: '/files/',
    decorateReply: false,
    index: false,
    maxAge: '7d',
    // Uploaded SVGs must never run script, even when opened directly.
    setHeaders(reply) {
      reply.header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
    },
  });
}
