import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  APP_SUBSCRIPTION_STATUS_LABELS,
  type AppSubscriptionStatus,
  Authority,
  CertificationMessage,
  type MyAppSubscription,
  SUBSCRIPTION_NOTE_MAX,
  SUBSCRIPTION_PURPOSE_MAX,
  SubscriptionMessage,
  subscriptionNameClash,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sentence } from '../../platform/lib/sentence.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { ApplicationRow } from '../applications/application-repository.js';
import type { SubscriptionDecision } from './subscription-repository.js';

const STATUSES = Object.keys(APP_SUBSCRIPTION_STATUS_LABELS) as AppSubscriptionStatus[];
const Status = Type.Union(STATUSES.map((s) => Type.Literal(s)));
const statusDescription = STATUSES.map((s) => `${s} ${APP_SUBSCRIPTION_STATUS_LABELS[s]}`).join('，');

const MyAppSubscriptionSchema = Type.Object({
  status: Type.Union([Status, Type.Literal('none')], { description: `本企业最近一次申请的状态：${statusDescription}，none 未申请` }),
  decisionNote: Type.String({ description: '驳回或撤销的原因' }),
  createdAt: Type.String({ description: '最近一次申请的时间 yyyy-MM-dd HH:mm:ss（未申请为空）' }),
  decidedAt: Type.String({ description: '处理时间（待审核或未申请为空）' }),
  canApply: Type.Boolean({ description: '当前账号现在能否申请使用' }),
  blockedReason: Type.String({ description: '不能申请的原因（canApply 为 false 时）' }),
});

