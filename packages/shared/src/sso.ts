import type { Static } from 'typebox';
import type {
  LoginLogRowSchema,
  LogoutDeliveryRowSchema,
  MyApplicationSchema,
  PasswordRulesAnswerSchema,
  SecurityPolicySchema,
  SessionRowSchema,
  SsoAppGrantsBodySchema,
  SsoAppGrantsSchema,
  SsoApplicationBodySchema,
  SsoApplicationRowSchema,
  StatisticsSchema,
} from './contracts/sso.js';
import type { PageResult } from './response-codes.js';
/**
 * Tenant administration II: applications on single sign-on, app authorization, security
 * settings, sessions and the login log. Shapes of the console calls and the rules both sides check.
 */

/** Attributes an application may receive at ticket validation (CAS 3.0 `<cas:attributes>`). */
export const RELEASABLE_ATTRIBUTES = ['name', 'telephone', 'email', 'enterpriseName', 'number', 'groups', 'roles'] as const;
export type ReleasableAttribute = (typeof RELEASABLE_ATTRIBUTES)[number];
export const ATTRIBUTE_LABELS: Record<ReleasableAttribute, string> = {
  name: '姓名 name',
  telephone: '手机号 telephone',
  email: '邮箱 email',
  enterpriseName: '企业名称 enterpriseName',
  number: '工号 number',
  groups: '账号组 groups',
  roles: '角色 roles',
};

export const SSO_PROTOCOLS = { cas3: 'CAS 3.0' } as const;
export type SsoProtocol = keyof typeof SSO_PROTOCOLS;
export type SsoApplicationStatus = 'enabled' | 'disabled';
export const SSO_APPLICATION_STATUS_LABELS: Record<SsoApplicationStatus, string> = { enabled: '启用', disabled: '停用' };
/** Most service addresses per application. */
export const MAX_SERVICE_PREFIXES = 10;

/** A row of 应用列表 (`GET /web-api/console/v1/sso-app/page/list`) and its detail. */
export type SsoApplicationRow = Static<typeof SsoApplicationRowSchema>;

export type SsoApplicationBody = Static<typeof SsoApplicationBodySchema>;

export type GrantSubjectType = 'group' | 'role' | 'account';
/** 应用授权 of one application (`GET/PUT /web-api/console/v1/sso-app/{id}/grants`). */
export type SsoAppGrants = Static<typeof SsoAppGrantsSchema>;
export type SsoAppGrantsBody = Static<typeof SsoAppGrantsBodySchema>;

/** 我的应用 (`GET /web-api/portal/v1/my-apps`): the applications the user may open, each through the central login. */
export type MyApplication = Static<typeof MyApplicationSchema>;

export type PasswordClass = 'lower' | 'upper' | 'digit' | 'symbol';
export const PASSWORD_CLASS_LABELS: Record<PasswordClass, string> = {
  lower: '小写字母',
  upper: '大写字母',
  digit: '数字',
  symbol: '特殊字符',
};
export type TwoFactorMode = 'off' | 'admins' | 'all';
export const TWO_FACTOR_LABELS: Record<TwoFactorMode, string> = { off: '关闭', admins: '仅管理员', all: '全员' };

/** 安全设置 (`GET/PUT /web-api/console/v1/security/policy`). */
export type SecurityPolicy = Static<typeof SecurityPolicySchema>;
/** `GET /web/portal/account/password-rules`: the caller's enterprise's password rules, with the server's one-line description of them. */
export type PasswordRulesAnswer = Static<typeof PasswordRulesAnswerSchema>;

/** Why a sign-in failed (登录日志's 结果), with the Chinese text the console shows. */
export const LOGIN_FAILURE_REASONS = {
  'bad-password': '密码错误',
  'unknown-account': '账号不存在',
  locked: '账号锁定',
  disabled: '账号停用',
  'enterprise-disabled': '企业停用',
  'not-authorized': '无权访问应用',
  'two-factor-failed': '二次验证失败',
  'password-expired': '密码已过期',
  'source-unavailable': '认证源无法连接',
} as const;
export type LoginFailureReason = keyof typeof LOGIN_FAILURE_REASONS;

/** A row of 登录日志 (`GET /web-api/console/v1/login-log/page/list`). */
export type LoginLogRow = Static<typeof LoginLogRowSchema>;

/** Most rows one 登录日志 CSV export holds (newest first). */
export const LOGIN_LOG_EXPORT_MAX_ROWS = 50_000;

/** A row of 在线会话 (`GET /web-api/console/v1/session/page/list`) and of one's own sessions in 个人信息. */
export type SessionRow = Static<typeof SessionRowSchema>;
export type LogoutDeliveryRow = Static<typeof LogoutDeliveryRowSchema>;
export type LogoutDeliveryPage = PageResult<LogoutDeliveryRow>;

/** 应用列表's field limits. */
export const APP_NAME_MAX = 32;
export const APP_CATEGORY_MAX = 16;
export const APP_DESCRIPTION_MAX = 200;
export const APP_URL_MAX = 500;
/** Hosts whose service addresses may use plain http (development on one's own machine). */
export const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1'];

