import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthSchema, ReadinessSchema, RUNTIME_CONFIG_GLOBAL, encodeRuntimeConfig } from '@portal/shared';
import { Type } from 'typebox';
import { resolveRuntimeConfig } from '../config.js';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { ErrorEnvelope } from '../lib/envelope.js';
import { AppError } from '../lib/errors.js';
import { requestOrigin } from '../lib/request-origin.js';
import { SITE_CACHE } from '../plugins/http-cache.js';

/** Liveness (/healthz) and readiness (/readyz) probes and the runtime configuration script (spec section 3). */
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

  /** The readiness checks, each `ok`, `off` or what is wrong; a check that cannot run says so (never a 500). */
  async function readinessChecks() {
    try {
      await app.systemRepository.ping();
    } catch (err) {
      app.log.error({ err }, 'readiness check: database unreachable');
      return { database: '数据库不可用', migrations: '无法读取迁移记录', renderer: app.pageRendererState };
    }
    let migrations = 'ok';
    try {
      const applied = new Set(await app.systemRepository.appliedMigrations());
      const pending = MIGRATION_NAMES.filter((name) => !applied.has(name));
      if (pending.length > 0) migrations = `数据库结构未更新，缺少迁移：${pending.join('、')}`;
    } catch (err) {
      app.log.error({ err }, 'readiness check: migrations unreadable');
      migrations = '无法读取迁移记录';
    }
    return { database: 'ok', migrations, renderer: app.pageRendererState };
  }

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: '就绪检查：数据库可用、迁移已全部应用、页面渲染器已加载；未就绪时 503 并说明原因',
        response: { 200: ReadinessSchema, 503: ReadinessSchema },
      },
    },
    async (_request, reply) => {
      const checks = await readinessChecks();
      const problems = Object.values(checks).filter((c) => c !== 'ok' && c !== 'off');
      if (problems.length === 0) return { status: 'ready' as const, reason: '', checks };
      return reply.status(503).send({ status: 'not_ready' as const, reason: problems.join('；'), checks });
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
