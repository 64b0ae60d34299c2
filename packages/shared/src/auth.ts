import type { Static } from 'typebox';
import type {
  PasswordChangeBodySchema,
  MyTwoFactorSchema,
  PasswordTransportKeySchema,
  PortalAppMenuSchema,
  PortalMenuEntrySchema,
  PortalUserSchema,
  ReauthBodySchema,
  RecoveryCodesSchema,
} from './contracts/auth.js';

/** Role codes: Spring-style authorities with the ROLE_ prefix, returned in the menus' `authorities`. */
export const Role = {
  PlatformOperator: 'ROLE_PLATFORM_OPERATOR',
  EnterpriseAdmin: 'ROLE_ENTERPRISE_ADMIN',
  EnterpriseStaff: 'ROLE_ENTERPRISE_STAFF',
  /** Spec section 6: a restricted kind of staff; the header hides the console button for it. */
  ServiceCustomerEmployee: 'ROLE_SERVICE_CUSTOMER_EMPLOYEE',
  /** 认证审核员: platform staff who review enterprise certifications, like a secondary node's 实名审核. */
  CertificationReviewer: 'ROLE_CERTIFICATION_REVIEWER',
} as const;
export type RoleCode = (typeof Role)[keyof typeof Role];

/** Authority codes of console menus and server routes (the server enforces the same codes). */
export const Authority = {
  Dashboard: 'dashboard',
  Content: 'content',
  ContentCategory: 'content:category',
  ContentArticle: 'content:article',
  ContentRecommend: 'content:recommend',
  ContentHome: 'content:home',
  /** 开放服务: the open-service centre's six developer tools (operators). */
  ContentOpenService: 'content:open-service',
  Identifier: 'identifier',
  IdentifierTemplate: 'identifier:template',
  IdentifierRecord: 'identifier:record',
  /** Deleting and importing identifier records (bulk changes), apart from viewing and editing them. */
  IdentifierRecordManage: 'identifier:record:manage',
  IdentifierAll: 'identifier:all-enterprises',
  /** 标识统计: lookups of the enterprise's prefixes; with identifier:all-enterprises the whole node (运营统计). */
  IdentifierStats: 'identifier:stats',
  Audit: 'audit',
  AuditAll: 'audit:all-enterprises',
  /** 组织与账号 (an enterprise's own people). */
  Org: 'org',
  OrgAccount: 'org:account',
  OrgGroup: 'org:group',
  OrgRole: 'org:role',
  /** 租户管理 (platform operators). */
  Tenant: 'tenant',
  /** 应用管理: the enterprise's applications on single sign-on and who may use them. */
  App: 'app',
  AppList: 'app:list',
  AppAuthorization: 'app:authorization',
  /** 机器客户端: the enterprise's own systems calling its APIs with client_credentials tokens. */
  AppMachineClient: 'app:machine-client',
  /** 应用订阅: operators decide the enterprises' requests to use application-center applications. */
  AppSubscription: 'app:subscription',
  /** 安全中心: security settings, live sessions, login log. */
  Security: 'security',
  SecuritySetting: 'security:setting',
  SecuritySession: 'security:session',
  SecurityLoginLog: 'security:login-log',
  /** 安全合规: the enterprise's settings against 等保三级 and ASVS, with the evidence pack. */
  SecurityCompliance: 'security:compliance',
  /** 认证与同步: authentication sources (LDAP/AD, 企业微信, 钉钉, 飞书) and directory sync. */
  Auth: 'auth',
  AuthSource: 'auth:source',
  AuthSync: 'auth:sync',
  /** 统计分析. */
  Statistics: 'statistics',
  /** 企业信息: members read the profile and the certification status. */
  Enterprise: 'enterprise',
  /** Editing 企业信息 and applying for 企业认证 (its materials are readable only with this). */
  EnterpriseManage: 'enterprise:manage',
  /** 认证审核 (platform reviewers): the queue of certification applications and their materials. */
  Certification: 'certification',
  /** 消息中心 and the navbar's bell. */
  Message: 'message',
} as const;
export type AuthorityCode = (typeof Authority)[keyof typeof Authority];

/** A console route as the menus call returns it (spec section 3, "Menu response item"). */
export interface PortalRouter {
  authCode: string;
  name: string;
  path: string;
  meta: { title: string; icon: string };
  children: PortalRouter[];
}

export type PortalUser = Static<typeof PortalUserSchema>;

/** `GET /web/portal/menu/list` for a logged-in user: `data[0]`. */
// The routers' schema nests by construction (three levels), so its static type is left open: PortalRouter says it.
export type PortalMenuEntry = Omit<Static<typeof PortalMenuEntrySchema>, 'routers'> & { routers: PortalRouter[] };

/** `GET /web/portal/app/menus`: the console's entries in the portal's user menu. */
export type PortalAppMenu = Static<typeof PortalAppMenuSchema>;
/** `GET /web/portal/account/public-key`: the server's RSA-OAEP key for passwords in transit. */
export type PasswordTransportKey = Static<typeof PasswordTransportKeySchema>;
/** `PUT /web/portal/account/password`: the three fields, already encrypted. */
export type PasswordChangeBody = Static<typeof PasswordChangeBodySchema>;
/** `POST /web/portal/account/reauth`: the encrypted password or a code. */
export type ReauthBody = Static<typeof ReauthBodySchema>;
export type MyTwoFactor = Static<typeof MyTwoFactorSchema>;
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;

/** Registration rules (spec section 5), shared by the dialog and the server. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 18;
/** The registration form's phone rule: 1, then 3/4/5/7/8/9, then 9 digits. */
export const REGISTER_PHONE_PATTERN = /^1[345789]\d{9}$/;
/** The SMS button accepts 3 to 9 as the second digit. */
export const SMS_PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const SMS_CODE_PATTERN = /^\d{6}$/;

/** Chinese messages of the registration table (spec section 5), identical on both sides. */
export const RegisterMessage = {
  usernameRequired: '请输入用户名',
  emailInvalid: '请输入正确的邮箱地址',
  passwordRequired: '请输入密码',
  passwordTooShort: '请输入至少6位密码',
  passwordTooLong: '密码最多18个字符',
  confirmRequired: '请确认密码',
  confirmMismatch: '两次输入的密码不一致',
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的手机号',
  smsCodeRequired: '请输入验证码',
} as const;

/**
 * 验证身份 before a sensitive change (ResponseCode.ReauthRequired) and 退出其他设备: the texts both
 * sides show.
 */
export const ReauthMessage = {
  required: '请先验证身份',
  proofRequired: '请输入当前密码或动态验证码',
  wrongPassword: '密码错误',
  verified: '身份已验证',
  signedOutElsewhere: '已退出其他设备',
  /** After 修改密码: the server has already ended the account's other sessions (safer than offering it). */
  passwordChanged: '其他设备上的登录已全部退出',
  /** Shown in 修改密码 before it is saved. */
  passwordChangeNote: '修改成功后，其他设备上的登录将全部退出',
} as const;

/** Spec section 5, "Change password": the dialog's messages, also used by the central login's password change. */
export const PasswordChangeMessage = {
  oldRequired: '请输入原密码',
  newRequired: '请输入密码',
  confirmRequired: '请再次输入密码',
  confirmMismatch: '两次输入密码不一致',
  sameAsOld: '新密码不能与原密码相同',
} as const;
