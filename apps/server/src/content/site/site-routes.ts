import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { SITE_CACHE } from '../../platform/plugins/http-cache.js';

const Link = Type.Object({ title: Type.String(), url: Type.String() });
export const SiteInfoSchema = Type.Object({
  name: Type.String(),
  nav: Type.Array(Type.Object({ key: Type.String(), title: Type.String() })),
  address: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  support: Type.String(),
  copyright: Type.String(),
  icp: Type.String(),
  appDownloadUrl: Type.String(),
  linkGroups: Type.Array(Type.Object({ title: Type.String(), links: Type.Array(Link) })),
});

/** What the public header and footer show (spec section 2, "Public header and footer"). */
const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read by every page render and load, edited rarely: kept 30 s on this instance.
  const site = app.caches.create('site', { max: 1, ttl: 30_000, load: () => app.siteRepository.siteInfo() });
  app.get(
    '/web-api/portal/v1/site',
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
