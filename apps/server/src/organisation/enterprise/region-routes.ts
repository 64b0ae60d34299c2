import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, RegionProvinceSchema } from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { REFERENCE_CACHE } from '../../platform/plugins/http-cache.js';
import { REGIONS } from './regions.js';

const PROVINCES = REGIONS.map((p) => ({ code: p.code, name: p.name, children: p.children ?? [] }));

/** 所在地区's options: the same for every visitor, so public and cached a day. */
const regionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${ApiPrefix.portal}/regions`,
    {
      config: { publicCache: REFERENCE_CACHE },
      schema: {
        tags: ['enterprise'],
        summary: '省、市两级行政区划（企业信息的所在地区）',
        response: { 200: Envelope(RegionProvinceSchema), ...errorResponses },
      },
    },
    async () => ok(PROVINCES),
  );
};

export default regionRoutes;
