import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { REFERENCE_CACHE } from '../../platform/plugins/http-cache.js';
import { REGIONS } from './regions.js';

const City = Type.Object({ code: Type.String({ description: '城市代码（GB/T 2260，6 位）' }), name: Type.String() });
const Province = Type.Object({
  code: Type.String({ description: '省级代码（GB/T 2260，6 位）' }),
  name: Type.String(),
  children: Type.Array(City),
});

const PROVINCES = REGIONS.map((p) => ({ code: p.code, name: p.name, children: p.children ?? [] }));

/** 所在地区's options: the same for every visitor, so public and cached a day. */
const regionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/web-api/portal/v1/regions',
    {
      config: { publicCache: REFERENCE_CACHE },
      schema: {
        tags: ['enterprise'],
        summary: '省、市两级行政区划（企业信息的所在地区）',
        response: { 200: Envelope(Province), ...errorResponses },
      },
    },
    async () => ok(PROVINCES),
  );
};

export default regionRoutes;
