import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  SSR_FETCH_HEADER,
  SSR_STATE_ELEMENT_ID,
  type SsrEntry,
  type SsrFetchRequest,
  type SsrFetchResponse,
  type SsrPageHead,
  type SsrRenderResult,
} from '@portal/shared';
import escapeHtml from 'escape-html';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { BUILTIN_FILES_DIR, publicSiteUrl, resolveRuntimeConfig } from '../config.js';
import { requestOrigin } from '../lib/request-origin.js';

/** Rendered visitor pages are shared for this long (the same freshness as the article detail cache). */
const RENDER_TTL_MS = 5_000;
const MAX_CACHED_PAGES = 500;
/**
 * A rendered page is some tens of KB of text (two bytes a character once it holds Chinese): the cache
 * is bounded by what it holds, so many distinct list pages (a crawler's) cannot keep 500 of them.
 */
const MAX_CACHED_PAGE_BYTES = 16 * 1024 * 1024;
const ROOT_ELEMENT = '<div id="root"></div>';
const DESCRIPTION_META = /<meta name="description" content="([^"]*)"\s*\/?>/;
/** The app's scripts and its state: a page sent as plain HTML has none of them. */
const SCRIPT_ELEMENTS = /<script\b[^>]*>[\s\S]*?<\/script>\s*/g;
/** Link previews name the site with the product title (spec section 1). */
const SITE_NAME = 'Engineering e+';

/**
 * A page with its first view rendered, and its status: 404 when it shows that what was asked for does
 * not exist, 400 when it says the address was malformed.
 */
export interface RenderedPage {
  html: string;
  status: 200 | 400 | 404;
}

/** `<` cannot end the JSON script element early once escaped. */
function jsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Where the head's addresses point: the site's public address, never the Host a request named. */
interface SiteAddresses {
  /** PUBLIC_URL (or this server's own address): og:url and the canonical link start with it. */
  url: string;
  /** The static-file base there (FILE_STATIC_URL or `{url}/files`): relative images resolve against it. */
  files: string;
  /** Where `/files/` is served from: uploads, then the built-in images. */
  fileDirs: readonly string[];
}

/**
 * Link-preview fetchers (WeChat, most chat and social ones) show no SVG: an SVG file is named by its PNG
 * twin (the demo images have one, drawn with them) or left out. Raster uploads are used as they are.
 */
function rasterImage(image: string | undefined, fileDirs: readonly string[]): string | undefined {
  if (!image || !/\.svg$/i.test(image)) return image;
  if (/^[a-z]+:/i.test(image)) return undefined;
  const png = image.replace(/\.svg$/i, '.png');
  const relative = path.normalize(png.replace(/^\/+/, ''));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return fileDirs.some((dir) => fs.existsSync(path.join(dir, relative))) ? png : undefined;
}

