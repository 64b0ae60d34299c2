import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  CertificationMessage,
  type EnterpriseProfile,
  EnterpriseMessage,
  EnterpriseRules,
  EnterpriseProfileSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import {
  type EnterpriseProfileInput,
  type EnterpriseRecord,
  EnterpriseRepository,
  certifiedFieldsLocked,
} from './enterprise-repository.js';
import { isRegionCode } from './regions.js';

const tags = ['enterprise'];
const PATH = '/web-api/console/v1/enterprise/profile';
/** The logo column's length. */
const LOGO_MAX = 200;

// Lengths here only bound the request; the field rules (EnterpriseRules) answer with their own messages.
const EnterpriseProfileBody = Type.Object({
  name: Type.String({ maxLength: 400 }),
  creditCode: Type.String({ maxLength: 72 }),
  legalRepresentative: Type.String({ maxLength: 128 }),
  address: Type.String({ maxLength: 800 }),
  industryCode: Type.String({ maxLength: 8 }),
  regionCode: Type.String({ maxLength: 12 }),
  contactName: Type.String({ maxLength: 128 }),
  contactPhone: Type.String({ maxLength: 80 }),
  introduction: Type.String({ maxLength: 8000 }),
  logo: Type.String({ maxLength: 2000 }),
});
type Body = Static<typeof EnterpriseProfileBody>;

/** Names of the fields in the audit log's detail (what a save changed). */
const FIELD_NAMES: Record<keyof EnterpriseProfileInput, string> = {
  name: '企业名称',
  creditCode: '统一社会信用代码',
  legalRepresentative: '法定代表人',
  address: '注册地址',
  industryCode: '所属行业',
  regionCode: '所在地区',
  contactName: '联系人',
  contactPhone: '联系电话',
  introduction: '企业简介',
  logo: '企业 Logo',
};

/** The caller's own enterprise: the profile has no id to ask for, so no other enterprise's is reachable. */
function ownEnterprise(request: FastifyRequest): number {
  const enterpriseId = request.principal?.profile.enterpriseId;
  if (enterpriseId === null || enterpriseId === undefined) throw new BadRequestError(CertificationMessage.noEnterprise);
  return enterpriseId;
}

const mayEdit = (request: FastifyRequest) => request.principal?.profile.authorities.includes(Authority.EnterpriseManage) ?? false;

/**
 * The body checked by the shared rules against the stored profile. While an application is pending or
 * the enterprise is certified, the name and credit code are the reviewed ones: unchanged they pass as
 * they are, changed they are refused; otherwise a credit code may still be left empty (stored as null).
 */
function inputOf(body: Body, current: EnterpriseRecord): EnterpriseProfileInput {
  const input: EnterpriseProfileInput = {
    name: body.name.trim(),
    creditCode: body.creditCode.trim() || null,
    legalRepresentative: body.legalRepresentative.trim(),
    address: body.address.trim(),
    industryCode: body.industryCode.trim(),
    regionCode: body.regionCode.trim(),
    contactName: body.contactName.trim(),
    contactPhone: body.contactPhone.trim(),
    introduction: body.introduction.trim(),
    logo: '',
  };
  const locked = certifiedFieldsLocked(current.certificationStatus);
  if (locked && (input.name !== current.name || input.creditCode !== current.creditCode)) {
    throw new BadRequestError(EnterpriseMessage.certifiedFieldsLocked);
  }
  const problem =
    (locked
      ? undefined
      : (EnterpriseRules.name(input.name) ?? (input.creditCode ? EnterpriseRules.creditCode(input.creditCode) : undefined))) ??
    EnterpriseRules.legalRepresentative(input.legalRepresentative) ??
    EnterpriseRules.address(input.address) ??
    EnterpriseRules.industry(input.industryCode) ??
    (input.regionCode && !isRegionCode(input.regionCode) ? EnterpriseMessage.regionInvalid : undefined) ??
    EnterpriseRules.contactName(input.contactName) ??
    EnterpriseRules.contactPhone(input.contactPhone) ??
    EnterpriseRules.introduction(input.introduction);
  if (problem) throw new BadRequestError(problem);
  // An image uploaded here (POST /web-api/files/v1/upload answers its path), never another site's address.
  const logo = checkedImagePath(body.logo, EnterpriseMessage.logoInvalid) ?? '';
  if (/^https?:/i.test(logo) || logo.length > LOGO_MAX) throw new BadRequestError(EnterpriseMessage.logoInvalid);
  return { ...input, logo };
}

/**
 * 企业信息: every member of an enterprise reads its profile (authority enterprise); its
 * administrators (enterprise:manage) edit it. Certification (organisation/certification) submits the
 * name and credit code for review.
 */
const enterpriseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
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
        body: EnterpriseProfileBody,
        response: { 200: Envelope(EnterpriseProfileSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = ownEnterprise(request);
      let saved: EnterpriseRecord | undefined;
      try {
        saved = await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          const current = await enterprises.record(enterpriseId, trx);
          if (!current) throw new NotFoundError('企业不存在');
          const input = inputOf(request.body, current);
          if (input.name !== current.name && (await enterprises.nameTaken(input.name, enterpriseId, trx))) {
            throw new BadRequestError(EnterpriseMessage.nameTaken);
          }
          if (
            input.creditCode &&
            input.creditCode !== current.creditCode &&
            (await enterprises.creditCodeTaken(input.creditCode, enterpriseId, trx))
          ) {
            throw new BadRequestError(EnterpriseMessage.creditCodeTaken);
          }
          await enterprises.update(trx, enterpriseId, input);
          const changed = (Object.keys(FIELD_NAMES) as (keyof EnterpriseProfileInput)[]).filter((key) => input[key] !== current[key]);
          const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
          await auditRequest(trx, request, 'enterprise.profile', renamed, 'success', changed.map((key) => FIELD_NAMES[key]).join('、'));
          return { ...current, ...input };
        });
      } catch (err) {
        // Another enterprise took the name or the code between the check and the write.
        if (!isUniqueViolation(err)) throw err;
        const name = request.body.name.trim();
        throw new BadRequestError(
          (await enterprises.nameTaken(name, enterpriseId)) ? EnterpriseMessage.nameTaken : EnterpriseMessage.creditCodeTaken,
        );
      }
      return ok<EnterpriseProfile>({ ...EnterpriseRepository.profileOf(saved), editable: true }, '企业信息已保存');
    },
  );
};

export default enterpriseRoutes;
