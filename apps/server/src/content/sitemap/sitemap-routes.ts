import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SitemapFileParamsSchema } from '@portal/shared';
import escapeHtml from 'escape-html';
import { Type } from 'typebox';
import { publicSiteUrl } from '../../platform/config.js';
import { errorResponses } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { CONTENT_CACHE, SITE_CACHE } from '../../platform/plugins/http-cache.js';

/** sitemaps.org: at most 50 000 URLs in one sitemap file; more are split into files listed by a sitemap index. */
export const URLS_PER_SITEMAP = 50_000;

/** The public pages of spec section 2, /product, the open-service centre, the app download page and the user agreement file. */
export const PUBLIC_PAGES = [
  '/',
  '/news',
  '/knowledge',
  '/mark',
  '/settled',
  '/remote',
  '/product',
  '/open-service',
  '/open-service/api',
  '/app-download',
  '/privacy',
  '/service',
  '/agreement.html',
] as const;

/** Where the article pages of each list live (spec section 2: /news/detail and /knowledge/detail). */
const DETAIL_PATHS: Partial<Record<string, string>> = { knowledge: '/knowledge/detail' };
const NEWS_DETAIL = '/news/detail';
const APPLICATION_DETAIL = '/product/center/detail';

interface SitemapUrl {
  path: string;
  /** ISO-8601 UTC. */
  lastmod?: string;
}

// escape-html's character references (&#39; for ') are XML's too: every value is entity-escaped as the protocol asks.
const xml = escapeHtml;

/** W3C datetime to the second, or nothing for a value that is not a time. */
function lastmodOf(iso: string): string | undefined {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function urlset(site: string, urls: readonly SitemapUrl[]): string {
  const entries = urls.map((u) => `<url><loc>${xml(site + u.path)}</loc>${u.lastmod ? `<lastmod>${xml(u.lastmod)}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(site: string, files: number): string {
  const entries = Array.from({ length: files }, (_, i) => `<sitemap><loc>${xml(`${site}/sitemap-${i + 1}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/**
 * What search engines may crawl: `robots.txt` keeps them out of the console, the central
 * login, the APIs and the development tools and names the sitemap; `sitemap.xml` lists the public pages,
 * published articles of both lists and published applications, from the database. Addresses start with
 * the site's public address (PUBLIC_URL), never with the Host a request named.
 */
const sitemapRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const site = publicSiteUrl(app.config);
  const repository = app.sitemapRepository;

  /** The URLs from position `start` (inclusive) to `end` (exclusive): public pages, then articles, then applications. */
  async function urls(start: number, end: number, counts: { articles: number }): Promise<SitemapUrl[]> {
    const pages = PUBLIC_PAGES.length;
    const found: SitemapUrl[] = PUBLIC_PAGES.slice(start, end).map((path) => ({ path }));
    const articleStart = Math.max(0, start - pages);
    const articleEnd = Math.min(counts.articles, end - pages);
    if (articleEnd > articleStart) {
      for (const a of await repository.articles(articleStart, articleEnd - articleStart)) {
        const lastmod = lastmodOf(a.updatedAt);
        found.push({ path: `${DETAIL_PATHS[a.channel] ?? NEWS_DETAIL}?id=${encodeURIComponent(a.uuid)}`, ...(lastmod ? { lastmod } : {}) });
      }
    }
    const appStart = Math.max(0, start - pages - counts.articles);
    const appEnd = end - pages - counts.articles;
    if (appEnd > appStart) {
      for (const uuid of await repository.applications(appStart, appEnd - appStart)) {
        found.push({ path: `${APPLICATION_DETAIL}?uuid=${encodeURIComponent(uuid)}` });
      }
    }
    return found;
  }

  // Built from the database at most once a minute per instance (a content write clears it at once), so
  // a crawler or a scanner asking again and again costs nothing; shared caches keep it too.
  const documents = app.caches.create<{ xml: string }>('content', {
    max: 8,
    ttl: 60_000,
    maxSize: 64 * 1024 * 1024,
    sizeOf: (d) => d.xml.length * 2,
    async load(key) {
      const counts = await repository.counts();
      const total = PUBLIC_PAGES.length + counts.articles + counts.applications;
      const files = Math.max(1, Math.ceil(total / URLS_PER_SITEMAP));
      if (key === 'index') {
        return { xml: files === 1 ? urlset(site, await urls(0, total, counts)) : sitemapIndex(site, files) };
      }
      const file = Number(key);
      if (file > files) return undefined;
      return { xml: urlset(site, await urls((file - 1) * URLS_PER_SITEMAP, file * URLS_PER_SITEMAP, counts)) };
    },
  });

  app.get(
    '/robots.txt',
    {
      config: { publicCache: SITE_CACHE },
      schema: { hide: true, response: { 200: Type.String() } },
    },
    async (_request, reply) => {
      reply.type('text/plain; charset=utf-8');
      return [
        'User-agent: *',
        // The console (and its refresh route), a user's own pages, the central login, the APIs and the development tools.
        ...[
          '/console',
          '/redirect/',
          '/my-apps',
          '/cas/',
          '/web/',
          '/web-api/',
          '/open-api/',
          '/api/',
          '/dev/',
          '/docs',
          '/openapi.json',
        ].map((path) => `Disallow: ${path}`),
        '',
        `Sitemap: ${site}/sitemap.xml`,
        '',
      ].join('\n');
    },
  );

  app.get(
    '/sitemap.xml',
    {
      config: { publicCache: CONTENT_CACHE },
      schema: { hide: true, response: { 200: Type.String(), ...errorResponses } },
    },
    async (_request, reply) => {
      reply.type('application/xml; charset=utf-8');
      return (await documents.get('index'))!.xml;
    },
  );

  app.get(
    '/sitemap-:file.xml',
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        hide: true,
        params: SitemapFileParamsSchema,
        response: { 200: Type.String(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const document = await documents.get(request.params.file);
      if (!document) throw new NotFoundError('站点地图不存在');
      reply.type('application/xml; charset=utf-8');
      return document.xml;
    },
  );
};

export default sitemapRoutes;
