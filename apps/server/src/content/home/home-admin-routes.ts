import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminHomeBlockSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
  HomeBlockIdParamsSchema,
  HomeBlockInputSchema,
  HomeBlockOrderBodySchema,
  HomeBlockQuerySchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { toAdmin } from './home-block-service.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * 首页配置 (authority content:home): banners, quick links, awards and KPI tiles of the public home,
 * with their order and an enabled switch. Links are http(s) or paths of this site only (the rules:
 * home-block-service.ts).
 */
const homeAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const blocks = app.homeBlockRepository;
  const service = app.homeBlockService;
  const guard = app.requireAuthority(Authority.ContentHome);

  app.get(
    `${ApiPrefix.console}/home-block/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '首页区块列表（含停用的），按类型与顺序',
        querystring: HomeBlockQuerySchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => ok((await blocks.list(request.query.kind)).map(toAdmin)),
  );

  app.post(
    `${ApiPrefix.console}/home-block`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.create' },
      schema: {
        tags: ['console'],
        summary: '新建首页区块（排在同类最后）',
        body: HomeBlockInputSchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await service.create(callerOf(request), request.body)), '已创建'),
  );

  app.put(
    `${ApiPrefix.console}/home-block/order`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.reorder' },
      schema: {
        tags: ['console'],
        summary: '调整同类区块的顺序：按新顺序给出该类全部区块的 id',
        body: HomeBlockOrderBodySchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => ok((await service.reorder(callerOf(request), request.body.kind, request.body.ids)).map(toAdmin), '顺序已保存'),
  );

  app.put(
    `${ApiPrefix.console}/home-block/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.update' },
      schema: {
        tags: ['console'],
        summary: '修改首页区块（类型不可改）',
        params: HomeBlockIdParamsSchema,
        body: HomeBlockInputSchema,
        response: { 200: Envelope(AdminHomeBlockSchema), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await service.update(callerOf(request), request.params.id, request.body)), '已保存'),
  );

  app.delete(
    `${ApiPrefix.console}/home-block/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.home-block.delete' },
      schema: {
        tags: ['console'],
        summary: '删除首页区块（最后一个启用的横幅不能删除）',
        params: HomeBlockIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await service.delete(callerOf(request), request.params.id);
      return ok([], '已删除');
    },
  );
};

export default homeAdminRoutes;
