import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Authority, CertificationMessage, EnterpriseRules, CertificationStateSchema, CertificationSubmitBodySchema } from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { attachment } from '../../platform/audit/audit-csv.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { AUTHORIZATION_TEMPLATE_MIME, authorizationLetter } from './authorization-template.js';

const tags = ['enterprise'];
const BASE = '/web-api/console/v1/enterprise/certification';

const check = (message: string | undefined) => {
  if (message) throw new BadRequestError(message);
};

/**
 * 企业认证, the applicant's side: the enterprise's status and its applications (the
 * timeline), a new application with the materials uploaded before (certification-file-routes.ts),
 * and the authorisation letter template for an agent.
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
      const withFiles = request.principal!.profile.authorities.includes(Authority.EnterpriseManage);
      const state = await certifications.state(callerEnterprise(request), withFiles);
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
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const b = request.body;
      await certifications.assertMayApply(enterpriseId);
      const enterpriseName = b.enterpriseName.trim();
      const creditCode = b.creditCode.trim();
      const legalRepresentative = b.legalRepresentative.trim();
      check(EnterpriseRules.name(enterpriseName));
      check(EnterpriseRules.creditCode(creditCode));
      check(EnterpriseRules.legalRepresentative(legalRepresentative));
      if (!b.licenceFileId) throw new BadRequestError(CertificationMessage.licenceRequired);
      const authorizationFileId = b.applicantRole === 'agent' ? (b.authorizationFileId ?? 0) : 0;
      if (b.applicantRole === 'agent' && !authorizationFileId) throw new BadRequestError(CertificationMessage.authorizationRequired);
      if (!b.declaration) throw new BadRequestError(CertificationMessage.declarationRequired);
      // Materials are the enterprise's own uploads for their purpose: another's ids are as good as missing.
      const files = app.privateFileRepository;
      if (!(await files.isOwn(enterpriseId, b.licenceFileId, 'licence'))) throw new BadRequestError(CertificationMessage.fileMissing);
      if (authorizationFileId && !(await files.isOwn(enterpriseId, authorizationFileId, 'authorization'))) {
        throw new BadRequestError(CertificationMessage.fileMissing);
      }
      const id = await certifications.submit(
        {
          enterpriseId,
          applicantId: request.principal!.accountId,
          enterpriseName,
          creditCode,
          legalRepresentative,
          applicantRole: b.applicantRole,
          licenceFileId: b.licenceFileId,
          authorizationFileId: authorizationFileId || null,
        },
        async (trx) => {
          await auditRequest(trx, request, 'certification.submit', `${enterpriseName} ${creditCode}`);
          // Reviewers learn of the new application in 消息中心 (the queue shows it too).
          const reviewers = await app.accountRepository.holders(Authority.Certification, null, trx);
          await app.notifications.notify(trx, reviewers, {
            kind: 'certification',
            title: '新的企业认证申请',
            content: `${enterpriseName}（${creditCode}）提交了企业认证申请，请在认证审核中处理。`,
            link: '/console/certification',
          });
        },
      );
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
      const enterprise = await certifications.enterprise(callerEnterprise(request));
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
