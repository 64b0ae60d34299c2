import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  CERTIFICATION_COMMENT_MAX,
  CERTIFICATION_REJECT_REASONS,
  CertificationMessage,
  type CertificationRejectReason,
  type CertificationReviewDetail,
  ApplicationStatusSchema,
  CertificationDecisionBodySchema,
  CertificationReviewDetailSchema,
  CertificationReviewRowSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTimeBound, chinaTimeToIso } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { clause, sentence } from '../../platform/lib/sentence.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import type { ApplicationToDecide } from './certification-repository.js';

const tags = ['certification'];
const BASE = '/web-api/console/v1/certification';
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** Where the applicant reads the result: 企业信息's 企业认证 tab. */
const RESULT_LINK = '/console/enterprise?tab=certification';
/** notification.content holds 500 characters. */
const CONTENT_MAX = 500;

const TimeBound = Type.Optional(Type.String({ maxLength: 19, description: 'yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss（中国时间，含）' }));

const labelOf = (code: CertificationRejectReason) => CERTIFICATION_REJECT_REASONS.find((r) => r.code === code)?.label ?? code;

/** A submitted-time filter bound as the ISO instant applications store; a bare date takes its whole day. */
function bound(text: string | undefined, edge: 'start' | 'end', label: string): string | undefined {
  if (!text) return undefined;
  const full = chinaTimeBound(text, edge);
  if (!full) throw new BadRequestError(`${label}格式应为 yyyy-MM-dd HH:mm:ss`);
  const iso = chinaTimeToIso(full, label);
  return edge === 'end' ? iso.replace('.000Z', '.999Z') : iso;
}

/** “营业执照不清晰；其他（说明）”: each reason by its label, 其他 with the reviewer's comment. */
function reasonsText(reasons: readonly CertificationRejectReason[], comment: string): string {
  return reasons.map((r) => (r === 'other' ? `其他（${clause(comment)}）` : labelOf(r))).join('；');
}

/** A message's content, cut to what the column holds. */
function clip(content: string): string {
  const chars = [...content];
  return chars.length > CONTENT_MAX ? `${chars.slice(0, CONTENT_MAX - 1).join('')}…` : content;
}

/** The message to the applicant and the enterprise's administrators (消息中心). */
function resultMessage(enterpriseName: string, approved: boolean, reasons: readonly CertificationRejectReason[], comment: string) {
  if (approved) {
    const remark = comment ? `审核意见：${comment}` : '';
    return {
      title: '企业认证已通过',
      content: clip(`“${enterpriseName}”的企业认证已通过审核，现在可以使用标识管理、申请标识前缀等功能。${remark}`),
    };
  }
  const remark = comment && !reasons.includes('other') ? `审核意见：${sentence(comment)}` : '';
  return {
    title: '企业认证未通过',
    content: clip(
      `“${enterpriseName}”的企业认证申请被驳回。驳回原因：${reasonsText(reasons, comment)}。${remark}请在企业信息的“企业认证”中按原因修改后重新提交。`,
    ),
  };
}

/**
 * 认证审核 (authority certification: platform reviewers): the queue of applications,
 * one application with its materials and the enterprise's earlier ones, and the decision. A decision
 * commits with its audit row and the messages to the enterprise; the applicant's SMS follows.
 */
const certificationReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const certifications = app.certificationRepository;
  const canReview = { onRequest: app.requireAuthority(Authority.Certification) };

  /** The SMS is a courtesy once the decision is committed: a failure is logged and said, never undoes it. */
  async function tell(request: FastifyRequest, application: ApplicationToDecide, result: string): Promise<'sent' | 'failed' | 'none'> {
    if (!application.applicantPhone) return 'none';
    try {
      await app.smsSender.send({
        phone: application.applicantPhone,
        templateKey: 'certification-result',
        params: { enterprise: application.enterpriseName, result },
      });
      return 'sent';
    } catch (err) {
      request.log.error({ err: (err as Error).message, provider: app.smsSender.name }, 'certification result SMS not sent');
      return 'failed';
    }
  }

  app.get(
    `${BASE}/page/list`,
    {
      ...canReview,
      schema: {
        tags,
        summary: '认证申请分页列表（待审核的先到先审：旧的在前；其他新的在前；按状态、提交时间、企业名称或信用代码筛选）',
        querystring: Type.Object({
          status: Type.Optional(Type.Union([ApplicationStatusSchema, Type.Literal('')])),
          keyword: Type.Optional(Type.String({ maxLength: 100, description: '企业名称或统一社会信用代码（包含）' })),
          filterStartTime: TimeBound,
          filterEndTime: TimeBound,
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(CertificationReviewRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const start = bound(q.filterStartTime, 'start', '开始时间');
      const end = bound(q.filterEndTime, 'end', '结束时间');
      if (start && end && start > end) throw new BadRequestError('开始时间不能晚于结束时间');
      const filters = { status: q.status || undefined, keyword: q.keyword?.trim() ?? '', start, end };
      return ok(await certifications.page(filters, q.offset, q.limit));
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canReview,
      schema: {
        tags,
        summary: '认证申请详情：申请与材料、企业当前信息、该企业此前的申请',
        params: IdParams,
        response: { 200: Envelope(CertificationReviewDetailSchema), ...errorResponses },
      },
    },
    async (request) => {
      const found = await certifications.reviewDetail(request.params.id);
      if (!found) throw new NotFoundError('认证申请不存在');
      const { enterpriseId, ...detail } = found;
      const profile = await app.enterpriseRepository.profile(enterpriseId);
      if (!profile) throw new NotFoundError('认证申请不存在');
      // Reviewers read the profile; only the enterprise's administrators edit it (企业信息).
      return ok<CertificationReviewDetail>({ ...detail, profile: { ...profile, editable: false } });
    },
  );

  app.post(
    `${BASE}/:id/decision`,
    {
      ...canReview,
      schema: {
        tags,
        summary: '审核认证申请：通过（企业变为已认证）或驳回（至少一项原因，“其他”须填写说明）；通知申请人与企业管理员',
        params: IdParams,
        body: CertificationDecisionBodySchema,
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const approved = request.body.decision === 'approve';
      const action = approved ? 'certification.approve' : 'certification.reject';
      let application: ApplicationToDecide | undefined;
      try {
        application = await certifications.toDecide(request.params.id);
        if (!application) throw new NotFoundError('认证申请不存在');
        if (application.status !== 'pending') throw new ConflictError(CertificationMessage.notPending);
        const reasons: CertificationRejectReason[] = approved ? [] : [...new Set(request.body.reasons)];
        const comment = request.body.comment.trim();
        if (!approved && reasons.length === 0) throw new BadRequestError(CertificationMessage.reasonRequired);
        if (reasons.includes('other') && !comment) throw new BadRequestError(CertificationMessage.commentRequired);
        if ([...comment].length > CERTIFICATION_COMMENT_MAX) throw new BadRequestError(CertificationMessage.commentTooLong);
        const deciding = application;
        await inEnterpriseTransaction(db, deciding.enterpriseId, async (trx) => {
          await certifications.decide(trx, deciding, {
            status: approved ? 'approved' : 'rejected',
            reviewerId: request.principal!.accountId,
            reasons,
            comment,
          });
          const detail = approved ? comment : reasonsText(reasons, comment);
          await auditRequest(trx, request, action, deciding.enterpriseName, 'success', detail);
          const administrators = await app.accountRepository.holders(Authority.EnterpriseManage, deciding.enterpriseId, trx);
          const recipients = deciding.applicantId === null ? administrators : [deciding.applicantId, ...administrators];
          await app.notifications.notify(trx, recipients, {
            kind: 'certification',
            ...resultMessage(deciding.enterpriseName, approved, reasons, comment),
            link: RESULT_LINK,
          });
        });
      } catch (err) {
        // One route, two audit actions (audit-failures knows one per route): a refusal is recorded as the one asked for.
        if (err instanceof AppError) {
          await app.auditRepository.recordRequest(request, action, String(request.params.id), 'failure', err.message);
        }
        throw err;
      }
      const told = await tell(request, application, approved ? '已通过' : '未通过');
      const done = approved ? '认证已通过' : '已驳回';
      return ok([], told === 'sent' ? `${done}，已短信通知申请人` : told === 'failed' ? `${done}，短信通知发送失败` : done);
    },
  );
};

export default certificationReviewRoutes;
