import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import auditRoutes from './audit-log/audit-routes.js';
import dashboardRepository from './dashboard/dashboard-repository.js';
import dashboardRoutes from './dashboard/dashboard-routes.js';
import dashboardService from './dashboard/dashboard-service.js';
import statisticsRepository from './statistics/statistics-repository.js';
import statisticsRoutes from './statistics/statistics-routes.js';

/** The insights module (README.md): registers its repositories, services and routes. */
const insightsModule: FastifyPluginAsync = async (app) => {
  // Repositories, services and app plugins (decorators), in the order their dependencies need.
  await app.register(dashboardRepository);
  await app.register(statisticsRepository);
  await app.register(dashboardService);
  // Routes.
  await app.register(auditRoutes);
  await app.register(dashboardRoutes);
  await app.register(statisticsRoutes);
};

export default fp(insightsModule, { name: 'insights-module', dependencies: ['identifiers-module'] });
