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
  '/readyz',
  '/config.js',
];

/**
 * The CAS protocol's own endpoints (CAS 3.0 §2.1–2.7): every CAS client calls them without a portal
 * session, so they are public like the content APIs. The login form's posts, password changes,
 * two-factor and chat sign-in stay out: they are pages of the login flow, not an API.
 */
const CAS_PROTOCOL_ENDPOINTS = [
  '/cas/login',
  '/cas/logout',
  '/cas/validate',
  '/cas/serviceValidate',
  '/cas/proxyValidate',
  '/cas/p3/serviceValidate',
  '/cas/p3/proxyValidate',
];

export function isPublicApi(url: string, method: string | string[] = 'GET'): boolean {
  if (PUBLIC_API_PREFIXES.some((prefix) => url.startsWith(prefix))) return true;
  return CAS_PROTOCOL_ENDPOINTS.includes(url) && [method].flat().every((m) => m === 'GET');
}

/**
 * OpenAPI document at /openapi.json, built from the routes' TypeBox schemas; the UI at /docs.
 * API_DOCS=public (default) lists the public APIs only (the CAS protocol endpoints among them), `all`
 * also the console, account and CAS login-flow routes, `off` serves neither.
 */
async function apiDocs(app: FastifyInstance) {
  const mode = app.config.apiDocs;
  if (mode === 'off') return;
  await app.register(swagger, {
    transform: ({ schema, url, route }) => ({
      schema: mode === 'all' || isPublicApi(url, route.method) ? schema : { ...schema, hide: true },
      url,
    }),
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
        { name: 'open-service', description: '开放服务中心：开发工具与接口参考' },
        { name: 'identifiers', description: '标识查询与 Handle API' },
        { name: 'cas', description: '统一身份认证（CAS 3.0 协议端点）' },
        {
          name: 'enterprise-open',
          description: '企业接口：机器客户端以 /oidc/token（client_credentials）获取的访问令牌调用，只作用于本企业',
        },
      ],
      components: {
        securitySchemes: {
          machineToken: {
            type: 'http',
            scheme: 'bearer',
            description: '机器客户端的访问令牌：POST /oidc/token，grant_type=client_credentials',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true, response: { 200: Type.Object({}, { additionalProperties: true }) } } }, async () =>
    app.swagger(),
  );
}

export default fp(apiDocs, { name: 'api-docs' });
