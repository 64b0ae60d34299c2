import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, DashboardSchema } from '@portal/shared';
import { callerOf } from '../../identity/portal-auth/auth.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';

/**
 * 工作台: an enterprise account sees its enterprise's figures — accounts by state, active
 * accounts, logins per day, identifiers and their lookups per day; operators (authority tenant) see the platform's, with its
 * content and registrations (dashboard-service.ts). No account sees another enterprise's figures.
 */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${ApiPrefix.console}/dashboard`,
    {
      onRequest: app.requireAuthority(Authority.Dashboard),
      schema: {
        tags: ['console'],
        summary: '工作台统计（本企业；平台运营为全平台）',
        response: { 200: Envelope(DashboardSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.dashboardService.figures(callerOf(request).profile)),
  );
};

export default dashboardRoutes;
