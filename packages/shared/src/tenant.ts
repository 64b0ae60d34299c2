import type { Static } from 'typebox';
import type {
  AccountCreateBodySchema,
  AccountGroupBodySchema,
  AccountGroupMemberRowSchema,
  AccountGroupRowSchema,
  AccountImportResultSchema,
  AccountRowSchema,
  AccountUpdateBodySchema,
  ImportRowMessageSchema,
  JoinRequestRowSchema,
  NamedRefSchema,
  OrgOptionsSchema,
  RoleCreateBodySchema,
  RoleRowSchema,
  RoleUpdateBodySchema,
  TenantCreateBodySchema,
  TenantRowSchema,
} from './contracts/tenant.js';
import { Authority, EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN, Role, SMS_PHONE_PATTERN } from './auth.js';

/**
 * Tenant administration (组织与账号, 租户管理): the field rules and Chinese messages the console checks
 * before sending and the server checks again, the authorities a tenant may grant, and the shapes of
 * the console calls. One definition for both sides.
 */

/** Usernames: 3–32 letters, digits or `_`, starting with a letter (so a username is never a phone number). */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{2,31}$/;
/** Mainland mobile numbers (the SMS rule of spec section 5). */
export const PHONE_PATTERN = SMS_PHONE_PATTERN;
/** A custom role's code: `ROLE_` and upper-case letters, digits or `_`, starting with a letter. */
export const ROLE_CODE_PATTERN = /^ROLE_[A-Z][A-Z0-9_]{0,58}$/;
/** Names (person, group, role): at most this many characters. */
export const NAME_MAX = 32;
export const EMAIL_MAX = 100;
export const DESCRIPTION_MAX = 200;
/** Most rows one account import takes. */
export const ACCOUNT_IMPORT_MAX_ROWS = 2000;
/**
 * Most rows of one import that get a random initial password by SMS: each needs its own password hash
 * and message, and the import answers only once they are sent.
 */
export const ACCOUNT_IMPORT_SMS_MAX_ROWS = 200;
/** Most rows one account export writes. */
export const ACCOUNT_EXPORT_MAX_ROWS = 50_000;

export const TenantMessage = {
  usernameRequired: '请输入账号',
  usernameInvalid: '账号为 3-32 位字母、数字或下划线，以字母开头',
  nameRequired: '请输入姓名',
  nameTooLong: `姓名最多${NAME_MAX}个字符`,
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的手机号',
  emailInvalid: '请输入正确的邮箱地址',
  emailTooLong: `邮箱最多${EMAIL_MAX}个字符`,
  passwordRequired: '请输入初始密码',
  passwordTooShort: `密码至少${PASSWORD_MIN}位`,
  passwordTooLong: `密码最多${PASSWORD_MAX}个字符`,
  groupNameRequired: '请输入账号组名称',
  groupNameTooLong: `账号组名称最多${NAME_MAX}个字符`,
  roleNameRequired: '请输入角色名称',
  roleNameTooLong: `角色名称最多${NAME_MAX}个字符`,
  roleCodeRequired: '请输入角色编码',
  roleCodeInvalid: '角色编码为 ROLE_ 加大写字母、数字或下划线，如 ROLE_QUALITY',
  descriptionTooLong: `描述最多${DESCRIPTION_MAX}个字符`,
  authorityUnknown: '包含不可授予的权限',
  usernameTaken: '账号已存在',
  phoneTaken: '手机号已被使用',
  groupNameTaken: '账号组名称已存在',
  roleCodeTaken: '角色编码已存在',
  roleNameTaken: '角色名称已存在',
} as const;

const length = (text: string) => [...text].length;

/**
 * One rule per field: the message for a bad value, or undefined. The console's form rules and the
 * server's checks both call these.
 */
