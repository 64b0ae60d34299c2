import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import certificationFileRoutes from './certification/certification-file-routes.js';
import certificationRepository from './certification/certification-repository.js';
import certificationReviewRoutes from './certification/certification-review-routes.js';
import certificationRoutes from './certification/certification-routes.js';
import certificationService from './certification/certification-service.js';
import privateFileRepository from './certification/private-file-repository.js';
import privateFileStorage from './certification/private-file-storage.js';
import enterpriseRepository from './enterprise/enterprise-repository.js';
import enterpriseRoutes from './enterprise/enterprise-routes.js';
import enterpriseService from './enterprise/enterprise-service.js';
import regionRoutes from './enterprise/region-routes.js';
import tenantRepository from './tenants/tenant-repository.js';
import tenantRoutes from './tenants/tenant-routes.js';
import tenantService from './tenants/tenant-service.js';

/** The organisation module (README.md): registers its repositories, services and routes. */
const organisationModule: FastifyPluginAsync = async (app) => {
  // Repositories, services and app plugins (decorators), in the order their dependencies need.
  await app.register(tenantRepository);
  await app.register(enterpriseRepository);
  await app.register(privateFileStorage);
  await app.register(privateFileRepository);
  await app.register(certificationRepository);
  await app.register(tenantService);
  await app.register(certificationService);
  await app.register(enterpriseService);
  // Routes.
  await app.register(tenantRoutes);
  await app.register(enterpriseRoutes);
  await app.register(regionRoutes);
  await app.register(certificationRoutes);
  await app.register(certificationFileRoutes);
  await app.register(certificationReviewRoutes);
};

export default fp(organisationModule, { name: 'organisation-module', dependencies: ['content-module'] });
