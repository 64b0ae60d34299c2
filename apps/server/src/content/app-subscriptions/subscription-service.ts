import {
  Authority,
  CertificationMessage,
  type MyAppSubscription,
  SUBSCRIPTION_NOTE_MAX,
  SUBSCRIPTION_PURPOSE_MAX,
  SubscriptionMessage,
  subscriptionNameClash,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sentence } from '../../platform/lib/sentence.js';
import type { ApplicationRow } from '../applications/application-repository.js';
import type { SubscriptionDecision } from './subscription-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    subscriptionService: SubscriptionService;
  }
}

const charCount = (text: string) => [...text].length;

/**
 * 申请使用 and 应用订阅's rules. An administrator (app:list) of a certified enterprise applies to use
 * an application of the application center that is on single sign-on; an operator (app:subscription)
 * approves — the application is then in the enterprise's 应用列表 as a platform application, nobody
 * authorized yet — rejects, or later revokes it (the copy and its grants go). Each decision is
 * audited and told to the enterprise's administrators in 消息中心, in the decision's transaction.
 * The caller decides, and is named in the audit row.
 */
export class SubscriptionService {
  constructor(private readonly app: FastifyInstance) {}

  async application(uuid: string): Promise<ApplicationRow> {
    const found = await this.app.applicationRepository.byUuid(uuid);
    if (!found) throw new NotFoundError(SubscriptionMessage.applicationNotFound);
    return found;
  }

  /** What the application's detail shows the signed-in user: the enterprise's latest subscription and whether they may apply. */
  async stateFor(caller: Caller, application: ApplicationRow): Promise<MyAppSubscription> {
    const profile = caller.profile;
    const latest =
      profile.enterpriseId === null ? undefined : await this.app.appSubscriptionRepository.latest(profile.enterpriseId, application.id);
    const status = latest?.status ?? 'none';
    let blockedReason = '';
    if (application.status !== 'published') blockedReason = SubscriptionMessage.unpublished;
    else if (!application.service_url) blockedReason = SubscriptionMessage.notOnSso;
    else if (status === 'pending') blockedReason = SubscriptionMessage.pending;
    else if (status === 'approved') blockedReason = SubscriptionMessage.approved;
    else if (profile.enterpriseId === null) blockedReason = SubscriptionMessage.noEnterprise;
    else if (!profile.authorities.includes(Authority.AppList)) blockedReason = SubscriptionMessage.notAdministrator;
    else if (profile.certificationStatus !== 'certified') blockedReason = CertificationMessage.certificationRequired;
    return {
      status,
      decisionNote: latest?.decisionNote ?? '',
      createdAt: latest?.createdAt ?? '',
      decidedAt: latest?.decidedAt ?? '',
      canApply: blockedReason === '',
      blockedReason,
    };
  }