const SubscriptionRowSchema = Type.Object({
  id: Type.Integer(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  applicationUuid: Type.String(),
  applicationName: Type.String(),
  status: Status,
  purpose: Type.String({ description: '申请说明' }),
  decisionNote: Type.String({ description: '驳回或撤销的原因' }),
  applicantName: Type.String(),
  applicantUsername: Type.String(),
  createdAt: Type.String(),
  decidedAt: Type.String({ description: '处理时间；待审核为空' }),
});

const UuidParams = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
// Lengths here only bound the request; the messages below say the real limits.
const PurposeBody = Type.Object({ purpose: Type.String({ maxLength: SUBSCRIPTION_PURPOSE_MAX * 5, description: '申请说明（可空）' }) });
const NoteBody = Type.Object({ note: Type.String({ maxLength: SUBSCRIPTION_NOTE_MAX * 5 }) });

const portalTags = ['applications'];
const consoleTags = ['app-subscription'];
const CONSOLE = '/web-api/console/v1/app-subscription';

const charCount = (text: string) => [...text].length;

/**
 * 申请使用 and 应用订阅. An administrator (app:list) of a certified enterprise applies to use
 * an application of the application center that is on single sign-on; an operator (app:subscription)
 * approves — the application is then in the enterprise's 应用列表 as a platform application, nobody
 * authorized yet — rejects, or later revokes it (the copy and its grants go). Each decision is
 * audited and told to the enterprise's administrators in 消息中心.
 */
const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const subscriptions = app.appSubscriptions;
  const applications = app.applicationRepository;
  const canDecide = { onRequest: app.requireAuthority(Authority.AppSubscription) };

  async function applicationOf(uuid: string): Promise<ApplicationRow> {
    const found = await applications.byUuid(uuid);
    if (!found) throw new NotFoundError(SubscriptionMessage.applicationNotFound);
    return found;
  }

  /** What the application's detail shows the signed-in user: the enterprise's latest subscription and whether they may apply. */
  async function stateFor(request: FastifyRequest, application: ApplicationRow): Promise<MyAppSubscription> {
    const profile = request.principal!.profile;
    const latest = profile.enterpriseId === null ? undefined : await subscriptions.latest(profile.enterpriseId, application.id);
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

  app.get(
    '/web-api/portal/v1/applications/:uuid/subscription',
    {
      onRequest: app.authenticate,
      schema: {
        tags: portalTags,
        summary: '本企业对该应用的订阅状态，以及当前账号能否申请使用',
        params: UuidParams,
        response: { 200: Envelope(MyAppSubscriptionSchema), ...errorResponses },
      },
    },
    async (request) => ok(await stateFor(request, await applicationOf(request.params.uuid))),
  );

  app.post(
    '/web-api/portal/v1/applications/:uuid/subscription',
    {
      onRequest: app.requireCertified(Authority.AppList),
      config: { auditAction: 'app-subscription.request' },
      schema: {
        tags: portalTags,
        summary: '申请使用（已认证企业的管理员；平台审核通过后应用出现在本企业的应用列表）',
        params: UuidParams,
        body: PurposeBody,
        response: { 200: Envelope(MyAppSubscriptionSchema), ...errorResponses },
      },
    },
    async (request) => {
      const profile = request.principal!.profile;
      const application = await applicationOf(request.params.uuid);
      if (application.status !== 'published') throw new BadRequestError(SubscriptionMessage.unpublished);
      if (!application.service_url) throw new BadRequestError(SubscriptionMessage.notOnSso);
      const purpose = request.body.purpose.trim();
      if (charCount(purpose) > SUBSCRIPTION_PURPOSE_MAX) throw new BadRequestError(SubscriptionMessage.purposeTooLong);
      const enterpriseId = profile.enterpriseId;
      if (enterpriseId === null) throw new BadRequestError(SubscriptionMessage.noEnterprise);
      const latest = await subscriptions.latest(enterpriseId, application.id);
      if (latest?.status === 'pending') throw new ConflictError(SubscriptionMessage.pending);
      if (latest?.status === 'approved') throw new ConflictError(SubscriptionMessage.approved);
      try {
        await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          await subscriptions.create(trx, { enterpriseId, applicationId: application.id, applicantId: profile.id, purpose });
          await auditRequest(trx, request, 'app-subscription.request', application.name, 'success', purpose);
          const operators = await app.accountRepository.holders(Authority.AppSubscription, null, trx);
          await app.notifications.notify(trx, operators, {
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
      return ok(await stateFor(request, application), SubscriptionMessage.submitted);
    },
  );

  app.get(
    `${CONSOLE}/page/list`,
    {
      ...canDecide,
      schema: {
        tags: consoleTags,
        summary: '应用订阅申请（全部企业；新的在前；按状态筛选，按企业或应用名称搜索）',
        querystring: Type.Object({
          status: Type.Optional(Type.Union([Status, Type.Literal('')])),
          keyword: Type.Optional(Type.String({ maxLength: 64 })),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(SubscriptionRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { status, keyword, offset, limit } = request.query;
      return ok(await subscriptions.page({ status: status || undefined, keyword: keyword?.trim() ?? '' }, offset, limit));
    },
  );

  async function decisionOf(id: number): Promise<SubscriptionDecision> {
    const found = await subscriptions.forDecision(id);
    if (!found) throw new NotFoundError(SubscriptionMessage.notFound);
    return found;
  }

  /** The enterprise's administrators (who may apply) and the applicant hear of each decision in 消息中心. */
  async function recipients(trx: Kysely<Database>, decision: SubscriptionDecision): Promise<number[]> {
    const administrators = await app.accountRepository.holders(Authority.AppList, decision.enterpriseId, trx);
    return decision.applicantId === null ? administrators : [...administrators, decision.applicantId];
  }

  async function answer(id: number, message: string) {
    const row = await subscriptions.row(id);
    if (!row) throw new NotFoundError(SubscriptionMessage.notFound);
    return ok(row, message);
  }

  /** A checked note of a rejection or revocation. */
  function noteOf(body: Static<typeof NoteBody>, required: string): string {
    const note = body.note.trim();
    if (!note) throw new BadRequestError(required);
    if (charCount(note) > SUBSCRIPTION_NOTE_MAX) throw new BadRequestError(SubscriptionMessage.noteTooLong);
    return note;
  }

  app.put(
    `${CONSOLE}/:id/approve`,
    {
      ...canDecide,
      config: { auditAction: 'app-subscription.approve' },
      schema: {
        tags: consoleTags,
        summary: '通过申请：应用加入该企业的应用列表（平台应用，尚未授权任何人）',
        params: IdParams,
        response: { 200: Envelope(SubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const decision = await decisionOf(request.params.id);
      const { copy } = decision;
      if (decision.status !== 'pending') throw new ConflictError(SubscriptionMessage.alreadyDecided);
      if (!decision.onSingleSignOn) throw new BadRequestError(SubscriptionMessage.notOnSso);
      if (!decision.enterpriseCertified) throw new BadRequestError(SubscriptionMessage.enterpriseNotCertified);
      const clash = new ConflictError(subscriptionNameClash(decision.enterpriseName, copy.name));
      if (await app.ssoApps.nameTaken(decision.enterpriseId, copy.name)) throw clash;
      try {
        await inEnterpriseTransaction(db, decision.enterpriseId, async (trx) => {
          const decided = await subscriptions.decide(trx, decision.id, {
            from: 'pending',
            to: 'approved',
            decidedBy: request.principal!.accountId,
            note: '',
          });
          if (!decided) throw new ConflictError(SubscriptionMessage.alreadyDecided);
          await app.ssoApps.createCopy(trx, decision.enterpriseId, copy);
          await auditRequest(trx, request, 'app-subscription.approve', copy.name, 'success', decision.enterpriseName);
          await app.notifications.notify(trx, await recipients(trx, decision), {
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
      return answer(decision.id, SubscriptionMessage.approvedDone);
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
        params: IdParams,
        body: NoteBody,
        response: { 200: Envelope(SubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const decision = await decisionOf(request.params.id);
      if (decision.status !== 'pending') throw new ConflictError(SubscriptionMessage.alreadyDecided);
      const note = noteOf(request.body, SubscriptionMessage.rejectNoteRequired);
      await inEnterpriseTransaction(db, decision.enterpriseId, async (trx) => {
        const decided = await subscriptions.decide(trx, decision.id, {
          from: 'pending',
          to: 'rejected',
          decidedBy: request.principal!.accountId,
          note,
        });
        if (!decided) throw new ConflictError(SubscriptionMessage.alreadyDecided);
        await auditRequest(trx, request, 'app-subscription.reject', decision.copy.name, 'success', `${decision.enterpriseName}：${note}`);
        await app.notifications.notify(trx, await recipients(trx, decision), {
          kind: 'subscription',
          title: '应用订阅申请被驳回',
          content: `「${decision.copy.name}」的使用申请被驳回：${note}`,
          link: `/product/center/detail?uuid=${encodeURIComponent(decision.applicationUuid)}`,
        });
      });
      return answer(decision.id, SubscriptionMessage.rejectedDone);
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
        params: IdParams,
        body: NoteBody,
        response: { 200: Envelope(SubscriptionRowSchema), ...errorResponses },
      },
    },
    async (request) => {
      const decision = await decisionOf(request.params.id);
      if (decision.status !== 'approved') throw new ConflictError(SubscriptionMessage.notApproved);
      const note = noteOf(request.body, SubscriptionMessage.revokeNoteRequired);
      const ended = await inEnterpriseTransaction(db, decision.enterpriseId, async (trx) => {
        const decided = await subscriptions.decide(trx, decision.id, {
          from: 'approved',
          to: 'revoked',
          decidedBy: request.principal!.accountId,
          note,
        });
        if (!decided) throw new ConflictError(SubscriptionMessage.notApproved);
        const copyId = await app.ssoApps.deleteCopy(trx, decision.enterpriseId, decision.copy.platformAppId);
        await auditRequest(trx, request, 'app-subscription.revoke', decision.copy.name, 'success', `${decision.enterpriseName}：${note}`);
        await app.notifications.notify(trx, await recipients(trx, decision), {
          kind: 'subscription',
          title: '应用订阅已撤销',
          content: `平台已撤销本企业对「${decision.copy.name}」的订阅：${sentence(note)}该应用已从应用列表移除。`,
          link: `/product/center/detail?uuid=${encodeURIComponent(decision.applicationUuid)}`,
        });
        return copyId === undefined ? [] : app.casTickets.destroyTicketsOf(trx, copyId);
      });
      // The application ends the sessions its users opened through the subscription (CAS 3.0 §2.3.3).
      await app.ssoSessions.notify(request, ended);
      return answer(decision.id, SubscriptionMessage.revokedDone);
    },
  );
};

export default subscriptionRoutes;