export const TenantRules = {
  username(value: string): string | undefined {
    if (!value) return TenantMessage.usernameRequired;
    return USERNAME_PATTERN.test(value) ? undefined : TenantMessage.usernameInvalid;
  },
  personName(value: string): string | undefined {
    if (!value.trim()) return TenantMessage.nameRequired;
    return length(value) > NAME_MAX ? TenantMessage.nameTooLong : undefined;
  },
  phone(value: string): string | undefined {
    if (!value) return TenantMessage.phoneRequired;
    return PHONE_PATTERN.test(value) ? undefined : TenantMessage.phoneInvalid;
  },
  /** Optional: empty is fine. */
  email(value: string): string | undefined {
    if (!value) return undefined;
    if (length(value) > EMAIL_MAX) return TenantMessage.emailTooLong;
    return EMAIL_PATTERN.test(value) ? undefined : TenantMessage.emailInvalid;
  },
  /** The spec's password rule (section 9: 6 to 18 characters). */
  password(value: string): string | undefined {
    if (!value) return TenantMessage.passwordRequired;
    if (length(value) < PASSWORD_MIN) return TenantMessage.passwordTooShort;
    return length(value) > PASSWORD_MAX ? TenantMessage.passwordTooLong : undefined;
  },
  groupName(value: string): string | undefined {
    if (!value.trim()) return TenantMessage.groupNameRequired;
    return length(value) > NAME_MAX ? TenantMessage.groupNameTooLong : undefined;
  },
  roleName(value: string): string | undefined {
    if (!value.trim()) return TenantMessage.roleNameRequired;
    return length(value) > NAME_MAX ? TenantMessage.roleNameTooLong : undefined;
  },
  roleCode(value: string): string | undefined {
    if (!value) return TenantMessage.roleCodeRequired;
    return ROLE_CODE_PATTERN.test(value) ? undefined : TenantMessage.roleCodeInvalid;
  },
  description(value: string): string | undefined {
    return length(value) > DESCRIPTION_MAX ? TenantMessage.descriptionTooLong : undefined;
  },
} as const;

/** The system roles an enterprise sees (read-only in 角色管理), in display order. */
export const TENANT_SYSTEM_ROLES = [Role.EnterpriseAdmin, Role.EnterpriseStaff, Role.ServiceCustomerEmployee] as const;

export interface AuthorityNode {
  code: string;
  title: string;
  children?: AuthorityNode[];
}

/**
 * The authorities an enterprise may grant to its custom roles, as the tree 角色管理 shows. Platform
 * codes (content, tenants, identifier and audit views across enterprises) are never in it.
 */
export const TENANT_AUTHORITY_TREE: AuthorityNode[] = [
  { code: Authority.Dashboard, title: '工作台' },
  { code: Authority.Message, title: '消息中心' },
  { code: Authority.Enterprise, title: '企业信息', children: [{ code: Authority.EnterpriseManage, title: '编辑企业信息、申请企业认证' }] },
  {
    code: Authority.Org,
    title: '组织与账号',
    children: [
      { code: Authority.OrgAccount, title: '账号管理' },
      { code: Authority.OrgGroup, title: '账号组' },
      { code: Authority.OrgRole, title: '角色管理' },
    ],
  },
  {
    code: Authority.Identifier,
    title: '标识管理',
    children: [
      { code: Authority.IdentifierTemplate, title: '前缀与模板' },
      { code: Authority.IdentifierRecord, title: '标识记录（查看、新增、编辑）' },
      { code: Authority.IdentifierRecordManage, title: '标识记录（删除、导入）' },
      { code: Authority.IdentifierStats, title: '标识统计' },
    ],
  },
  {
    code: Authority.App,
    title: '应用管理',
    children: [
      { code: Authority.AppList, title: '应用列表' },
      { code: Authority.AppMachineClient, title: '机器客户端' },
      { code: Authority.AppAuthorization, title: '应用授权' },
    ],
  },
  {
    code: Authority.Security,
    title: '安全中心',
    children: [
      { code: Authority.SecuritySetting, title: '安全设置' },
      { code: Authority.SecuritySession, title: '在线会话' },
      { code: Authority.SecurityLoginLog, title: '登录日志' },
      { code: Authority.SecurityCompliance, title: '安全合规' },
    ],
  },
  {
    code: Authority.Auth,
    title: '认证与同步',
    children: [
      { code: Authority.AuthSource, title: '认证源' },
      { code: Authority.AuthSync, title: '同步' },
    ],
  },
  { code: Authority.Statistics, title: '统计分析' },
  { code: Authority.Audit, title: '操作日志' },
];

function flatten(nodes: readonly AuthorityNode[]): string[] {
  return nodes.flatMap((n) => [n.code, ...flatten(n.children ?? [])]);
}

/** Every code of TENANT_AUTHORITY_TREE. */
export const TENANT_GRANTABLE_AUTHORITIES: readonly string[] = flatten(TENANT_AUTHORITY_TREE);

export const isTenantGrantable = (code: string) => TENANT_GRANTABLE_AUTHORITIES.includes(code);

