import type { JoinRequestRow, JoinRequestStatus } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import type { PendingJoin } from './join-request-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    joinRequestService: JoinRequestService;
  }
}

/**
 * 加入申请's rules (in 账号管理, org:account): registrations that named the enterprise. 通过 makes the
 * applicant a staff member of it, 拒绝 leaves them without an enterprise; either way the decision
 * commits with its audit row and the applicant is told by SMS after it. Both answer whether the SMS went out.
 */
export class JoinRequestService {
  constructor(private readonly app: FastifyInstance) {}

  private get joins() {
    return this.app.joinRequestRepository;
  }

  /** A pending request to the caller's enterprise; another enterprise's answers 404. */
  private async pendingOf(caller: Caller, id: number): Promise<PendingJoin> {
    const join = await this.joins.byId(callerEnterprise(caller), id);
    if (!join) throw new NotFoundError('加入申请不存在');
    if (join.status !== 'pending') throw new ConflictError('该申请已处理');
    return join;
  }

  /** The SMS is a courtesy once the decision is made: a failure is logged and said, never undoes it. */
  private async tell(caller: Caller, join: PendingJoin, result: string): Promise<boolean> {
    const sms = this.app.smsSender;
    const enterprise = caller.profile.enterpriseName ?? '';
    try {
      await sms.send({ phone: join.phone, templateKey: 'join-result', params: { enterprise, result } });
      return true;
    } catch (err) {
      caller.log.error({ err: (err as Error).message, provider: sms.name }, 'join result SMS not sent');
      return false;
    }
  }

  /** One page of the enterprise's requests, newest first. */
  page(
    caller: Caller,
    status: JoinRequestStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: JoinRequestRow[] }> {
    return this.joins.page(callerEnterprise(caller), status, offset, limit);
  }

  /** 通过: answers whether the applicant was told. */
  async approve(caller: Caller, id: number): Promise<boolean> {
    const enterpriseId = callerEnterprise(caller);
    const join = await this.pendingOf(caller, id);
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      await this.joins.approve(trx, join, enterpriseId, caller.accountId);
      await auditBy(trx, caller, 'join.approve', join.username);
    });
    return this.tell(caller, join, '已通过');
  }

  /** 拒绝: answers whether the applicant was told. */
  async reject(caller: Caller, id: number): Promise<boolean> {
    const join = await this.pendingOf(caller, id);
    await inEnterpriseTransaction(this.app.database.db, callerEnterprise(caller), async (trx) => {
      await this.joins.reject(trx, join, caller.accountId);
      await auditBy(trx, caller, 'join.reject', join.username);
    });
    return this.tell(caller, join, '未通过');
  }
}

export default fp(
  async (app) => {
    app.decorate('joinRequestService', new JoinRequestService(app));
  },
  { name: 'join-request-service' },
);