export const SsoMessage = {
  nameRequired: '请输入应用名称',
  nameTooLong: `应用名称最多${APP_NAME_MAX}个字符`,
  nameTaken: '应用名称已存在',
  categoryTooLong: `分类最多${APP_CATEGORY_MAX}个字符`,
  descriptionTooLong: `描述最多${APP_DESCRIPTION_MAX}个字符`,
  iconInvalid: '应用图标地址格式不正确',
  servicesRequired: '请至少填写一个服务地址',
  servicesTooMany: `服务地址最多${MAX_SERVICE_PREFIXES}个`,
  serviceInvalid: '服务地址须为完整的 http(s) 地址，如 https://app.example.com/',
  serviceTooLong: `服务地址最多${APP_URL_MAX}个字符`,
  serviceWildcard: '服务地址不能使用通配符（*），请逐个填写完整地址',
  serviceHttps: '服务地址须使用 https（仅 localhost 与 127.0.0.1 可使用 http）',
  serviceQuery: '服务地址不能包含查询参数（?）或锚点（#）',
  serviceOtherEnterprise: '服务地址与其他企业的应用重叠，不能使用',
  servicePlatform: '服务地址与门户或平台应用的地址重叠，不能使用',
  logoutUrlInvalid: '注销地址须为完整的 http(s) 地址',
  logoutUrlTooLong: `注销地址最多${APP_URL_MAX}个字符`,
  /** An address the portal will not connect to (its reason: 不允许连接到该地址（回环地址）…). */
  serviceRefused: (url: string, reason: string) => `服务地址 ${url}：${reason}`,
  logoutUrlRefused: (url: string, reason: string) => `注销地址 ${url}：${reason}`,
  attributeUnknown: '返回属性包含不支持的项',
  notFound: '应用不存在',
  platformReadOnly: '平台应用由平台维护，不能修改或删除',
} as const;

/** A service address that overlaps one of another application of the same enterprise. */
export const serviceOverlapsOwn = (appName: string) => `服务地址与本企业应用「${appName}」的服务地址重叠`;

const charCount = (text: string) => [...text].length;
// Browsers drop tab, CR and LF inside URLs and read a backslash as a slash: such an address means something else to them.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const AMBIGUOUS_URL = /[\u0000-\u001f\u007f\\\s]/;

function absoluteHttpUrl(raw: string): URL | undefined {
  if (AMBIGUOUS_URL.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  return url;
}

/**
 * One rule per field of 应用列表 (the console's form and the server both call them): the message for a
 * bad value, or undefined.
 */
export const SsoRules = {
  name(value: string): string | undefined {
    if (!value.trim()) return SsoMessage.nameRequired;
    return charCount(value) > APP_NAME_MAX ? SsoMessage.nameTooLong : undefined;
  },
  category(value: string): string | undefined {
    return charCount(value) > APP_CATEGORY_MAX ? SsoMessage.categoryTooLong : undefined;
  },
  description(value: string): string | undefined {
    return charCount(value) > APP_DESCRIPTION_MAX ? SsoMessage.descriptionTooLong : undefined;
  },
  /**
   * A service address: an absolute http(s) URL prefix (scheme, host, port, path) matched exactly as
   * CAS 3.0 §2.1.1 asks, so no wildcard, query or fragment; https unless the host is this machine.
   */
  servicePrefix(value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return SsoMessage.serviceInvalid;
    if (charCount(raw) > APP_URL_MAX) return SsoMessage.serviceTooLong;
    if (raw.includes('*')) return SsoMessage.serviceWildcard;
    const url = absoluteHttpUrl(raw);
    if (!url) return SsoMessage.serviceInvalid;
    if (raw.includes('?') || raw.includes('#')) return SsoMessage.serviceQuery;
    if (url.protocol !== 'https:' && !LOCAL_HOSTS.includes(url.hostname)) return SsoMessage.serviceHttps;
    return undefined;
  },
  servicePrefixes(values: readonly string[]): string | undefined {
    if (values.length === 0) return SsoMessage.servicesRequired;
    if (values.length > MAX_SERVICE_PREFIXES) return SsoMessage.servicesTooMany;
    for (const value of values) {
      const problem = SsoRules.servicePrefix(value);
      if (problem) return problem;
    }
    return undefined;
  },
  /** Optional (empty: single logout goes to the service address that received the ticket). */
  logoutUrl(value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return undefined;
    if (charCount(raw) > APP_URL_MAX) return SsoMessage.logoutUrlTooLong;
    return absoluteHttpUrl(raw) && !raw.includes('*') ? undefined : SsoMessage.logoutUrlInvalid;
  },
} as const;

/** A valid service address as it is stored and compared (`http://localhost:8081` → `http://localhost:8081/`). */
export function normalizeServicePrefix(value: string): string {
  return new URL(value.trim()).href;
}

/** 统计分析 covers this many China dates, today included. */
export const STATISTICS_DAYS = 30;
/** Applications named one by one in 各应用登录次数; the rest are summed as 其他. */
export const STATISTICS_TOP_APPLICATIONS = 10;

/**
 * 统计分析 (`GET /web-api/console/v1/statistics`): figures of the caller's enterprise only, from its
 * login log and accounts (deleted accounts never count).
 */
export type Statistics = Static<typeof StatisticsSchema>;