function parentsOf(nodes: readonly AuthorityNode[], parent: string | undefined, into: Map<string, string>): Map<string, string> {
  for (const n of nodes) {
    if (parent) into.set(n.code, parent);
    parentsOf(n.children ?? [], n.code, into);
  }
  return into;
}
const TENANT_AUTHORITY_PARENTS = parentsOf(TENANT_AUTHORITY_TREE, undefined, new Map());

/**
 * The authorities a custom role grants for the codes picked in the tree: each code with its parents
 * (a page's menu sits under its parent's, which the menu shows only to holders of the parent code),
 * sorted, without duplicates.
 */
export function withTenantParents(codes: readonly string[]): string[] {
  const granted = new Set<string>();
  for (const code of codes) {
    for (let c: string | undefined = code; c; c = TENANT_AUTHORITY_PARENTS.get(c)) granted.add(c);
  }
  return [...granted].sort();
}

/** 账号管理's 状态 filter and column: 锁定 is an active account whose password failures locked it. */
export type AccountState = 'active' | 'disabled' | 'locked';
export const ACCOUNT_STATE_LABELS: Record<AccountState, string> = { active: '正常', disabled: '停用', locked: '锁定' };

/** 新增 and 重置密码: an initial password typed by the administrator, or a random one sent by SMS. */
export type PasswordMode = 'manual' | 'sms';

export type NamedRef = Static<typeof NamedRefSchema>;

/** `GET /web-api/console/v1/org/options`: the groups, and the roles (the 3 tenant system roles, then the enterprise's own). */
export type OrgOptions = Static<typeof OrgOptionsSchema>;

/** A row of `GET /web-api/console/v1/account/page/list`. */
export type AccountRow = Static<typeof AccountRowSchema>;

/** Body of 新增 (`POST /web-api/console/v1/account`). */
export type AccountCreateBody = Static<typeof AccountCreateBodySchema>;

/** A row of an import's answer: its line in the file (the header is line 1) and what happened to it. */
export type ImportRowMessage = Static<typeof ImportRowMessageSchema>;

/**
 * The answer of 导入 (`POST /web-api/console/v1/account/import`). All or nothing: with any bad row,
 * `imported` is 0 and `errors` lists them. Rows without 初始密码 get a random one by SMS after the
 * accounts are written; a message that could not be sent is listed in `smsFailed` (that account
 * exists, and 重置密码 sends it a new one).
 */
export type AccountImportResult = Static<typeof AccountImportResultSchema>;

/** Body of 编辑 (`PUT /web-api/console/v1/account/{id}`): the username never changes. */
export type AccountUpdateBody = Static<typeof AccountUpdateBodySchema>;

/** Body of 新建 and 编辑 of 账号组 (`POST /web-api/console/v1/account-group`, `PUT …/account-group/{id}`). */
export type AccountGroupBody = Static<typeof AccountGroupBodySchema>;

/** A member of an account group (`GET …/account-group/{id}/members`), or a candidate to add (`…/candidates`). */
export type AccountGroupMemberRow = Static<typeof AccountGroupMemberRowSchema>;

export type AccountGroupRow = Static<typeof AccountGroupRowSchema>;

export type RoleRow = Static<typeof RoleRowSchema>;

/** Body of 新建 of 角色管理 (`POST /web-api/console/v1/role`); 编辑 sends the same without the code, which never changes. */
export type RoleCreateBody = Static<typeof RoleCreateBodySchema>;
export type RoleUpdateBody = Static<typeof RoleUpdateBodySchema>;

export type JoinRequestStatus = 'pending' | 'approved' | 'rejected';
export const JOIN_REQUEST_STATUS_LABELS: Record<JoinRequestStatus, string> = { pending: '待审批', approved: '已通过', rejected: '已拒绝' };

export type JoinRequestRow = Static<typeof JoinRequestRowSchema>;

export type EnterpriseStatus = 'active' | 'disabled';
export const ENTERPRISE_STATUS_LABELS: Record<EnterpriseStatus, string> = { active: '正常', disabled: '停用' };

/** A row of 租户管理 (`GET /web-api/console/v1/tenant/page/list`). */
export type TenantRow = Static<typeof TenantRowSchema>;

/**
 * Body of 新建企业 in 租户管理 (`POST /web-api/console/v1/tenant`, operators): the enterprise (name and
 * 统一社会信用代码, checked by `EnterpriseRules` as certification checks them) and its first
 * administrator (checked by `TenantRules`), whose random initial password goes out by SMS.
 */
export type TenantCreateBody = Static<typeof TenantCreateBodySchema>;
