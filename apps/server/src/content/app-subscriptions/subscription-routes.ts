import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  AppSubscriptionBodySchema,
  AppSubscriptionNoteBodySchema,
  AppSubscriptionQuerySchema,
  AppSubscriptionRowSchema,
  AppSubscriptionUuidParamsSchema,
  Authority,
  RowIdParamsSchema,
  MyAppSubscriptionSchema,
  SubscriptionMessage,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const portalTags = ['applications'];
const consoleTags = ['app-subscription'];
const CONSOLE = `${ApiPrefix.console}/app-subscription`;

/** 申请使用 and 应用订阅 (the rules: subscription-service.ts). */
const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.subscriptionService;
  const canDecide = { onRequest: app.requireAuthority(Authority.AppSubscription) };

  app.get(
    `${ApiPrefix.portal}/applications/:uuid/subscription`,
    {
      onRequest: app.authenticate,
      schema: {
        tags: portalTags,
        summary: '本企业对该应用的订阅状态，以及当前账号能否申请使用',
        params: AppSubscriptionUuidParamsSchema,
        response: { 200: Envelope(MyAppSubscriptionSchema), ...errorResponses },
      },
    },
    async (request) => ok(await service.stateFor(callerOf(request), await service.application(request.params.uuid))),
  );

  app.post(
    `${ApiPrefix.portal}/applications/:uuid/subscription`,
    {
      onRequest: app.requireCertified(Authority.AppList),
      config: { auditAction: 'app-subscription.request' },
      schema: {
        tags: portalTags,
        summary: '申请使用（已认证企业的管理员；平台审核通过后应用出现在本企业的应用列表）',
        params: AppSubscriptionUuidParamsSchema,
        body: AppSubscriptionBodySchema,
        response: { 200: Envelope(MyAppSubscriptionSchema), ...errorResponses },
      },
    },
    async (request) =>
      ok(await service.request(callerOf(request), request.params.uuid, request.body.purpose), SubscriptionMessage.submitted),
  );

  app.get(
    `${CONSOLE}/page/list`,
    {
      ...canDecide,
      schema: {
        tags: consoleTags,
        summary: '应用订阅申请（全部企业；新的在前；按状态筛选，按企业或应用名称搜索）',
        querystring: AppSubscriptionQuerySchema,
        response: { 200: Envelope(Page(AppSubscriptionRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { status, keyword, offset, limit } = request.query;
      return ok(await app.appSubscriptionRepository.page({ status: status || undefined, keyword: keyword?.trim() ?? '' }, offset, limit));
    },
  );

  app.put(
    `${CONSOLE}/:id/approve`,
    {
      ...canDecide,
      config: { auditAction: 'app-subscription.approve' },
      schema: {
        tags: consoleTags,
        summary: '通过申请：应用加入该企业的应用列表（平台应用，尚未授权任何人）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(AppSubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      await service.approve(callerOf(request), request.params.id);
      return ok(await service.row(request.params.id), SubscriptionMessage.approvedDone);
    },
  );

  app.put(
    `${CONSOLE}/:id/reject`,
    {
      ...canDecide,
      config: { auditAction: 'app-subscription.reject' },
      schema: {
        tags: consoleTags,
        summary: '驳回申请（须填写原因）',
        params: RowIdParamsSchema,
        body: AppSubscriptionNoteBodySchema,
        response: { 200: Envelope(AppSubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      await service.reject(callerOf(request), request.params.id, request.body.note);
      return ok(await service.row(request.params.id), SubscriptionMessage.rejectedDone);
    },
  );

  app.put(
    `${CONSOLE}/:id/revoke`,
    {
      ...canDecide,
      config: { auditAction: 'app-subscription.revoke' },
      schema: {
        tags: consoleTags,
        summary: '撤销订阅（须填写原因）：应用及其授权从该企业的应用列表移除，其票据不再通过校验',
        params: RowIdParamsSchema,
        body: AppSubscriptionNoteBodySchema,
        response: { 200: Envelope(AppSubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      await service.revoke(callerOf(request), request.params.id, request.body.note);
      return ok(await service.row(request.params.id), SubscriptionMessage.revokedDone);
    },
  );
};

export default subscriptionRoutes;
