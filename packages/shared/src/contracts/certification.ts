import {
  CERTIFICATION_COMMENT_MAX,
  CERTIFICATION_FILE_TYPES,
  CERTIFICATION_REJECT_REASONS,
  CERTIFICATION_STATUS_LABELS,
  type CertificationStatus,
  NOTIFICATION_KIND_LABELS,
  type NotificationKind,
} from '../enterprise.js';
import { Type } from 'typebox';
import { literals } from './envelope.js';

/** The contracts of 企业信息, 企业认证 and 认证审核: the source of the types in enterprise.ts. */

export const CertificationStatusSchema = literals(Object.keys(CERTIFICATION_STATUS_LABELS) as CertificationStatus[], {
  description: 'none 未认证 | pending 待审核 | certified 已认证 | rejected 已驳回',
});
export const ApplicationStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
export const ApplicantRoleSchema = Type.Union([Type.Literal('legal'), Type.Literal('agent')], {
  description: 'legal 法定代表人本人 | agent 经办人（需授权书）',
});
export const RejectReasonSchema = literals(
  CERTIFICATION_REJECT_REASONS.map((r) => r.code),
  { description: CERTIFICATION_REJECT_REASONS.map((r) => `${r.code} ${r.label}`).join(' | ') },
);
export const FilePurposeSchema = Type.Union([Type.Literal('licence'), Type.Literal('authorization')], {
  description: 'licence 营业执照 | authorization 授权书',
});

export const PrivateFileRefSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: '上传时的文件名' }),
  mime: literals(CERTIFICATION_FILE_TYPES),
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

const ReviewTimeBound = Type.Optional(Type.String({ maxLength: 19, description: 'yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss（中国时间，含）' }));
/** `GET /web-api/console/v1/certification/page/list` query. */
export const CertificationReviewQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([ApplicationStatusSchema, Type.Literal('')])),
  keyword: Type.Optional(Type.String({ maxLength: 100, description: '企业名称或统一社会信用代码（包含）' })),
  filterStartTime: ReviewTimeBound,
  filterEndTime: ReviewTimeBound,
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
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

// Lengths here only bound the request; the field rules (EnterpriseRules) answer with their own messages.
export const EnterpriseProfileBodySchema = Type.Object({
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

/** `GET /web-api/portal/v1/regions`: provinces with their cities. */
export const RegionCitySchema = Type.Object({ code: Type.String({ description: '城市代码（GB/T 2260，6 位）' }), name: Type.String() });
export const RegionProvinceSchema = Type.Object({
  code: Type.String({ description: '省级代码（GB/T 2260，6 位）' }),
  name: Type.String(),
  children: Type.Array(RegionCitySchema),
});

// ----- 消息中心

export const NotificationKindSchema = literals(Object.keys(NOTIFICATION_KIND_LABELS) as NotificationKind[], {
  description: Object.entries(NOTIFICATION_KIND_LABELS)
    .map(([kind, label]) => `${kind} ${label}`)
    .join('，'),
});
export const NotificationRowSchema = Type.Object({
  id: Type.Integer(),
  kind: NotificationKindSchema,
  title: Type.String(),
  content: Type.String(),
  link: Type.String({ description: '控制台内的页面路径（无则为空）' }),
  read: Type.Boolean(),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss（中国时间）' }),
});
/** `GET /web-api/console/v1/notification/page/list` query. */
export const NotificationQuerySchema = Type.Object({
  unread: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('')], { description: '1 仅未读' })),
  kind: Type.Optional(Type.Union([NotificationKindSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

/** `GET /web-api/console/v1/notification/unread-count`: the navbar bell's number. */
export const NotificationUnreadCountSchema = Type.Object({ count: Type.Integer({ minimum: 0 }) });
/** `PUT /web-api/console/v1/notification/:id/read`. */
export const NotificationIdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });

// ----- 申请标识前缀

export const PrefixRequestStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
export const PrefixRequestRowSchema = Type.Object({
  id: Type.Integer(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  prefix: Type.String(),
  purpose: Type.String({ description: '用途说明（通过后作为前缀名称）' }),
  status: PrefixRequestStatusSchema,
  applicantName: Type.String(),
  reviewerName: Type.String(),
  reason: Type.String({ description: '驳回原因' }),
  createdAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
});
export const PrefixRequestQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([PrefixRequestStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export const PrefixRequestBodySchema = Type.Object({ prefix: Type.String({ maxLength: 64 }), purpose: Type.String({ maxLength: 1000 }) });
export const PrefixRequestDecisionBodySchema = Type.Object({
  decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
  reason: Type.String({ maxLength: 1000, default: '' }),
});
