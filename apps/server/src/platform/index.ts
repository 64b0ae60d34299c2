import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import auditChainService from './audit/audit-chain-service.js';
import auditRepository from './audit/audit-repository.js';
import allowedHosts from './plugins/allowed-hosts.js';
import apiDocs from './plugins/api-docs.js';
import compression from './plugins/compression.js';
import csrf from './plugins/csrf.js';
import errorHandler from './plugins/error-handler.js';
import httpCache from './plugins/http-cache.js';
import inputGuard from './plugins/input-guard.js';
import metrics from './plugins/metrics.js';
import requestId from './plugins/request-id.js';
import retention from './retention/retention-service.js';
import security from './plugins/security.js';
import smsSender from './sms/sms-plugin.js';
import systemRepository from './system/system-repository.js';
import systemRoutes from './system/system-routes.js';

/** The platform module (README.md): registers its repositories, services and routes. */
const platformModule: FastifyPluginAsync = async (app) => {
  // First, so that their hooks (several added per route, on onRoute) reach every module's routes.
  // Every answer, a refused Host's 421 too, names its request; every one is measured.
  await app.register(requestId);
  await app.register(metrics);
  await app.register(allowedHosts);
  await app.register(security);
  await app.register(httpCache);
  // After http-cache: the ETag is computed over the plain body, then the answer is compressed.
  await app.register(compression);
  await app.register(apiDocs);
  await app.register(errorHandler);
  await app.register(inputGuard);
  await app.register(csrf);
  // Repositories and services (decorators).
  await app.register(systemRepository);
  await app.register(auditRepository);
  await app.register(auditChainService);
  await app.register(smsSender);
  await app.register(retention);
  // Routes.
  await app.register(systemRoutes);
};

export default fp(platformModule, { name: 'platform-module' });
