import type { Static } from 'typebox';
import type {
  ConsoleIpRulesBodySchema,
  ConsoleIpRulesSchema,
  LoginLogRowSchema,
  LogoutDeliveryRowSchema,
  MyApplicationSchema,
  PasswordRulesAnswerSchema,
  SamlMetadataBodySchema,
  SamlSettingsSchema,
  SecurityPolicySchema,
  SessionRowSchema,
  SsoAppGrantsBodySchema,
  SsoAppGrantsSchema,
  TenantIpRulesSchema,
  SsoApplicationBodySchema,
  SsoApplicationRowSchema,
  SsoAppCreatedSchema,
  SsoAppSecretSchema,
  StatisticsSchema,
  TrustedDeviceRowSchema,
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

export const SSO_PROTOCOLS = { cas3: 'CAS 3.0', oidc: 'OpenID Connect', saml2: 'SAML 2.0' } as const;
export type SsoProtocol = keyof typeof SSO_PROTOCOLS;

/**
 * Scopes an OpenID Connect application may hold (OIDC Core §5.4; `enterprise`, `groups` and `roles`
 * mirror CAS 返回属性; `offline_access` lets it have refresh tokens). `openid` is always held. The
 * provider's claims per scope are the server's (identity/oidc/oidc-scopes.ts), typed against this list.
 */
export const OIDC_APP_SCOPES = ['openid', 'profile', 'email', 'phone', 'enterprise', 'groups', 'roles', 'offline_access'] as const;
export type OidcAppScope = (typeof OIDC_APP_SCOPES)[number];
export const OIDC_SCOPE_LABELS: Record<OidcAppScope, string> = {
  openid: '账号标识 openid（必选）',
  profile: '姓名与账号 profile',
  email: '邮箱 email',
  phone: '手机号 phone',
  enterprise: '企业与工号 enterprise',
  groups: '账号组 groups',
  roles: '角色 roles',
  offline_access: '刷新令牌 offline_access',
};
export type OidcClientType = 'confidential' | 'public';
export const OIDC_CLIENT_TYPE_LABELS: Record<OidcClientType, string> = { confidential: '机密', public: '公开' };

/**
 * Token lifetimes an application may choose, in seconds (Keycloak's ranges): access and ID tokens 5
 * minutes to an hour, 10 minutes by default; refresh tokens an hour to 30 days, 14 days by default
 * (and never past the sign-on session that issued them).
 */
export const OIDC_LIFETIMES = {
  accessTokenSeconds: { min: 300, max: 3600, default: 600 },
  idTokenSeconds: { min: 300, max: 3600, default: 600 },
  refreshTokenSeconds: { min: 3600, max: 30 * 86_400, default: 14 * 86_400 },
} as const;
export type OidcLifetime = keyof typeof OIDC_LIFETIMES;
/** Most addresses per list (回调地址, 登出回调地址). */
export const MAX_OIDC_REDIRECT_URIS = 10;

/**
 * The provider's addresses under its issuer (`{PUBLIC_URL}/oidc`), as its discovery document names them
 * (a default port is left out, as the provider writes its issuer).
 */
export function oidcEndpoints(issuerAddress: string) {
  let issuer = issuerAddress;
  try {
    issuer = new URL(issuerAddress).href;
  } catch {
    // Not an address: named as given.
  }
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    authorizationEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    userinfoEndpoint: `${issuer}/me`,
    jwksUri: `${issuer}/jwks`,
    revocationEndpoint: `${issuer}/token/revocation`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    endSessionEndpoint: `${issuer}/session/end`,
  };
}
export type OidcEndpoints = ReturnType<typeof oidcEndpoints>;

/** NameID formats a SAML application may receive (SAML Core §8.3), the console's labels. */
export const SAML_NAME_ID_FORMATS = {
  persistent: '持久标识 persistent（每个应用不同，不随账号信息变化）',
  email: '邮箱 emailAddress',
  unspecified: '账号 unspecified（用户名）',
} as const;
export type SamlNameIdFormat = keyof typeof SAML_NAME_ID_FORMATS;

