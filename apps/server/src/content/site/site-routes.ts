import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, SiteInfoSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { SITE_CACHE } from '../../platform/plugins/http-cache.js';

/** What the public header and footer show (spec section 2, "Public header and footer"). */
const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read by every page render and load, edited rarely: kept 30 s on this instance.
  const site = app.caches.create('site', { max: 1, ttl: 30_000, load: () => app.siteRepository.siteInfo() });
  app.get(
    `${ApiPrefix.portal}/site`,
    {
      config: { publicCache: SITE_CACHE },
      schema: {
        tags: ['site'],
        summary: '门户页头菜单与页脚信息',
        response: { 200: Envelope(SiteInfoSchema), ...errorResponses },
      },
    },
    async () => ok((await site.get('site'))!),
  );
};

export default siteRoutes;
