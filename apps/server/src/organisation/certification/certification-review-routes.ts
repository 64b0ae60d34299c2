import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  type CertificationReviewDetail,
  CertificationDecisionBodySchema,
  CertificationReviewDetailSchema,
  CertificationReviewQuerySchema,
  CertificationReviewRowSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
} from '@portal/shared';
import { chinaTimeBound, chinaTimeToIso } from '../../platform/lib/china-time.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const tags = ['certification'];
const BASE = `${ApiPrefix.console}/certification`;

/** A submitted-time filter bound as the ISO instant applications store; a bare date takes its whole day. */
function bound(text: string | undefined, edge: 'start' | 'end', label: string): string | undefined {
  if (!text) return undefined;
  const full = chinaTimeBound(text, edge);
  if (!full) throw new BadRequestError(`${label}格式应为 yyyy-MM-dd HH:mm:ss`);
  const iso = chinaTimeToIso(full, label);
  return edge === 'end' ? iso.replace('.000Z', '.999Z') : iso;
}

/**
 * 认证审核 (authority certification: platform reviewers): the queue of applications,
 * one application with its materials and the enterprise's earlier ones, and the decision (the rules:
 * certification-service.ts).
 */
const certificationReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const certifications = app.certificationRepository;
  const canReview = { onRequest: app.requireAuthority(Authority.Certification) };

  app.get(
    `${BASE}/page/list`,
    {
      ...canReview,
      schema: {
        tags,
        summary: '认证申请分页列表（待审核的先到先审：旧的在前；其他新的在前；按状态、提交时间、企业名称或信用代码筛选）',
        querystring: CertificationReviewQuerySchema,
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
        params: RowIdParamsSchema,
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
        params: RowIdParamsSchema,
        body: CertificationDecisionBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => ok([], await app.certificationService.decide(callerOf(request), request.params.id, request.body)),
  );
};

export default certificationReviewRoutes;
