import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, EmptyAnswerSchema, JoinRequestQuerySchema, JoinRequestRowSchema, RowIdParamsSchema } from '@portal/shared';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { callerOf } from '../portal-auth/auth.js';

const tags = ['org'];

/**
 * 加入申请 (in 账号管理, org:account): the HTTP side of the join request service; the answer says
 * whether the applicant was told by SMS.
 */
const joinRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const joins = app.joinRequestService;
  const canAccounts = { onRequest: app.requireAuthority(Authority.OrgAccount) };

  app.get(
    `${ApiPrefix.console}/join-request/page/list`,
    {
      ...canAccounts,
      schema: {
        tags,
        summary: '加入申请分页列表（新的在前，可按状态筛选）',
        querystring: JoinRequestQuerySchema,
        response: { 200: Envelope(Page(JoinRequestRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { status, offset, limit } = request.query;
      return ok(await joins.page(callerOf(request), status || undefined, offset, limit));
    },
  );

  app.post(
    `${ApiPrefix.console}/join-request/:id/approve`,
    {
      ...canAccounts,
      config: { auditAction: 'join.approve' },
      schema: {
        tags,
        summary: '通过加入申请（申请人成为本企业普通员工，短信通知）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const told = await joins.approve(callerOf(request), request.params.id);
      return ok([], told ? '已通过，已短信通知申请人' : '已通过，短信通知发送失败');
    },
  );

  app.post(
    `${ApiPrefix.console}/join-request/:id/reject`,
    {
      ...canAccounts,
      config: { auditAction: 'join.reject' },
      schema: {
        tags,
        summary: '拒绝加入申请（短信通知申请人）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const told = await joins.reject(callerOf(request), request.params.id);
      return ok([], told ? '已拒绝，已短信通知申请人' : '已拒绝，短信通知发送失败');
    },
  );
};

export default joinRoutes;
