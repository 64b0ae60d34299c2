import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { SITE_CACHE } from '../../platform/plugins/http-cache.js';

const LinkItem = Type.Object({
  title: Type.String(),
  subtitle: Type.String(),
  icon: Type.String({ description: '相对路径，前端加文件服务地址' }),
  linkUrl: Type.String(),
  openUrlFlag: Type.Integer({ description: '1 表示新窗口打开 linkUrl' }),
});
const KpiItem = Type.Object({ image: Type.String(), kpi: Type.String(), uom: Type.String(), name: Type.String() });
const HomeBlocks = Type.Object({
  banners: Type.Array(LinkItem),
  links: Type.Array(LinkItem),
  awards: Type.Array(LinkItem),
  kpis: Type.Array(KpiItem),
});

/** The editable blocks of the home page (banners, quick links, awards, KPI tiles); disabled ones are left out. */
const homeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read by every home render and visit, edited rarely: kept 30 s on this instance; console writes clear it.
  const blocks = app.caches.create('site', { max: 1, ttl: 30_000, load: () => app.homeBlockRepository.enabledBlocks() });

  app.get(
    '/web-api/portal/v1/home',
    {
      config: { publicCache: SITE_CACHE },
      schema: {
        tags: ['home'],
        summary: '首页区块：横幅、快捷入口、荣誉资质、指标',
        response: { 200: Envelope(HomeBlocks), ...errorResponses },
      },
    },
    async () => ok((await blocks.get('home'))!),
  );
};

export default homeRoutes;
