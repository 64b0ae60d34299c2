import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { ttlCache } from '../../lib/ttl-cache.js';
import { getSiteInfo } from './site-repository.js';

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
  // Read by every page load, edited rarely: kept 30 s per instance (docs/architecture.md).
  const site = ttlCache(30_000, () => getSiteInfo(app.database.db));
  app.get(
    '/web-api/portal/v1/site',
    {
      schema: {
        tags: ['site'],
        summary: '门户页头菜单与页脚信息',
        response: { 200: Envelope(SiteInfoSchema), ...errorResponses },
      },
    },
    async () => ok(await site.get()),
  );
};

export default siteRoutes;
