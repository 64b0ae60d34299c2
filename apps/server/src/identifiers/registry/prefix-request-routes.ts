import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  PrefixRequestBodySchema,
  PrefixRequestDecisionBodySchema,
  PrefixRequestQuerySchema,
  PrefixRequestRowSchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { identifierAccess, scopeOf, tags } from './identifier-admin-context.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

/**
 * 申请标识前缀: a certified enterprise asks for a prefix; a platform operator
 * approves it in 标识管理, which creates the prefix for that enterprise, or rejects it with a reason.
 * The applicant is told in 消息中心 either way. The rules: prefix-request-service.ts.
 */
const prefixRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const requests = app.prefixRequestRepository;

  app.get(
    `${ApiPrefix.identity}/prefix-request/page/list`,
    {
      onRequest: app.requireAuthority(Authority.IdentifierTemplate, Authority.IdentifierAll),
      schema: {
        tags,
        summary: '标识前缀申请列表（企业看本企业的，平台运营看全部；新的在前）',
        querystring: PrefixRequestQuerySchema,
        response: { 200: Envelope(Page(PrefixRequestRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(callerOf(request));
      const { status, offset, limit } = request.query;
      return ok(await requests.page(scope.all ? null : (scope.enterpriseId ?? -1), status || undefined, offset, limit));
    },
  );

  app.post(
    `${ApiPrefix.identity}/prefix-request`,
    {
      onRequest: identifierAccess(app, Authority.IdentifierTemplate),
      config: { auditAction: 'prefix-request.create' },
      schema: {
        tags,
        summary: '申请标识前缀（已认证企业）',
        body: PrefixRequestBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => ok({ id: await app.prefixRequestService.create(callerOf(request), request.body) }, '申请已提交，请等待平台审批'),
  );

  app.post(
    `${ApiPrefix.identity}/prefix-request/:id/decision`,
    {
      onRequest: app.requireAuthority(Authority.IdentifierAll),
      schema: {
        tags,
        summary: '审批标识前缀申请（平台运营）：通过即为该企业创建前缀',
        params: RowIdParamsSchema,
        body: PrefixRequestDecisionBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.prefixRequestService.decide(callerOf(request), request.params.id, request.body);
      return ok([], request.body.decision === 'approve' ? '已通过，前缀已分配' : '已驳回');
    },
  );
};

export default prefixRequestRoutes;
