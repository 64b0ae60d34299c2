import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import identifierRoutes from './registry/identifier-routes.js';
import prefixAdminRoutes from './registry/prefix-admin-routes.js';
import prefixAdminService from './registry/prefix-admin-service.js';
import prefixRepository from './registry/prefix-repository.js';
import prefixRequestRepository from './registry/prefix-request-repository.js';
import prefixRequestRoutes from './registry/prefix-request-routes.js';
import prefixRequestService from './registry/prefix-request-service.js';
import machineRecordRoutes from './registry/machine-record-routes.js';
import machineRecordService from './registry/machine-record-service.js';
import recordAdminRoutes from './registry/record-admin-routes.js';
import recordAdminService from './registry/record-admin-service.js';
import recordBulkService from './registry/record-bulk-service.js';
import recordCsvRoutes from './registry/record-csv-routes.js';
import recordLabelRoutes from './registry/record-label-routes.js';
import recordMigrationRoutes from './registry/record-migration-routes.js';
import recordRepository from './registry/record-repository.js';
import templateAdminRoutes from './registry/template-admin-routes.js';
import templateAdminService from './registry/template-admin-service.js';
import templateRepository from './registry/template-repository.js';
import identifierStatsRepository from './stats/identifier-stats-repository.js';
import identifierStatsRoutes from './stats/identifier-stats-routes.js';
import lookupCounter from './stats/lookup-counter.js';

/** The identifiers module (README.md): registers its repositories, services and routes. */
const identifiersModule: FastifyPluginAsync = async (app) => {
  // Repositories, services and app plugins (decorators), in the order their dependencies need.
  await app.register(prefixRepository);
  await app.register(prefixRequestRepository);
  await app.register(templateRepository);
  await app.register(recordRepository);
  await app.register(identifierStatsRepository);
  await app.register(lookupCounter);
  await app.register(recordBulkService);
  await app.register(prefixRequestService);
  await app.register(prefixAdminService);
  await app.register(recordAdminService);
  await app.register(templateAdminService);
  await app.register(machineRecordService);
  // Routes.
  await app.register(identifierRoutes);
  await app.register(prefixAdminRoutes);
  await app.register(prefixRequestRoutes);
  await app.register(templateAdminRoutes);
  await app.register(recordAdminRoutes);
  await app.register(recordCsvRoutes);
  await app.register(recordLabelRoutes);
  await app.register(identifierStatsRoutes);
  await app.register(recordMigrationRoutes);
  await app.register(machineRecordRoutes);
};

export default fp(identifiersModule, { name: 'identifiers-module', dependencies: ['organisation-module'] });
