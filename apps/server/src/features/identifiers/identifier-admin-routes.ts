import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IdentifierAdminOptions } from './identifier-admin-context.js';
import prefixAdminRoutes from './prefix-admin-routes.js';
import recordAdminRoutes from './record-admin-routes.js';
import recordCsvRoutes, { MAX_IMPORT_BYTES } from './record-csv-routes.js';
import templateAdminRoutes from './template-admin-routes.js';

export type { IdentifierAdminOptions } from './identifier-admin-context.js';

/**
 * The console's identifier management (issue: registry and management): prefixes (operators assign
 * them to enterprises), versioned metadata templates (identifier:template), records with values
 * checked against their template, CSV import and export (identifier:record). Enterprise users work
 * on their own enterprise's prefixes only; identifier:all-enterprises sees every enterprise. Every
 * write is audited.
 */
const identifierAdminRoutes: FastifyPluginAsyncTypebox<IdentifierAdminOptions> = async (app, { templates }) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 20 } });
  await app.register(prefixAdminRoutes, { templates });
  await app.register(templateAdminRoutes, { templates });
  await app.register(recordAdminRoutes, { templates });
  await app.register(recordCsvRoutes, { templates });
};

export default identifierAdminRoutes;
