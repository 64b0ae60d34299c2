import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  OPEN_SERVICE_TOOL_IDS,
  OpenServiceMessage,
  OpenServiceToolAdminSchema,
  OpenServiceToolBodySchema,
  OpenServiceToolIdParamsSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { toAdminTool } from './open-service-answers.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * 开放服务 (authority content:open-service): the six tools of the open-service centre, edited in place
 * (spec section 9: fixed ids, never added or removed). A write shows on the public centre at once on
 * this instance (its cached content is dropped) and within CONTENT_CACHE's seconds behind shared caches
 * (the rules: open-service-service.ts).
 */
const openServiceAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tools = app.openServiceRepository;
  const guard = app.requireAuthority(Authority.ContentOpenService);

  app.get(
    `${ApiPrefix.console}/open-service/tool/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: `开放服务工具列表（含已下线的，共 ${OPEN_SERVICE_TOOL_IDS.length} 个），按排序`,
        response: { 200: Envelope(OpenServiceToolAdminSchema), ...errorResponses },
      },
    },
    async () => ok((await tools.all()).map(toAdminTool)),
  );

  app.put(
    `${ApiPrefix.console}/open-service/tool/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.open-service.update' },
      schema: {
        tags: ['console'],
        summary: '修改开放服务工具：名称、简介、介绍、图标、排序、上线/下线',
        params: OpenServiceToolIdParamsSchema,
        body: OpenServiceToolBodySchema,
        response: { 200: Envelope(OpenServiceToolAdminSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(toAdminTool(await app.openServiceService.update(callerOf(request), request.params.id, request.body)), OpenServiceMessage.saved),
  );
};

export default openServiceAdminRoutes;
