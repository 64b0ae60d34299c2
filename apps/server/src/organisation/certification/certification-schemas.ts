import { CERTIFICATION_COMMENT_MAX, CERTIFICATION_FILE_TYPES, CERTIFICATION_REJECT_REASONS } from '@portal/shared';
import { Type } from 'typebox';
import { CertificationStatusSchema } from '../../identity/accounts/certification-status.js';

/** TypeBox forms of the shapes in packages/shared/src/enterprise.ts (企业信息, 企业认证, 认证审核). */

export const ApplicationStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
export const ApplicantRoleSchema = Type.Union([Type.Literal('legal'), Type.Literal('agent')], {
  description: 'legal 法定代表人本人 | agent 经办人（需授权书）',
});
export const RejectReasonSchema = Type.Union(
  CERTIFICATION_REJECT_REASONS.map((r) => Type.Literal(r.code)),
  { description: CERTIFICATION_REJECT_REASONS.map((r) => `${r.code} ${r.label}`).join(' | ') },
);
export const FilePurposeSchema = Type.Union([Type.Literal('licence'), Type.Literal('authorization')], {
  description: 'licence 营业执照 | authorization 授权书',
});

export const PrivateFileRefSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: '上传时的文件名' }),
  mime: Type.Union(CERTIFICATION_FILE_TYPES.map((t) => Type.Literal(t))),
  bytes: Type.Integer(),
});

export const CertificationApplicationSchema = Type.Object({
  id: Type.Integer(),
  status: ApplicationStatusSchema,
  enterpriseName: Type.String(),
  creditCode: Type.String(),
  legalRepresentative: Type.String(),
  applicantRole: ApplicantRoleSchema,
  applicantName: Type.String(),
  licence: Type.Union([PrivateFileRefSchema, Type.Null()], { description: '材料仅对本企业管理员与审核员可见，其他人为 null' }),
  authorization: Type.Union([PrivateFileRefSchema, Type.Null()]),
  submittedAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
  reviewerName: Type.String(),
  reasons: Type.Array(RejectReasonSchema),
  comment: Type.String(),
});

export const CertificationStateSchema = Type.Object({
  status: CertificationStatusSchema,
  certifiedAt: Type.Union([Type.String(), Type.Null()]),
  applications: Type.Array(CertificationApplicationSchema, { description: '历次申请，新的在前' }),
});

export const CertificationSubmitBodySchema = Type.Object({
  enterpriseName: Type.String({ maxLength: 200 }),
  creditCode: Type.String({ maxLength: 64 }),
  legalRepresentative: Type.String({ maxLength: 100 }),
  applicantRole: ApplicantRoleSchema,
  licenceFileId: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: '营业执照文件 id' }),
  authorizationFileId: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: '授权书文件 id（经办人必填）' }),
  ),
  declaration: Type.Boolean({ description: '认证声明，须为 true' }),
});

export const CertificationReviewRowSchema = Type.Object({
  id: Type.Integer(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String({ description: '申请时填写的企业名称' }),
  creditCode: Type.String(),
  applicantName: Type.String(),
  applicantPhone: Type.String(),
  status: ApplicationStatusSchema,
  submittedAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
  reviewerName: Type.String(),
});

export const EnterpriseProfileSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  creditCode: Type.String({ description: '统一社会信用代码；空：尚未填写' }),
  legalRepresentative: Type.String(),
  address: Type.String(),
  industryCode: Type.String({ description: '国民经济行业分类大类代码（GB/T 4754，2 位）；空：未选' }),
  industryLabel: Type.String({ description: '如“C 制造业 / 35 专用设备制造业”' }),
  regionCode: Type.String({ description: '城市代码（GB/T 2260，6 位）；空：未选' }),
  regionLabel: Type.String({ description: '如“江苏省 / 徐州市”' }),
  contactName: Type.String(),
  contactPhone: Type.String(),
  introduction: Type.String(),
  logo: Type.String({ description: '/files 下的路径；空：无' }),
  certificationStatus: CertificationStatusSchema,
  certifiedAt: Type.Union([Type.String(), Type.Null()]),
  certifiedFieldsLocked: Type.Boolean({ description: '待审核或已认证：企业名称与统一社会信用代码只能经重新认证修改' }),
  editable: Type.Boolean({ description: '当前账号可编辑（enterprise:manage）' }),
});

export const CertificationReviewDetailSchema = Type.Object({
  application: CertificationApplicationSchema,
  applicantPhone: Type.String(),
  profile: EnterpriseProfileSchema,
  history: Type.Array(CertificationApplicationSchema, { description: '该企业此前的申请，新的在前' }),
});

export const CertificationDecisionBodySchema = Type.Object({
  decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
  reasons: Type.Array(RejectReasonSchema, { maxItems: CERTIFICATION_REJECT_REASONS.length * 2, default: [] }),
  comment: Type.String({ maxLength: CERTIFICATION_COMMENT_MAX * 4, default: '' }),
});
