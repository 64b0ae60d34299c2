import { EnterpriseMessage, type EnterpriseProfileBody, EnterpriseRules } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { type EnterpriseProfileInput, type EnterpriseRecord, certifiedFieldsLocked } from './enterprise-repository.js';
import { isRegionCode } from './regions.js';

declare module 'fastify' {
  interface FastifyInstance {
    enterpriseService: EnterpriseService;
  }
}

/** The logo column's length. */
const LOGO_MAX = 200;

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

/**
 * The body checked by the shared rules against the stored profile. While an application is pending or
 * the enterprise is certified, the name and credit code are the reviewed ones: unchanged they pass as
 * they are, changed they are refused; otherwise a credit code may still be left empty (stored as null).
 */
function inputOf(body: EnterpriseProfileBody, current: EnterpriseRecord): EnterpriseProfileInput {
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
 * 企业信息's rules: a save is checked against the stored profile (name and credit code locked while
 * reviewed or certified) and commits with its audit row, which names the fields it changed.
 */
export class EnterpriseService {
  constructor(private readonly app: FastifyInstance) {}

  /** Saves the enterprise's profile; answers it as stored. `caller` is who asks (the audit row). */
  async saveProfile(caller: Caller, enterpriseId: number, body: EnterpriseProfileBody): Promise<EnterpriseRecord> {
    const enterprises = this.app.enterpriseRepository;
    try {
      return await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        const current = await enterprises.record(enterpriseId, trx);
        if (!current) throw new NotFoundError('企业不存在');
        const input = inputOf(body, current);
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
        await auditBy(trx, caller, 'enterprise.profile', renamed, 'success', changed.map((key) => FIELD_NAMES[key]).join('、'));
        return { ...current, ...input };
      });
    } catch (err) {
      // Another enterprise took the name or the code between the check and the write.
      if (!isUniqueViolation(err)) throw err;
      const name = body.name.trim();
      throw new BadRequestError(
        (await enterprises.nameTaken(name, enterpriseId)) ? EnterpriseMessage.nameTaken : EnterpriseMessage.creditCodeTaken,
      );
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('enterpriseService', new EnterpriseService(app));
  },
  { name: 'enterprise-service', dependencies: ['enterprise-repository'] },
);
