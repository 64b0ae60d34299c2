import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ResponseCode } from '@portal/shared';
import { CONTENT_CACHE, SITE_CACHE, publicCacheControl } from './http-cache.js';
import { createPageRenderer } from './page-renderer.js';

/** Path prefixes that belong to the API: an unknown one answers JSON 404, never the SPA. */
const API_PREFIXES = ['/open-api/', '/web-api/', '/web/', '/api/', '/cas/', '/dev/', '/files/', '/static/', '/docs', '/openapi.json'];

function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * A browser, search engine or link-preview fetcher asking for a page of the SPA (history mode):
 * answered with index.html. Link-preview fetchers often accept any type; a path with a file
 * extension is then a missing file, not a page.
 */
export function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (isApiPath(path)) return false;
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  return (accept === '' || accept.includes('*/*')) && !/\.[a-z0-9]+$/i.test(path);
}

/**
 * Serves the built React app with history-mode fallback: any page path gets index.html and the
 * client router decides; public pages come with their first view rendered on the server
 * (page-renderer.ts), and a page that shows that nothing is there (an unknown path, an unknown
 * article: spec section 8's 页面不存在) answers 404. Hashed assets are cached for a year.
 */
async function webApp(app: FastifyInstance) {
  const root = app.config.webDist;
  const indexFile = path.join(root, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  // Read once: every page load of the SPA answers these bytes.
  const indexHtml = hasWeb ? fs.readFileSync(indexFile) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      // The build writes .br and .gz next to each asset (scripts/precompress.mjs): no work per request.
      preCompressed: true,
      // The build is immutable: list its files once at start, so page paths never touch the disk.
      wildcard: false,
      setHeaders(reply, filePath) {
        const assets = `${path.sep}assets${path.sep}`;
        // Other files of the build (favicon, agreement pages) keep their names: shared caches keep them a minute.
        reply.header('cache-control', filePath.includes(assets) ? 'public, max-age=31536000, immutable' : publicCacheControl(SITE_CACHE));
      },
    });
    app.log.debug({ root }, 'serving web app');
  } else {
    app.log.warn({ root }, 'web app is not built: run `npm run build` (pages answer 404 until then)');
  }

  const renderer = indexHtml ? await createPageRenderer(app, indexHtml.toString('utf8')) : undefined;
  if (renderer) app.log.debug('public pages are rendered on the server');
  // Readiness (/readyz): with WEB_SSR on, an instance whose renderer did not load serves pages without their first view.
  app.decorate(
    'pageRendererState',
    app.config.webSsrEntry === undefined ? 'off' : renderer ? 'ok' : '页面渲染器未加载（请先构建前端：npm run build）',
  );

  // HEAD is rendered too (from the same cache): its status must be the page's. A page's Cache-Control
  // is the route's publicCache (http-cache): it is rendered without the visitor's cookies, so a shared
  // cache may keep a 200 or a 404 as long as the content it shows; a 400 is never kept.
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const canonical = renderer?.canonicalRedirect(request);
    if (canonical) return reply.header('cache-control', 'no-cache').redirect(canonical, 301);
    const rendered = await renderer?.render(request);
    return reply
      .status(rendered?.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(rendered?.html ?? indexHtml);
  };
  // A page address with a malformed %-escape reaches no route (app.ts, frameworkErrors): it gets the
  // site's 请求地址有误 page, when the server renders pages.
  app.decorate('badRequestPage', async (request: FastifyRequest) =>
    isPageRequest(request) ? renderer?.renderStatic(request, '/400') : undefined,
  );

  // Page paths are answered by the routes below: what is left is an unknown API path (JSON 404).
  // Rate limited like fastify/demo: guessing API paths is cheap for a scanner.
  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ limit: 'unknown-api-path', max: 300, timeWindow: '1 minute' }) },
    async (_request, reply) => reply.status(404).send({ code: ResponseCode.Error, msg: '请求的接口不存在' }),
  );

  if (indexHtml) {
    app.get('/', { schema: { hide: true }, config: { page: true, publicCache: CONTENT_CACHE } }, sendIndex);
    // Page paths are a route (not only the not-found handler) so that responses get compressed.
    app.get('/*', { schema: { hide: true }, config: { page: true, publicCache: CONTENT_CACHE } }, async (request, reply) =>
      isPageRequest(request) ? sendIndex(request, reply) : reply.callNotFound(),
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The 请求地址有误 page (HTTP 400) for a page request, or undefined: answer in the envelope. */
    badRequestPage(request: FastifyRequest): Promise<{ html: string } | undefined>;
    /** `ok`, `off` (WEB_SSR=0), or why the server renderer is not loaded. */
    pageRendererState: string;
  }
}

export default fp(webApp, { name: 'web-app', dependencies: ['security'] });
