import { Type } from 'typebox';
import { CertificationStatusSchema } from './certification.js';

/** The console bodies of 组织与账号 (账号管理, 账号组, 角色管理, 加入申请) and 租户管理: the source of the types in tenant.ts. */

export const NamedRefSchema = Type.Object({ id: Type.Integer(), name: Type.String() });
export const RoleRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() });
export const AccountStateSchema = Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('locked')]);
const Keyword = Type.Optional(Type.String({ maxLength: 64 }));

/** `GET /web-api/console/v1/org/options`. */
export const OrgOptionsSchema = Type.Object({
  groups: Type.Array(NamedRefSchema),
  roles: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() })),
});

// ----- 账号管理

export const AccountRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  groups: Type.Array(NamedRefSchema),
  roles: Type.Array(RoleRefSchema, { description: '账号自身的角色（不含账号组的角色）' }),
  state: AccountStateSchema,
  lastLoginAt: Type.String({ description: '最近登录（中国时间），从未登录为空' }),
  createdAt: Type.String(),
  self: Type.Boolean({ description: '是否为当前登录账号' }),
});
/** The list's filters, which the export honours too. */
export const AccountFilterFields = {
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '账号、姓名或手机号（包含）' })),
  state: Type.Optional(Type.Union([AccountStateSchema, Type.Literal('')])),
  groupId: Type.Optional(Type.Integer({ minimum: 1 })),
  roleId: Type.Optional(Type.Integer({ minimum: 1, description: '直接或通过账号组拥有该角色' })),
};
export const AccountFilterQuerySchema = Type.Object(AccountFilterFields);
export const AccountPageQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  ...AccountFilterFields,
});
const PasswordFields = {
  passwordMode: Type.Union([Type.Literal('manual'), Type.Literal('sms')]),
  password: Type.Optional(Type.String({ maxLength: 1024, description: '手动设置时：与修改密码相同方式加密（RSA-OAEP SHA-256，base64）' })),
};
/** Body of 重置密码. */
export const AccountPasswordBodySchema = Type.Object(PasswordFields);
const RefIds = (max: number) => Type.Array(Type.Integer({ minimum: 1 }), { maxItems: max });
const EditableFields = {
  name: Type.String({ maxLength: 64 }),
  phone: Type.String({ maxLength: 32 }),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  groupIds: RefIds(100),
  roleIds: RefIds(100),
};
export const AccountCreateBodySchema = Type.Object({ username: Type.String({ maxLength: 64 }), ...EditableFields, ...PasswordFields });
export const AccountUpdateBodySchema = Type.Object(EditableFields);
export const ImportRowMessageSchema = Type.Object({ line: Type.Integer(), message: Type.String() });
/** Body of 停用 / 启用. */
export const AccountStatusBodySchema = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]) });
/** `GET /web-api/console/v1/account/import/template` query. */
export const AccountImportTemplateQuerySchema = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'xlsx' }),
});
export const AccountImportResultSchema = Type.Object({
  total: Type.Integer(),
  imported: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(ImportRowMessageSchema),
  smsSent: Type.Integer({ description: '未填初始密码的行：随机密码已短信发送的个数' }),
  smsFailed: Type.Array(ImportRowMessageSchema, { description: '已导入但随机密码短信发送失败的行（可对其重置密码）' }),
});

// ----- 账号组

export const AccountGroupRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  memberCount: Type.Integer(),
  roles: Type.Array(RoleRefSchema),
  createdAt: Type.String(),
});
export const AccountGroupMemberRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  state: Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('locked')]),
});
export const AccountGroupBodySchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  roleIds: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100, description: '授予组内成员的角色' }),
});
/** The group list's and a group's member list's query (keyword: name, or username, name or phone). */
export const AccountGroupQuerySchema = Type.Object({
  keyword: Keyword,
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
/** `GET /web-api/console/v1/account-group/:id/candidates` query. */
export const AccountGroupCandidateQuerySchema = Type.Object({
  keyword: Keyword,
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export const AccountGroupMemberParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }), accountId: Type.Integer({ minimum: 1 }) });
/** Body of 添加成员. */
export const AccountGroupMembersBodySchema = Type.Object({
  accountIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
});

// ----- 角色管理

export const RoleRowSchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  system: Type.Boolean({ description: '系统角色（只读）' }),
  authorities: Type.Array(Type.String()),
  accountCount: Type.Integer({ description: '直接或通过账号组持有该角色的账号数' }),
});
const RoleFields = {
  name: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  authorities: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description: '可授予的权限编码（TENANT_AUTHORITY_TREE）' }),
};
export const RoleCreateBodySchema = Type.Object({ code: Type.String({ maxLength: 200 }), ...RoleFields });
export const RoleUpdateBodySchema = Type.Object(RoleFields);

// ----- 邀请成员

export const InvitationBodySchema = Type.Object({ phone: Type.String({ maxLength: 32 }) });

// ----- 加入申请

export const JoinRequestStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
export const JoinRequestRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  status: JoinRequestStatusSchema,
  createdAt: Type.String(),
});
export const JoinRequestQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([JoinRequestStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

// ----- 租户管理

export const EnterpriseStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);
export const TenantRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  certificationStatus: CertificationStatusSchema,
  status: EnterpriseStatusSchema,
  accountCount: Type.Integer({ description: '账号数（不含已删除）' }),
  admins: Type.Array(Type.String(), { description: '启用的企业管理员姓名' }),
  createdAt: Type.String(),
});
export const TenantQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.Union([EnterpriseStatusSchema, Type.Literal('')])),
  certificationStatus: Type.Optional(Type.Union([CertificationStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
export const TenantCreateBodySchema = Type.Object({
  name: Type.String({ maxLength: 400, description: '企业名称' }),
  creditCode: Type.String({ maxLength: 72, description: '统一社会信用代码（18 位，含校验位）' }),
  adminName: Type.String({ maxLength: 128, description: '首个管理员的姓名' }),
  adminUsername: Type.String({ maxLength: 64, description: '首个管理员的账号' }),
  adminPhone: Type.String({ maxLength: 32, description: '首个管理员的手机号：随机初始密码以短信发送到此号码' }),
});
export const TenantStatusBodySchema = Type.Object({ status: EnterpriseStatusSchema });
