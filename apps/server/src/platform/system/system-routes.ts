import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthSchema, RUNTIME_CONFIG_GLOBAL, encodeRuntimeConfig } from '@portal/shared';
import { Type } from 'typebox';
import { resolveRuntimeConfig } from '../config.js';
import { ErrorEnvelope } from '../lib/envelope.js';
import { AppError } from '../lib/errors.js';
import { requestOrigin } from '../lib/request-origin.js';
import { SITE_CACHE } from '../plugins/http-cache.js';

/** Liveness/readiness probe and the runtime configuration script (spec section 3). */
const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: '健康检查：服务与数据库可用',
        response: { 200: HealthSchema, 503: ErrorEnvelope },
      },
    },
    async () => {
      try {
        await app.systemRepository.ping();
      } catch (err) {
        app.log.error({ err }, 'health check: database unreachable');
        throw new AppError('数据库不可用', 503);
      }
      return { status: 'ok' as const, database: app.database.dialect, uptime: Math.round(process.uptime()) };
    },
  );

  app.get(
    '/config.js',
    {
      // Every page loads it. It changes only with the deployment's settings; when PUBLIC_URL is unset its
      // addresses follow the Host and scheme, which the proxy's cache key holds.
      config: { publicCache: SITE_CACHE },
      schema: {
        tags: ['system'],
        summary: '运行时配置：定义返回 base64 JSON 的全局函数',
        response: { 200: Type.String() },
      },
    },
    async (request, reply) => {
      const encoded = encodeRuntimeConfig(resolveRuntimeConfig(app.config, requestOrigin(request)));
      reply.type('application/javascript; charset=utf-8');
      return `window.${RUNTIME_CONFIG_GLOBAL}=function(){return ${JSON.stringify(encoded)};};\n`;
    },
  );
};

export default systemRoutes;
