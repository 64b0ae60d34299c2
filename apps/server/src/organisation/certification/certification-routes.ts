import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, Authority, CertificationStateSchema, CertificationSubmitBodySchema, CreatedIdSchema } from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { attachment } from '../../platform/audit/audit-csv.js';
import { AUTHORIZATION_TEMPLATE_MIME, authorizationLetter } from './authorization-template.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const tags = ['enterprise'];
const BASE = `${ApiPrefix.console}/enterprise/certification`;

/**
 * 企业认证, the applicant's side: the enterprise's status and its applications (the
 * timeline), a new application with the materials uploaded before (certification-file-routes.ts;
 * the rules: certification-service.ts), and the authorisation letter template for an agent.
 */
const certificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const certifications = app.certificationRepository;
  const canManage = { onRequest: app.requireAuthority(Authority.EnterpriseManage) };

  app.get(
    BASE,
    {
      onRequest: app.requireAuthority(Authority.Enterprise, Authority.EnterpriseManage),
      schema: {
        tags,
        summary: '本企业的认证状态与历次申请（新的在前）；材料文件仅对 enterprise:manage 持有者列出',
        response: { 200: Envelope(CertificationStateSchema), ...errorResponses },
      },
    },
    async (request) => {
      const withFiles = callerOf(request).profile.authorities.includes(Authority.EnterpriseManage);
      const state = await certifications.state(callerEnterprise(callerOf(request)), withFiles);
      if (!state) throw new NotFoundError('企业不存在');
      return ok(state);
    },
  );

  app.post(
    BASE,
    {
      ...canManage,
      config: { auditAction: 'certification.submit' },
      schema: {
        tags,
        summary: '提交企业认证申请（企业名称、统一社会信用代码、法定代表人写入企业信息，状态变为待审核）',
        body: CertificationSubmitBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => {
      const id = await app.certificationService.submit(callerOf(request), callerEnterprise(callerOf(request)), request.body);
      return ok({ id }, '认证申请已提交，请等待审核（1–3 个工作日）');
    },
  );

  app.get(
    `${BASE}/authorization-template`,
    {
      ...canManage,
      schema: {
        tags,
        summary: '下载授权委托书模板（.docx，已知的企业名称与统一社会信用代码已填入）',
        produces: [AUTHORIZATION_TEMPLATE_MIME],
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: AUTHORIZATION_TEMPLATE_MIME }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const enterprise = await certifications.enterprise(callerEnterprise(callerOf(request)));
      if (!enterprise) throw new NotFoundError('企业不存在');
      const site = await app.siteRepository.siteInfo();
      reply.type(AUTHORIZATION_TEMPLATE_MIME).header('content-disposition', attachment('授权委托书.docx', 'authorization-letter.docx'));
      return authorizationLetter({
        platform: site.name || 'Engineering e+ 工业互联网平台',
        enterpriseName: enterprise.name,
        creditCode: enterprise.credit_code ?? '',
        legalRepresentative: enterprise.legal_representative,
      });
    },
  );
};

export default certificationRoutes;
