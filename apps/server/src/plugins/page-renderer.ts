import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SSR_STATE_ELEMENT_ID, type SsrEntry, type SsrFetchRequest, type SsrFetchResponse, type SsrRenderResult } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { resolveRuntimeConfig } from '../config.js';
import { requestOrigin } from '../lib/request-origin.js';

/** Rendered visitor pages are shared for this long (the same freshness as the article detail cache). */
const RENDER_TTL_MS = 5_000;
// A rendered page is some tens of KB: this bounds the cache to a few tens of MB.
const MAX_CACHED_PAGES = 500;
const ROOT_ELEMENT = '<div id="root"></div>';

/** A rendered page, or none: the render failed or declined, and the plain index.html is served. */
interface RenderedPage {
  html: string | undefined;
}

/** `<` cannot end the JSON script element early once escaped. */
function jsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function fillTemplate(template: string, page: SsrRenderResult): string {
  const title = page.title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return template
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(
      ROOT_ELEMENT,
      `<div id="root">${page.html}</div><script type="application/json" id="${SSR_STATE_ELEMENT_ID}">${jsonForScript(page.state)}</script>`,
    );
}

export interface PageRenderer {
  /** The page's HTML with its first view rendered, or undefined to answer the plain index.html. */
  render(request: FastifyRequest): Promise<string | undefined>;
}

/**
 * Server rendering of public pages (the web app's `entry-server`): the first view arrives as HTML and
 * the browser hydrates it. Data comes from the portal's own routes through `inject`, so pages render
 * exactly what the API answers a visitor. Pages are the same for every visitor (no cookies are passed)
 * and are shared for a few seconds by page URL: the path and the query parameters the page reads, so
 * other parameters (tracking tags, cache busters) never cause a render. Concurrent requests for a page
 * share one render. A render that fails is logged and the plain index.html is served: the browser then
 * renders the page itself.
 */
export async function createPageRenderer(app: FastifyInstance, template: string): Promise<PageRenderer | undefined> {
  const entryFile = app.config.webSsrEntry;
  if (!entryFile || !fs.existsSync(entryFile) || !template.includes(ROOT_ELEMENT)) return undefined;
  const { entry } = (await import(pathToFileURL(entryFile).href)) as { entry: SsrEntry };

  // The page request's Host was checked by allowed-hosts: the in-process calls carry the same one.
  const fetchLocal =
    (host: string) =>
    async (call: SsrFetchRequest): Promise<SsrFetchResponse> => {
      const answer = await app.inject({ method: call.method as 'GET', url: call.url, headers: { accept: 'application/json', host } });
      return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), body: answer.body };
    };

  const cache = new LRUCache<string, RenderedPage, { request: FastifyRequest; origin: string; url: string }>({
    max: MAX_CACHED_PAGES,
    ttl: RENDER_TTL_MS,
    // A failed render is kept for the same few seconds: a broken page is not rendered again per request.
    fetchMethod: async (_key, _stale, { context: { request, origin, url } }) => {
      try {
        const page = await entry.render({ url, config: resolveRuntimeConfig(app.config, origin), fetchLocal: fetchLocal(request.host) });
        return { html: page ? fillTemplate(template, page) : undefined };
      } catch (err) {
        request.log.warn({ err, url: request.url }, 'server rendering failed; serving the plain page');
        return { html: undefined };
      }
    },
  });

  return {
    async render(request) {
      const url = entry.pageUrl(request.url);
      if (url === null) return undefined;
      const origin = requestOrigin(request);
      // The runtime configuration (hosts in the page) depends on the origin the visitor reached.
      const page = await cache.fetch(`${origin}${url}`, { context: { request, origin, url } });
      return page?.html;
    },
  };
}