  /** 申请使用: files a pending subscription and tells the operators; answers the new state. */
  async request(caller: Caller, uuid: string, rawPurpose: string): Promise<MyAppSubscription> {
    const profile = caller.profile;
    const application = await this.application(uuid);
    if (application.status !== 'published') throw new BadRequestError(SubscriptionMessage.unpublished);
    if (!application.service_url) throw new BadRequestError(SubscriptionMessage.notOnSso);
    const purpose = rawPurpose.trim();
    if (charCount(purpose) > SUBSCRIPTION_PURPOSE_MAX) throw new BadRequestError(SubscriptionMessage.purposeTooLong);
    const enterpriseId = profile.enterpriseId;
    if (enterpriseId === null) throw new BadRequestError(SubscriptionMessage.noEnterprise);
    const latest = await this.app.appSubscriptionRepository.latest(enterpriseId, application.id);
    if (latest?.status === 'pending') throw new ConflictError(SubscriptionMessage.pending);
    if (latest?.status === 'approved') throw new ConflictError(SubscriptionMessage.approved);
    try {
      await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.app.appSubscriptionRepository.create(trx, {
          enterpriseId,
          applicationId: application.id,
          applicantId: profile.id,
          purpose,
        });
        await auditBy(trx, caller, 'app-subscription.request', application.name, 'success', purpose);
        const operators = await this.app.accountRepository.holders(Authority.AppSubscription, null, trx);
        await this.app.notificationRepository.notify(trx, operators, {
          kind: 'subscription',
          title: '新的应用订阅申请',
          content: `${profile.enterpriseName} 申请使用「${application.name}」${purpose ? `（${purpose}）` : ''}，请在应用订阅中审核。`,
          link: '/console/app/subscription',
        });
      });
    } catch (err) {
      // A twin request committed meanwhile (one pending or approved subscription per enterprise and application).
      if (isUniqueViolation(err)) throw new ConflictError(SubscriptionMessage.pending);
      throw err;
    }
    return this.stateFor(caller, application);
  }

  /** 通过: the enterprise gets its copy in 应用列表 (nobody authorized yet). */
  async approve(caller: Caller, id: number): Promise<void> {
    const decision = await this.decisionOf(id);
    const { copy } = decision;
    if (decision.status !== 'pending') throw new ConflictError(SubscriptionMessage.alreadyDecided);
    if (!decision.onSingleSignOn) throw new BadRequestError(SubscriptionMessage.notOnSso);
    if (!decision.enterpriseCertified) throw new BadRequestError(SubscriptionMessage.enterpriseNotCertified);
    const clash = new ConflictError(subscriptionNameClash(decision.enterpriseName, copy.name));
    if (await this.app.ssoAppRepository.nameTaken(decision.enterpriseId, copy.name)) throw clash;
    try {
      await inEnterpriseTransaction(this.app.database.db, decision.enterpriseId, async (trx) => {
        const decided = await this.app.appSubscriptionRepository.decide(trx, decision.id, {
          from: 'pending',
          to: 'approved',
          decidedBy: caller.accountId,
          note: '',
        });
        if (!decided) throw new ConflictError(SubscriptionMessage.alreadyDecided);
        await this.app.ssoAppRepository.createCopy(trx, decision.enterpriseId, copy);
        await auditBy(trx, caller, 'app-subscription.approve', copy.name, 'success', decision.enterpriseName);
        await this.app.notificationRepository.notify(trx, await this.recipients(trx, decision), {
          kind: 'subscription',
          title: '应用订阅已通过',
          content: `「${copy.name}」已加入本企业的应用列表，请在“应用授权”中为需要使用的人员开通。`,
          link: '/console/app/authorization',
        });
      });
    } catch (err) {
      // An application of that name (or the copy) was added meanwhile.
      if (isUniqueViolation(err)) throw clash;
      throw err;
    }
  }

  /** 驳回 (a note is required). */
  async reject(caller: Caller, id: number, rawNote: string): Promise<void> {
    const decision = await this.decisionOf(id);
    if (decision.status !== 'pending') throw new ConflictError(SubscriptionMessage.alreadyDecided);
    const note = noteOf(rawNote, SubscriptionMessage.rejectNoteRequired);
    await inEnterpriseTransaction(this.app.database.db, decision.enterpriseId, async (trx) => {
      const decided = await this.app.appSubscriptionRepository.decide(trx, decision.id, {
        from: 'pending',
        to: 'rejected',
        decidedBy: caller.accountId,
        note,
      });
      if (!decided) throw new ConflictError(SubscriptionMessage.alreadyDecided);
      await auditBy(trx, caller, 'app-subscription.reject', decision.copy.name, 'success', `${decision.enterpriseName}：${note}`);
      await this.app.notificationRepository.notify(trx, await this.recipients(trx, decision), {
        kind: 'subscription',
        title: '应用订阅申请被驳回',
        content: `「${decision.copy.name}」的使用申请被驳回：${note}`,
        link: `/product/center/detail?uuid=${encodeURIComponent(decision.applicationUuid)}`,
      });
    });
  }

  /** 撤销 (a note is required): the copy and its grants go, and its users' sessions end. */
  async revoke(caller: Caller, id: number, rawNote: string): Promise<void> {
    const decision = await this.decisionOf(id);
    if (decision.status !== 'approved') throw new ConflictError(SubscriptionMessage.notApproved);
    const note = noteOf(rawNote, SubscriptionMessage.revokeNoteRequired);
    const ended = await inEnterpriseTransaction(this.app.database.db, decision.enterpriseId, async (trx) => {
      const decided = await this.app.appSubscriptionRepository.decide(trx, decision.id, {
        from: 'approved',
        to: 'revoked',
        decidedBy: caller.accountId,
        note,
      });
      if (!decided) throw new ConflictError(SubscriptionMessage.notApproved);
      const copyId = await this.app.ssoAppRepository.deleteCopy(trx, decision.enterpriseId, decision.copy.platformAppId);
      await auditBy(trx, caller, 'app-subscription.revoke', decision.copy.name, 'success', `${decision.enterpriseName}：${note}`);
      await this.app.notificationRepository.notify(trx, await this.recipients(trx, decision), {
        kind: 'subscription',
        title: '应用订阅已撤销',
        content: `平台已撤销本企业对「${decision.copy.name}」的订阅：${sentence(note)}该应用已从应用列表移除。`,
        link: `/product/center/detail?uuid=${encodeURIComponent(decision.applicationUuid)}`,
      });
      return copyId === undefined ? [] : this.app.casTicketService.destroyTicketsOf(trx, copyId);
    });
    // The application ends the sessions its users opened through the subscription (CAS 3.0 §2.3.3).
    await this.app.ssoSessionService.notify(caller, ended);
  }

  /** A subscription as the console lists it (the answer of a decision). */
  async row(id: number) {
    const row = await this.app.appSubscriptionRepository.row(id);
    if (!row) throw new NotFoundError(SubscriptionMessage.notFound);
    return row;
  }

  private async decisionOf(id: number): Promise<SubscriptionDecision> {
    const found = await this.app.appSubscriptionRepository.forDecision(id);
    if (!found) throw new NotFoundError(SubscriptionMessage.notFound);
    return found;
  }

  /** The enterprise's administrators (who may apply) and the applicant hear of each decision in 消息中心. */
  private async recipients(trx: Kysely<Database>, decision: SubscriptionDecision): Promise<number[]> {
    const administrators = await this.app.accountRepository.holders(Authority.AppList, decision.enterpriseId, trx);
    return decision.applicantId === null ? administrators : [...administrators, decision.applicantId];
  }
}

/** A checked note of a rejection or revocation. */
function noteOf(raw: string, required: string): string {
  const note = raw.trim();
  if (!note) throw new BadRequestError(required);
  if (charCount(note) > SUBSCRIPTION_NOTE_MAX) throw new BadRequestError(SubscriptionMessage.noteTooLong);
  return note;
}

export default fp(
  async (app) => {
    app.decorate('subscriptionService', new SubscriptionService(app));
  },
  { name: 'subscription-service', dependencies: ['subscription-repository', 'application-repository'] },
);
