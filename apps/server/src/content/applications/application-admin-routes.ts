import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminApplicationInputSchema,
  AdminApplicationOrderBodySchema,
  AdminApplicationSchema,
  AdminApplicationUuidParamsSchema,
  ApiPrefix,
  Authority,
  EmptyAnswerSchema,
} from '@portal/shared';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { toAdmin } from './application-admin-service.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * 推荐应用 management (authority content:recommend): every application of the application center,
 * recommended or not, in display order. A write drops this instance's cached content. An application
 * with a service address is on single sign-on: certified enterprises may subscribe to it,
 * and its address belongs to it alone — no overlap with the portal, CAS_SERVICES, an enterprise's
 * application or another platform application (the rules: application-admin-service.ts).
 */
const applicationAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.applicationAdminService;
  const guard = app.requireAuthority(Authority.ContentRecommend);

  app.get(
    `${ApiPrefix.console}/application/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: '应用管理列表（含未推荐、已下架），按展示顺序',
        response: { 200: Envelope(AdminApplicationSchema), ...errorResponses },
      },
    },
    async () => ok((await app.applicationRepository.all()).map(toAdmin)),
  );

  app.post(
    `${ApiPrefix.console}/application`,
    {
      onRequest: guard,
      config: { auditAction: 'content.application.create' },
      schema: {
        tags: ['console'],
        summary: '新建应用（排在最后，生成 applicationUuid）',
        body: AdminApplicationInputSchema,
        response: { 200: Envelope(AdminApplicationSchema), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await service.create(callerOf(request), request.body)), '应用已创建'),
  );

  app.put(
    `${ApiPrefix.console}/application/order`,
    {
      onRequest: guard,
      config: { auditAction: 'content.application.reorder' },
      schema: {
        tags: ['console'],
        summary: '调整应用顺序：按新顺序给出全部应用的 applicationUuid',
        body: AdminApplicationOrderBodySchema,
        response: { 200: Envelope(AdminApplicationSchema), ...errorResponses },
      },
    },
    async (request) => ok((await service.reorder(callerOf(request), request.body.uuids)).map(toAdmin), '顺序已保存'),
  );

  app.put(
    `${ApiPrefix.console}/application/:uuid`,
    {
      onRequest: guard,
      config: { auditAction: 'content.application.update' },
      schema: {
        tags: ['console'],
        summary: '修改应用（applicationUuid 与顺序不变）',
        params: AdminApplicationUuidParamsSchema,
        body: AdminApplicationInputSchema,
        response: { 200: Envelope(AdminApplicationSchema), ...errorResponses },
      },
    },
    async (request) => ok(toAdmin(await service.update(callerOf(request), request.params.uuid, request.body)), '应用已保存'),
  );

  app.delete(
    `${ApiPrefix.console}/application/:uuid`,
    {
      onRequest: guard,
      config: { auditAction: 'content.application.delete' },
      schema: {
        tags: ['console'],
        summary: '删除应用（须先下架）',
        params: AdminApplicationUuidParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await service.delete(callerOf(request), request.params.uuid);
      return ok([], '应用已删除');
    },
  );
};

export default applicationAdminRoutes;
