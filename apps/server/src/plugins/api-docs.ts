import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

/** What a visitor calls without logging in: listed by default (API_DOCS=public). */
const PUBLIC_API_PREFIXES = [
  '/open-api/',
  '/web-api/portal/v1/',
  '/web-api/iip-operate/recommendCenter/',
  '/web-api/register/v1/',
  '/api/handles/',
  '/healthz',
  '/config.js',
];

export function isPublicApi(url: string): boolean {
  return PUBLIC_API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * OpenAPI document at /openapi.json, built from the routes' TypeBox schemas; the UI at /docs.
 * API_DOCS=public (default) lists the public APIs only, `all` also the console, account and CAS
 * routes, `off` serves neither.
 */
async function apiDocs(app: FastifyInstance) {
  const mode = app.config.apiDocs;
  if (mode === 'off') return;
  await app.register(swagger, {
    transform: ({ schema, url }) => ({ schema: mode === 'all' || isPublicApi(url) ? schema : { ...schema, hide: true }, url }),
    openapi: {
      info: {
        title: 'Engineering e+ 门户 API',
        description:
          '门户公开站点、租户控制台与内置 CAS 服务的接口。成功响应 `{ code: 20200, msg, data: [...] }`，业务错误 `{ code: 1, msg }`。',
        version: '0.1.0',
      },
      tags: [
        { name: 'system', description: '健康检查与运行时配置' },
        { name: 'site', description: '门户页头与页脚' },
        { name: 'content', description: '行业资讯、行业知识与政策' },
        { name: 'applications', description: '应用中心与推荐应用' },
        { name: 'home', description: '首页区块' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true, response: { 200: Type.Object({}, { additionalProperties: true }) } } }, async () =>
    app.swagger(),
  );
}

export default fp(apiDocs, { name: 'api-docs' });
