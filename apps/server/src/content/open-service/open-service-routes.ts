import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  isOpenServiceToolId,
  OPEN_SERVICE_TOOL_IDS,
  OpenServiceMessage,
  OpenServiceToolCardSchema,
  OpenServiceToolIdParamsSchema,
  OpenServiceToolSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { CONTENT_CACHE } from '../../platform/plugins/http-cache.js';
import { toTool } from './open-service-answers.js';

/**
 * The open-service centre (spec section 9): the six developer tools' cards and details, the same for
 * every visitor. Kept 30 s on this instance and briefly by shared caches; the console's writes
 * (open-service-admin-routes.ts) drop this instance's copy.
 */
const openServiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tools = app.openServiceRepository;
  const cards = app.caches.create('content', { max: 1, ttl: 30_000, load: async () => ({ cards: await tools.onlineCards() }) });
  const details = app.caches.create('content', {
    max: OPEN_SERVICE_TOOL_IDS.length,
    ttl: 30_000,
    load: async (id) => (isOpenServiceToolId(id) ? await tools.onlineTool(id) : undefined),
  });

  app.get(
    `${ApiPrefix.portal}/open-service/tools`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['open-service'],
        summary: '开放服务中心的工具卡片：已上线的工具，按排序',
        response: { 200: Envelope(OpenServiceToolCardSchema), ...errorResponses },
      },
    },
    async () => ok((await cards.get('all'))!.cards),
  );

  app.get(
    `${ApiPrefix.portal}/open-service/tools/:id`,
    {
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['open-service'],
        summary: '开放服务工具详情；编号不存在或工具已下线时 404',
        params: OpenServiceToolIdParamsSchema,
        response: { 200: Envelope(OpenServiceToolSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = isOpenServiceToolId(id) ? await details.get(id) : undefined;
      if (!row) throw new NotFoundError(OpenServiceMessage.notFound);
      return ok(toTool(row));
    },
  );
};

export default openServiceRoutes;