/** og:image as an absolute http(s) URL: a file path resolves against the static-file base (spec section 3). */
function imageUrl(image: string | undefined, site: SiteAddresses): string | undefined {
  image = rasterImage(image, site.fileDirs);
  if (!image) return undefined;
  try {
    const url = /^https?:/i.test(image) ? new URL(image) : new URL(image.replace(/^\/+/, ''), new URL(`${site.files}/`, site.url));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The head of a rendered page: its title and description, and for search engines and link previews the
 * canonical address and Open Graph tags (https://ogp.me). A not-found page is kept out of indexes instead.
 */
function headTags(head: SsrPageHead, status: RenderedPage['status'], pageUrl: string, siteDescription: string, site: SiteAddresses) {
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}" />`;
  if (status !== 200) return '<meta name="robots" content="noindex" />';
  const url = `${site.url}${head.canonicalPath ?? pageUrl}`;
  const image = imageUrl(head.image, site);
  return [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('og:site_name', SITE_NAME),
    meta('og:locale', 'zh_CN'),
    meta('og:type', head.type),
    meta('og:title', head.shareTitle),
    ...(head.description || siteDescription ? [meta('og:description', head.description || siteDescription)] : []),
    meta('og:url', url),
    ...(image ? [meta('og:image', image)] : []),
  ].join('\n    ');
}

function fillTemplate(template: string, page: SsrRenderResult, pageUrl: string, site: SiteAddresses): string {
  const siteDescription = DESCRIPTION_META.exec(template)?.[1] ?? '';
  const { head } = page;
  // Replacements are functions: a `$` in a title is text, not a replacement pattern.
  let html = template.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`);
  if (head.description) {
    html = html.replace(DESCRIPTION_META, () => `<meta name="description" content="${escapeHtml(head.description ?? '')}" />`);
  }
  return html
    .replace('</head>', () => `  ${headTags(head, page.status, pageUrl, siteDescription, site)}\n  </head>`)
    .replace(
      ROOT_ELEMENT,
      () =>
        `<div id="root">${page.html}</div><script type="application/json" id="${SSR_STATE_ELEMENT_ID}">${jsonForScript(page.state)}</script>`,
    );
}

export interface PageRenderer {
  /** The page with its first view rendered, or undefined to answer the plain index.html. */
  render(request: FastifyRequest): Promise<RenderedPage | undefined>;
  /**
   * The page at `path` as plain HTML without the app's scripts, for an answer the browser's router
   * could not take over (an address it cannot decode); undefined when it cannot be rendered.
   */
  renderStatic(request: FastifyRequest, path: string): Promise<RenderedPage | undefined>;
  /**
   * The page's one address when the request named it in another case or with a trailing slash
   * (`/NEWS`, `/news/` → `/news`, the query kept); undefined when the request used it.
   */
  canonicalRedirect(request: FastifyRequest): string | undefined;
}

/**
 * Server rendering of public pages (the web app's `entry-server`): the first view arrives as HTML and
 * the browser hydrates it. Data comes from the portal's own routes through `inject`, so pages render
 * exactly what the API answers a visitor. Pages are the same for every visitor (no cookies are passed)
 * and are shared for a few seconds by page URL: the path and the query parameters the page reads, so
 * other parameters (tracking tags, cache busters) never cause a render, and every unknown path is the
 * one 404 page. Concurrent requests for a page share one render. A render that fails is logged and the
 * plain index.html is served: the browser then renders the page itself.
 */
export async function createPageRenderer(app: FastifyInstance, template: string): Promise<PageRenderer | undefined> {
  const entryFile = app.config.webSsrEntry;
  if (!entryFile || !fs.existsSync(entryFile) || !template.includes(ROOT_ELEMENT)) return undefined;
  const { entry } = (await import(pathToFileURL(entryFile).href)) as { entry: SsrEntry };
  const siteUrl = publicSiteUrl(app.config);
  const site: SiteAddresses = {
    url: siteUrl,
    files: resolveRuntimeConfig(app.config, siteUrl).fileStaticUrl,
    fileDirs: [app.config.filesDir, BUILTIN_FILES_DIR],
  };

  // The page request's Host was checked by allowed-hosts: the in-process calls carry the same one, and
  // say that they are a render's (an article read by the renderer is not a visitor's view).
  const fetchLocal =
    (host: string) =>
    async (call: SsrFetchRequest): Promise<SsrFetchResponse> => {
      const answer = await app.inject({
        method: call.method as 'GET',
        url: call.url,
        headers: { accept: 'application/json', host, [SSR_FETCH_HEADER]: '1' },
      });
      return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), body: answer.body };
    };

  const cache = new LRUCache<string, { page: RenderedPage | undefined }, { request: FastifyRequest; origin: string; url: string }>({
    max: MAX_CACHED_PAGES,
    maxSize: MAX_CACHED_PAGE_BYTES,
    sizeCalculation: (value, key) => 2 * (key.length + (value.page?.html.length ?? 0)),
    ttl: RENDER_TTL_MS,
    // A failed render is kept for the same few seconds: a broken page is not rendered again per request.
    fetchMethod: async (_key, _stale, { context: { request, origin, url } }) => {
      try {
        const page = await entry.render({ url, config: resolveRuntimeConfig(app.config, origin), fetchLocal: fetchLocal(request.host) });
        return { page: page ? { html: fillTemplate(template, page, url, site), status: page.status } : undefined };
      } catch (err) {
        request.log.warn({ err, url: request.url }, 'server rendering failed; serving the plain page');
        return { page: undefined };
      }
    },
  });
  // A page shows site settings, content and identifiers: a write to any of them renders it anew here.
  app.caches.register(['site', 'content', 'identifiers'], cache);

  const renderUrl = async (request: FastifyRequest, asked: string) => {
    const url = entry.pageUrl(asked);
    if (url === null) return undefined;
    const origin = requestOrigin(request);
    // The runtime configuration (hosts in the page) depends on the origin the visitor reached.
    return (await cache.fetch(`${origin}${url}`, { context: { request, origin, url } }))?.page;
  };

  return {
    render: (request) => renderUrl(request, request.url),
    async renderStatic(request, path) {
      const page = await renderUrl(request, path);
      return page && { ...page, html: page.html.replace(SCRIPT_ELEMENTS, '') };
    },
    canonicalRedirect(request) {
      const [asked = '/', query] = request.url.split(/\?(.*)/s);
      const page = entry.pageUrl(asked)?.split('?')[0];
      if (!page || page === asked || page.toLowerCase() !== asked.toLowerCase().replace(/\/+$/, '')) return undefined;
      return query === undefined ? page : `${page}?${query}`;
    },
  };
}
