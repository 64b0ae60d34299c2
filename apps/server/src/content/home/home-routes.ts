import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, HomeBlocksSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { SITE_CACHE } from '../../platform/plugins/http-cache.js';

/** The editable blocks of the home page (banners, quick links, awards, KPI tiles); disabled ones are left out. */
const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read by every home render and visit, edited rarely: kept 30 s on this instance; console writes clear it.
  const blocks = app.caches.create('site', { max: 1, ttl: 30_000, load: () => app.homeBlockRepository.enabledBlocks() });

  app.get(
    `${ApiPrefix.portal}/home`,
    {
      config: { publicCache: SITE_CACHE },
      schema: {
        tags: ['home'],
        summary: '首页区块：横幅、快捷入口、荣誉资质、指标',
        response: { 200: Envelope(HomeBlocksSchema), ...errorResponses },
      },
    },
    async () => ok((await blocks.get('home'))!),
  );
};

export default homeRoutes;