/** The identity provider's addresses under `{PUBLIC_URL}/saml`: its entity ID is its metadata address. */
export function samlEndpoints(portalBase: string) {
  const base = `${portalBase}/saml`;
  return { entityId: `${base}/metadata`, metadataUrl: `${base}/metadata`, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo` };
}
export type SamlEndpoints = ReturnType<typeof samlEndpoints>;
/** A SAML application's settings as 应用列表 answers them. */
export type SamlSettings = Static<typeof SamlSettingsSchema>;
/** 上传 SP 元数据's body. */
export type SamlMetadataBody = Static<typeof SamlMetadataBodySchema>;
export type SsoApplicationStatus = 'enabled' | 'disabled';
export const SSO_APPLICATION_STATUS_LABELS: Record<SsoApplicationStatus, string> = { enabled: '启用', disabled: '停用' };
/** Most service addresses per application. */
export const MAX_SERVICE_PREFIXES = 10;

/** A row of 应用列表 (`GET /web-api/console/v1/sso-app/page/list`) and its detail. */
export type SsoApplicationRow = Static<typeof SsoApplicationRowSchema>;

export type SsoApplicationBody = Static<typeof SsoApplicationBodySchema>;
/** An OIDC application's settings in a body of 新建 / 编辑. */
export type OidcSettingsBody = NonNullable<SsoApplicationBody['oidc']>;
/** A SAML application's settings in a body of 新建 / 编辑. */
export type SamlSettingsBody = NonNullable<SsoApplicationBody['saml']>;
/** 新建's answer: the id and, for a confidential OIDC application, its secret (shown once). */
export type SsoAppCreated = Static<typeof SsoAppCreatedSchema>;
/** 重置密钥's answer: the new secret (shown once). */
export type SsoAppSecret = Static<typeof SsoAppSecretSchema>;

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
export type TwoFactorMode = 'off' | 'admins' | 'all' | 'roles';
export const TWO_FACTOR_LABELS: Record<TwoFactorMode, string> = { off: '关闭', admins: '仅管理员', all: '全员', roles: '按角色' };
/** 允许的验证方式: the second factors an enterprise may accept. */
export type TwoFactorMethod = 'totp' | 'sms' | 'passkey';
export const TWO_FACTOR_METHOD_LABELS: Record<TwoFactorMethod, string> = {
  totp: '验证器应用（TOTP）',
  sms: '短信验证码',
  passkey: '通行密钥',
};
/** 安全设置's 超出上限时: a sign-in beyond the account's cap on concurrent sessions ends its oldest session, or is refused. */
export type SessionOverflow = 'end-oldest' | 'refuse';
export const SESSION_OVERFLOW_LABELS: Record<SessionOverflow, string> = { 'end-oldest': '结束最早的会话', refuse: '拒绝新的登录' };

/** 安全设置 (`GET/PUT /web-api/console/v1/security/policy`). */
export type SecurityPolicy = Static<typeof SecurityPolicySchema>;
/** 控制台访问 (`GET /web-api/console/v1/security/ip-rules`): the enterprise's allowed networks and the caller's address. */
export type ConsoleIpRules = Static<typeof ConsoleIpRulesSchema>;
/** `GET /web-api/console/v1/tenants/{id}/ip-rules`: an enterprise's 控制台访问 list, for its operator. */
export type TenantIpRules = Static<typeof TenantIpRulesSchema>;
/** `PUT /web-api/console/v1/security/ip-rules`: the form's lines. */
export type ConsoleIpRulesBody = Static<typeof ConsoleIpRulesBodySchema>;
/** A trusted device (信任此设备) of an account. */
export type TrustedDeviceRow = Static<typeof TrustedDeviceRowSchema>;
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
  'sessions-full': '在线会话数已达上限',
  'passkey-failed': '通行密钥验证失败',
  'federation-failed': '企业身份认证失败',
  'federation-unlinked': '企业身份未关联账号',
  'password-not-allowed': '仅允许企业身份登录',
} as const;
export type LoginFailureReason = keyof typeof LOGIN_FAILURE_REASONS;

/**
 * How an SSO session ended (登录日志's 登出 rows): the person, an administrator, or a change to the
 * account or its enterprise. A session that times out is not a row (nothing ends it at a moment).
 */
export const LOGOUT_REASONS = {
  'signed-out': '主动退出',
  replaced: '重新登录',
  'signed-out-elsewhere': '从其他设备退出',
  forced: '管理员强制下线',
  'password-changed': '修改密码',
  'password-reset': '重置密码',
  disabled: '账号停用',
  deleted: '账号删除',
  'sync-disabled': '同步停用',
  'enterprise-disabled': '企业停用',
  'session-cap': '超出在线会话数上限',
  'federation-logout': '企业身份提供方登出',
} as const;
export type LogoutReason = keyof typeof LOGOUT_REASONS;
/** 登录日志's 原因: why a sign-in failed or how a session ended. */
export type LoginLogReason = LoginFailureReason | LogoutReason;

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
  protocolFixed: '协议创建后不能修改',
} as const;

/** The largest SP metadata 应用列表 reads (uploaded or fetched; a typical one is a few KB). */
export const SAML_METADATA_MAX_BYTES = 200_000;
/** How long the portal waits for an SP's metadata address to answer. */
export const SAML_METADATA_TIMEOUT_SECONDS = 10;

/** 应用列表's messages for SAML 2.0 applications. */
export const SamlAppMessage = {
  settingsRequired: '请填写 SAML 设置',
  providerOff: '门户未启用内置统一身份认证，不能登记 SAML 应用',
  entityIdInvalid: `实体 ID 须为 1～${APP_URL_MAX} 个可打印字符`,
  entityIdTaken: '实体 ID 已被其他应用使用',
  acsInvalid: '断言消费地址（ACS）须为完整的 http(s) 地址（仅 localhost 与 127.0.0.1 可使用 http）',
  sloInvalid: '单点登出地址须为完整的 http(s) 地址（仅 localhost 与 127.0.0.1 可使用 http）',
  certificateInvalid: 'SP 证书须为 PEM 或 Base64 格式的 X.509 证书',
  certificateRequired: '要求请求签名时须填写 SP 证书',
  unsigned: '响应与断言至少签名其一',
  nameIdFormatUnknown: '不支持的 NameID 格式',
  metadataInvalid: '无法解析 SP 元数据：须为含 SPSSODescriptor 的 SAML 2.0 元数据',
  metadataNoAcs: 'SP 元数据中没有 HTTP-POST 绑定的断言消费地址',
  metadataSource: '请上传 SP 元数据文件或填写元数据地址',
  metadataUrlInvalid: '元数据地址须为完整的 http(s) 地址，如 https://app.example.com/saml/metadata',
  /** Why the metadata at an address could not be read (its reason: one of `metadataFetch`'s). */
  metadataFetchFailed: (url: string, reason: string) => `无法获取 SP 元数据 ${url}：${reason}`,
  metadataFetch: {
    status: (status: number) => `地址返回 HTTP ${status}`,
    redirect: (target: string) => `地址重定向到 ${target}，请填写重定向后的地址`,
    timeout: `${SAML_METADATA_TIMEOUT_SECONDS} 秒内没有应答`,
    tooLarge: `元数据超过 ${SAML_METADATA_MAX_BYTES / 1000} KB`,
    notFound: '域名无法解析',
    unreachable: (code: string) => `无法连接（${code}）`,
  },
  refused: (label: string, url: string, reason: string) => `${label} ${url}：${reason}`,
} as const;

/** 应用列表's messages for OpenID Connect applications. */
export const OidcAppMessage = {
  settingsRequired: '请填写 OpenID Connect 设置',
  providerOff: '门户未启用内置统一身份认证，不能登记 OpenID Connect 应用',
  clientIdInvalid: '客户端 ID 须为 3～64 位字母、数字、点、下划线或连字符，以字母或数字开头',
  clientIdTaken: '客户端 ID 已被使用',
  clientIdFixed: '客户端 ID 创建后不能修改',
  clientTypeFixed: '客户端类型创建后不能修改',
  redirectRequired: '请至少填写一个回调地址',
  scopeUnknown: '授权范围包含不支持的项',
  noSecret: '公开客户端没有客户端密钥（须使用 PKCE）',
  notOidc: '仅 OpenID Connect 应用有客户端密钥',
  initiateLoginHttps: '发起登录地址须为完整的 https 地址',
  /** A list's or an address's problem, named by its label (回调地址, 登出回调地址, 后端登出地址). */
  tooMany: (label: string) => `${label}最多${MAX_OIDC_REDIRECT_URIS}个`,
  duplicate: (label: string) => `${label}不能重复`,
  invalid: (label: string) => `${label}须为完整的 http(s) 地址，如 https://app.example.com/callback`,
  tooLong: (label: string) => `${label}最多${APP_URL_MAX}个字符`,
  https: (label: string) => `${label}须使用 https（仅 localhost、127.0.0.1 与 [::1] 可使用 http）`,
  fragment: (label: string) => `${label}不能包含锚点（#）`,
  wildcard: (label: string) => `${label}不能使用通配符（*），须与应用发送的地址完全一致`,
  refused: (label: string, url: string, reason: string) => `${label} ${url}：${reason}`,
  lifetime: (which: OidcLifetime) => OIDC_LIFETIME_MESSAGES[which],
} as const;

const OIDC_LIFETIME_MESSAGES: Record<OidcLifetime, string> = {
  accessTokenSeconds: '访问令牌有效期须为 5～60 分钟',
  idTokenSeconds: 'ID 令牌有效期须为 5～60 分钟',
  refreshTokenSeconds: '刷新令牌有效期须为 1 小时～30 天',
};

/** Hosts whose OIDC addresses may use plain http (RFC 8252 §7.3 loopback; development on one's own machine). */
const OIDC_LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/** A client id: what OAuth requests and URLs carry without escaping. */
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
// Printable ASCII only: the provider compares an address with what the client sends, byte for byte.
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** One rule per OpenID Connect field of 应用列表 (the console's form and the server both call them). */
export const OidcRules = {
  /** Empty: the server generates one. */
  clientId(value: string): string | undefined {
    const raw = value.trim();
    return !raw || CLIENT_ID.test(raw) ? undefined : OidcAppMessage.clientIdInvalid;
  },
  /**
   * An address the provider compares exactly (OIDC Core §3.1.2.1, RFC 9700 §2.1): absolute http(s),
   * no fragment or wildcard, https unless on loopback. Empty passes (the list or the field decides).
   */
  address(label: string, value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return undefined;
    if (charCount(raw) > APP_URL_MAX) return OidcAppMessage.tooLong(label);
    if (raw.includes('*')) return OidcAppMessage.wildcard(label);
    const url = PRINTABLE_ASCII.test(raw) ? absoluteHttpUrl(raw) : undefined;
    if (!url) return OidcAppMessage.invalid(label);
    if (raw.includes('#')) return OidcAppMessage.fragment(label);
    if (url.protocol !== 'https:' && !OIDC_LOOPBACK_HOSTS.includes(url.hostname)) return OidcAppMessage.https(label);
    return undefined;
  },
  /** A list of such addresses: at most MAX_OIDC_REDIRECT_URIS, none twice, at least one when `required`. */
  addresses(label: string, values: readonly string[], required: boolean): string | undefined {
    const filled = values.map((v) => v.trim()).filter(Boolean);
    if (required && filled.length === 0) return OidcAppMessage.redirectRequired;
    if (filled.length > MAX_OIDC_REDIRECT_URIS) return OidcAppMessage.tooMany(label);
    for (const value of filled) {
      const problem = OidcRules.address(label, value);
      if (problem) return problem;
    }
    return new Set(filled).size < filled.length ? OidcAppMessage.duplicate(label) : undefined;
  },
  /** OIDC Core §4: a third party starts a sign-in at an https address (the provider refuses any other). */
  initiateLoginUri(value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return undefined;
    if (charCount(raw) > APP_URL_MAX) return OidcAppMessage.tooLong('发起登录地址');
    const url = PRINTABLE_ASCII.test(raw) ? absoluteHttpUrl(raw) : undefined;
    return url?.protocol === 'https:' && !raw.includes('#') && !raw.includes('*') ? undefined : OidcAppMessage.initiateLoginHttps;
  },
  lifetime(which: OidcLifetime, seconds: number): string | undefined {
    const { min, max } = OIDC_LIFETIMES[which];
    return Number.isInteger(seconds) && seconds >= min && seconds <= max ? undefined : OidcAppMessage.lifetime(which);
  },
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
