import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  PREFIX_NEEDS_CERTIFICATION,
  PREFIX_PURPOSE_MAX,
  PREFIX_REJECT_REASON_MAX,
  PrefixRequestMessage,
  REGISTERED_PREFIX,
  REGISTERED_PREFIX_MESSAGE,
} from '@portal/shared';
import { Type } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { identifierAccess, identifierAdminContext, scopeOf, tags } from './identifier-admin-context.js';
import { Empty } from './identifier-admin-schemas.js';

const Status = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
const PrefixRequestSchema = Type.Object({
  id: Type.Integer(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  prefix: Type.String(),
  purpose: Type.String({ description: '用途说明（通过后作为前缀名称）' }),
  status: Status,
  applicantName: Type.String(),
  reviewerName: Type.String(),
  reason: Type.String({ description: '驳回原因' }),
  createdAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
});

/**
 * 申请标识前缀: a certified enterprise asks for a prefix; a platform operator
 * approves it in 标识管理, which creates the prefix for that enterprise, or rejects it with a reason.
 * The applicant is told in 消息中心 either way.
 */
const prefixRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const requests = app.prefixRequestRepository;
  const prefixes = app.prefixRepository;
  const { audit } = identifierAdminContext(app);

  app.get(
    '/web-api/identity/v1/prefix-request/page/list',
    {
      onRequest: app.requireAuthority(Authority.IdentifierTemplate, Authority.IdentifierAll),
      schema: {
        tags,
        summary: '标识前缀申请列表（企业看本企业的，平台运营看全部；新的在前）',
        querystring: Type.Object({
          status: Type.Optional(Type.Union([Status, Type.Literal('')])),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(PrefixRequestSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { status, offset, limit } = request.query;
      return ok(await requests.page(scope.all ? null : (scope.enterpriseId ?? -1), status || undefined, offset, limit));
    },
  );

  app.post(
    '/web-api/identity/v1/prefix-request',
    {
      onRequest: identifierAccess(app, Authority.IdentifierTemplate),
      config: { auditAction: 'prefix-request.create' },
      schema: {
        tags,
        summary: '申请标识前缀（已认证企业）',
        body: Type.Object({ prefix: Type.String({ maxLength: 64 }), purpose: Type.String({ maxLength: 1000 }) }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const profile = request.principal!.profile;
      const prefix = request.body.prefix.trim();
      const purpose = request.body.purpose.trim();
      if (!REGISTERED_PREFIX.test(prefix)) throw new BadRequestError(REGISTERED_PREFIX_MESSAGE);
      if (!purpose) throw new BadRequestError(PrefixRequestMessage.purposeRequired);
      if ([...purpose].length > PREFIX_PURPOSE_MAX) throw new BadRequestError(PrefixRequestMessage.purposeTooLong);
      if (profile.enterpriseId === null) throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
      if (await prefixes.byPrefix(prefix)) throw new ConflictError(`标识前缀 ${prefix} 已存在`);
      if (await requests.pendingFor(prefix)) throw new ConflictError(`标识前缀 ${prefix} 已有待审批的申请`);
      const enterpriseId = profile.enterpriseId;
      const id = await inTransaction(db, async (trx) => {
        const created = await requests.create(trx, { enterpriseId, applicantId: profile.id, prefix, purpose });
        await audit(trx, request, 'prefix-request.create', prefix, purpose);
        const operators = await app.accountRepository.holders(Authority.IdentifierAll, null, trx);
        await app.notifications.notify(trx, operators, {
          kind: 'identifier',
          title: '新的标识前缀申请',
          content: `${profile.enterpriseName} 申请标识前缀 ${prefix}（${purpose}），请在标识管理中审批。`,
          link: '/console/identifier/template',
        });
        return created;
      });
      return ok({ id }, '申请已提交，请等待平台审批');
    },
  );

  app.post(
    '/web-api/identity/v1/prefix-request/:id/decision',
    {
      onRequest: app.requireAuthority(Authority.IdentifierAll),
      schema: {
        tags,
        summary: '审批标识前缀申请（平台运营）：通过即为该企业创建前缀',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        body: Type.Object({
          decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
          reason: Type.String({ maxLength: 1000, default: '' }),
        }),
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const { decision } = request.body;
      const action = decision === 'approve' ? 'prefix-request.approve' : 'prefix-request.reject';
      try {
        const pending = await requests.byId(request.params.id);
        if (!pending) throw new NotFoundError('申请不存在');
        if (pending.status !== 'pending') throw new ConflictError('该申请已处理');
        const reason = request.body.reason.trim();
        if (decision === 'reject' && !reason) throw new BadRequestError(PrefixRequestMessage.reasonRequired);
        if ([...reason].length > PREFIX_REJECT_REASON_MAX) throw new BadRequestError(PrefixRequestMessage.reasonTooLong);
        if (decision === 'approve') {
          if ((await prefixes.certificationOf(pending.enterpriseId)) !== 'certified') throw new BadRequestError(PREFIX_NEEDS_CERTIFICATION);
          if (await prefixes.byPrefix(pending.prefix)) throw new ConflictError(`标识前缀 ${pending.prefix} 已存在`);
        }
        await inTransaction(db, async (trx) => {
          await requests.decide(trx, pending.id, decision === 'approve' ? 'approved' : 'rejected', request.principal!.accountId, reason);
          if (decision === 'approve') {
            await prefixes.create({ prefix: pending.prefix, name: pending.purpose, enterpriseId: pending.enterpriseId }, trx);
          }
          await audit(trx, request, action, pending.prefix, `${pending.enterpriseName}${reason ? `：${reason}` : ''}`);
          await app.notifications.notify(trx, pending.applicantId === null ? [] : [pending.applicantId], {
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
          await app.auditRepository.recordRequest(request, action, String(request.params.id), 'failure', err.message);
        } else if (isUniqueViolation(err)) {
          const message = '标识前缀已存在';
          await app.auditRepository.recordRequest(request, action, String(request.params.id), 'failure', message);
          throw new ConflictError(message);
        }
        throw err;
      }
      return ok([], decision === 'approve' ? '已通过，前缀已分配' : '已驳回');
    },
  );
};

export default prefixRequestRoutes;
