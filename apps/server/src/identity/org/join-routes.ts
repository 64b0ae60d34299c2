import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, EmptyAnswerSchema, JoinRequestQuerySchema, JoinRequestRowSchema, RowIdParamsSchema } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { PendingJoin } from './join-request-repository.js';

const tags = ['org'];

/**
 * 加入申请 (in 账号管理, org:account): registrations that named the enterprise. 通过 makes
 * the applicant a staff member of it, 拒绝 leaves them without an enterprise; either way the applicant
 * is told by SMS after the decision commits.
 */
const joinRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const joins = app.joinRequestRepository;
  const canAccounts = { onRequest: app.requireAuthority(Authority.OrgAccount) };

  /** A pending request to the caller's enterprise; another enterprise's answers 404. */
  async function pendingOf(request: FastifyRequest, id: number): Promise<PendingJoin> {
    const join = await joins.byId(callerEnterprise(request), id);
    if (!join) throw new NotFoundError('加入申请不存在');
    if (join.status !== 'pending') throw new ConflictError('该申请已处理');
    return join;
  }

  /** The SMS is a courtesy once the decision is made: a failure is logged and said, never undoes it. */
  async function tell(request: FastifyRequest, join: PendingJoin, result: string): Promise<boolean> {
    const enterprise = request.principal?.profile.enterpriseName ?? '';
    try {
      await app.smsSender.send({ phone: join.phone, templateKey: 'join-result', params: { enterprise, result } });
      return true;
    } catch (err) {
      request.log.error({ err: (err as Error).message, provider: app.smsSender.name }, 'join result SMS not sent');
      return false;
    }
  }

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
      return ok(await joins.page(callerEnterprise(request), status || undefined, offset, limit));
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
      const enterpriseId = callerEnterprise(request);
      const join = await pendingOf(request, request.params.id);
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        await joins.approve(trx, join, enterpriseId, request.principal!.accountId);
        await auditRequest(trx, request, 'join.approve', join.username);
      });
      const told = await tell(request, join, '已通过');
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
      const join = await pendingOf(request, request.params.id);
      await inEnterpriseTransaction(db, callerEnterprise(request), async (trx) => {
        await joins.reject(trx, join, request.principal!.accountId);
        await auditRequest(trx, request, 'join.reject', join.username);
      });
      const told = await tell(request, join, '未通过');
      return ok([], told ? '已拒绝，已短信通知申请人' : '已拒绝，短信通知发送失败');
    },
  );
};

export default joinRoutes;
