import {
  Authority,
  PREFIX_NEEDS_CERTIFICATION,
  PREFIX_PURPOSE_MAX,
  PREFIX_REJECT_REASON_MAX,
  type PrefixRequestBody,
  type PrefixRequestDecisionBody,
  PrefixRequestMessage,
  REGISTERED_PREFIX,
  REGISTERED_PREFIX_MESSAGE,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { identifierAdminContext } from './identifier-admin-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    prefixRequestService: PrefixRequestService;
  }
}

/**
 * 申请标识前缀's rules: a certified enterprise asks for a prefix; a platform operator approves it,
 * which creates the prefix for that enterprise, or rejects it with a reason. Each write commits with
 * its audit row and the message in 消息中心. `caller` is who asks (the audit row).
 */
export class PrefixRequestService {
  private readonly audit;

  constructor(private readonly app: FastifyInstance) {
    this.audit = identifierAdminContext(app).audit;
  }

  /** Files a request; answers its id. */
  async create(caller: Caller, body: PrefixRequestBody): Promise<number> {
    const profile = caller.profile;
    const prefix = body.prefix.trim();
    const purpose = body.purpose.trim();
    if (!REGISTERED_PREFIX.test(prefix)) throw new BadRequestError(REGISTERED_PREFIX_MESSAGE);
    if (!purpose) throw new BadRequestError(PrefixRequestMessage.purposeRequired);
    if ([...purpose].length > PREFIX_PURPOSE_MAX) throw new BadRequestError(PrefixRequestMessage.purposeTooLong);
    if (profile.enterpriseId === null) throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
    if (await this.app.prefixRepository.byPrefix(prefix)) throw new ConflictError(`标识前缀 ${prefix} 已存在`);
    if (await this.app.prefixRequestRepository.pendingFor(prefix)) throw new ConflictError(`标识前缀 ${prefix} 已有待审批的申请`);
    const enterpriseId = profile.enterpriseId;
    const id = await inTransaction(this.app.database.db, async (trx) => {
      const created = await this.app.prefixRequestRepository.create(trx, { enterpriseId, applicantId: profile.id, prefix, purpose });
      await this.audit(trx, caller, 'prefix-request.create', prefix, purpose);
      const operators = await this.app.accountRepository.holders(Authority.IdentifierAll, null, trx);
      await this.app.notificationRepository.notify(trx, operators, {
        kind: 'identifier',
        title: '新的标识前缀申请',
        content: `${profile.enterpriseName} 申请标识前缀 ${prefix}（${purpose}），请在标识管理中审批。`,
        link: '/console/identifier/template',
      });
      return created;
    });
    return id;
  }

  /** 通过 (the prefix is created) or 驳回 (a reason is required); a refusal is audited as the decision asked for. */
  async decide(caller: Caller, id: number, body: PrefixRequestDecisionBody): Promise<void> {
    const { decision } = body;
    const action = decision === 'approve' ? 'prefix-request.approve' : 'prefix-request.reject';
    try {
      const pending = await this.app.prefixRequestRepository.byId(id);
      if (!pending) throw new NotFoundError('申请不存在');
      if (pending.status !== 'pending') throw new ConflictError('该申请已处理');
      const reason = body.reason.trim();
      if (decision === 'reject' && !reason) throw new BadRequestError(PrefixRequestMessage.reasonRequired);
      if ([...reason].length > PREFIX_REJECT_REASON_MAX) throw new BadRequestError(PrefixRequestMessage.reasonTooLong);
      if (decision === 'approve') {
        if ((await this.app.prefixRepository.certificationOf(pending.enterpriseId)) !== 'certified')
          throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
        if (await this.app.prefixRepository.byPrefix(pending.prefix)) throw new ConflictError(`标识前缀 ${pending.prefix} 已存在`);
      }
      await inTransaction(this.app.database.db, async (trx) => {
        await this.app.prefixRequestRepository.decide(
          trx,
          pending.id,
          decision === 'approve' ? 'approved' : 'rejected',
          caller.accountId,
          reason,
        );
        if (decision === 'approve') {
          await this.app.prefixRepository.create(
            { prefix: pending.prefix, name: pending.purpose, enterpriseId: pending.enterpriseId },
            trx,
          );
        }
        await this.audit(trx, caller, action, pending.prefix, `${pending.enterpriseName}${reason ? `：${reason}` : ''}`);
        await this.app.notificationRepository.notify(trx, pending.applicantId === null ? [] : [pending.applicantId], {
          kind: 'identifier',
          title: decision === 'approve' ? '标识前缀申请已通过' : '标识前缀申请被驳回',
          content:
            decision === 'approve'
              ? `标识前缀 ${pending.prefix} 已分配给本企业，可在“前缀与模板”中建立模板并登记标识。`
              : `标识前缀 ${pending.prefix} 的申请被驳回：${reason}`,
          link: '/console/identifier/template',
        });
      });
    } catch (err) {
      // One route, two audit actions: a refusal is recorded as the decision asked for.
      if (err instanceof AppError) {
        await this.app.auditRepository.recordBy(caller, action, String(id), 'failure', err.message);
      } else if (isUniqueViolation(err)) {
        const message = '标识前缀已存在';
        await this.app.auditRepository.recordBy(caller, action, String(id), 'failure', message);
        throw new ConflictError(message);
      }
      throw err;
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('prefixRequestService', new PrefixRequestService(app));
  },
  { name: 'prefix-request-service', dependencies: ['prefix-request-repository', 'prefix-repository'] },
);
