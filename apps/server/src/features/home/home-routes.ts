import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import { ttlCache } from '../../lib/ttl-cache.js';
import homeAdminRoutes from './home-admin-routes.js';

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
  const { db } = app.database;
  // Read on every home visit, edited rarely: 30 s per instance, like the header and footer.
  const blocks = ttlCache(30_000, async () => {
    const rows = await db
      .selectFrom('home_block')
      .selectAll()
      .where('enabled', '=', 1)
      .orderBy('kind')
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const link = (r: (typeof rows)[number]) => ({
      title: r.title,
      subtitle: r.subtitle,
      icon: r.icon,
      linkUrl: r.link_url,
      openUrlFlag: r.open_url_flag,
    });
    return {
      banners: rows.filter((r) => r.kind === 'banner').map(link),
      links: rows.filter((r) => r.kind === 'link').map(link),
      awards: rows.filter((r) => r.kind === 'award').map(link),
      kpis: rows.filter((r) => r.kind === 'kpi').map((r) => ({ image: r.icon, kpi: r.kpi, uom: r.uom, name: r.title })),
    };
  });
  // Operators' writes drop this instance's copy at once (other instances within the 30 s).
  await app.register(homeAdminRoutes, { onChange: () => blocks.invalidate() });

  app.get(
    '/web-api/portal/v1/home',
    {
      schema: {
        tags: ['home'],
        summary: '首页区块：横幅、快捷入口、荣誉资质、指标',
        response: { 200: Envelope(HomeBlocks), ...errorResponses },
      },
    },
    async () => ok(await blocks.get()),
  );
};

export default homeRoutes;
