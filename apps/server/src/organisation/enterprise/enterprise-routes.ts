import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CertificationMessage,
  type EnterpriseProfile,
  EnterpriseProfileBodySchema,
  EnterpriseProfileSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { EnterpriseRepository } from './enterprise-repository.js';
import { callerOf } from '../../identity/portal-auth/auth.js';

const tags = ['enterprise'];
const PATH = `${ApiPrefix.console}/enterprise/profile`;
/** The caller's own enterprise: the profile has no id to ask for, so no other enterprise's is reachable. */
function ownEnterprise(request: FastifyRequest): number {
  const enterpriseId = request.principal?.profile.enterpriseId;
  if (enterpriseId === null || enterpriseId === undefined) throw new BadRequestError(CertificationMessage.noEnterprise);
  return enterpriseId;
}

const mayEdit = (request: FastifyRequest) => request.principal?.profile.authorities.includes(Authority.EnterpriseManage) ?? false;

/**
 * 企业信息: every member of an enterprise reads its profile (authority enterprise); its
 * administrators (enterprise:manage) edit it. Certification (organisation/certification) submits the
 * name and credit code for review; the rules of a save are in enterprise-service.ts.
 */
const enterpriseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const enterprises = app.enterpriseRepository;

  app.get(
    PATH,
    {
      onRequest: app.requireAuthority(Authority.Enterprise),
      schema: {
        tags,
        summary: '本企业的企业信息（editable：当前账号可编辑）',
        response: { 200: Envelope(EnterpriseProfileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const profile = await enterprises.profile(ownEnterprise(request));
      if (!profile) throw new NotFoundError('企业不存在');
      return ok<EnterpriseProfile>({ ...profile, editable: mayEdit(request) });
    },
  );

  app.put(
    PATH,
    {
      onRequest: app.requireAuthority(Authority.EnterpriseManage),
      config: { auditAction: 'enterprise.profile' },
      schema: {
        tags,
        summary: '保存企业信息（待审核或已认证时企业名称与统一社会信用代码不可修改）',
        body: EnterpriseProfileBodySchema,
        response: { 200: Envelope(EnterpriseProfileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const saved = await app.enterpriseService.saveProfile(callerOf(request), ownEnterprise(request), request.body);
      return ok<EnterpriseProfile>({ ...EnterpriseRepository.profileOf(saved), editable: true }, '企业信息已保存');
    },
  );
};

export default enterpriseRoutes;
