import { Type } from 'typebox';
import { PASSWORD_CLASSES, TWO_FACTOR_METHODS } from '../security-policy.js';
import {
  APP_URL_MAX,
  LOGIN_FAILURE_REASONS,
  LOGOUT_REASONS,
  type LoginLogReason,
  MAX_OIDC_REDIRECT_URIS,
  MAX_SERVICE_PREFIXES,
  OIDC_APP_SCOPES,
  RELEASABLE_ATTRIBUTES,
  SAML_METADATA_MAX_BYTES,
  SAML_NAME_ID_FORMATS,
  type SamlNameIdFormat,
  SSO_PROTOCOLS,
  type SsoProtocol,
  STATISTICS_DAYS,
  STATISTICS_TOP_APPLICATIONS,
} from '../sso.js';
import { literals } from './envelope.js';

/**
 * The console bodies of 应用管理 (应用列表, 应用授权), 我的应用, 安全中心 (安全设置, 在线会话, 登录日志) and
 * 统计分析: the source of the types in sso.ts.
 */

// ----- 应用列表

export const SsoApplicationStatusSchema = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);
export const ReleasableAttributeSchema = literals(RELEASABLE_ATTRIBUTES);
export const SsoProtocolSchema = literals(Object.keys(SSO_PROTOCOLS) as SsoProtocol[], {
  description:
    'cas3：CAS 3.0（CAS 2.0 与 1.0 的票据校验同样可用）；oidc：OpenID Connect（授权码 + PKCE）；saml2：SAML 2.0（HTTP-Redirect / HTTP-POST 请求，HTTP-POST 响应）。创建后不能修改',
});
export const OidcClientTypeSchema = Type.Union([Type.Literal('confidential'), Type.Literal('public')], {
  description: 'confidential：机密客户端（有客户端密钥）；public：公开客户端（无密钥，须使用 PKCE S256）',
});
export const OidcAppScopeSchema = literals(OIDC_APP_SCOPES);

/** An OpenID Connect application's settings as 应用列表 answers them (never its secret). */
export const OidcSettingsSchema = Type.Object({
  clientId: Type.String({ description: '客户端 ID（client_id）' }),
  clientType: OidcClientTypeSchema,
  redirectUris: Type.Array(Type.String(), { description: '回调地址（redirect_uri 须与其中之一完全一致）' }),
  postLogoutRedirectUris: Type.Array(Type.String(), { description: '登出回调地址（post_logout_redirect_uri）' }),
  backchannelLogoutUri: Type.String({ description: '后端登出地址（OIDC Back-Channel Logout）；空：不通知' }),
  initiateLoginUri: Type.String({ description: '发起登录地址（https；我的应用由此打开）；空：无' }),
  scopes: Type.Array(OidcAppScopeSchema, { description: '授权范围（openid 必选）：决定返回的声明' }),
  accessTokenSeconds: Type.Integer({ description: '访问令牌有效期（秒，300～3600）' }),
  idTokenSeconds: Type.Integer({ description: 'ID 令牌有效期（秒，300～3600）' }),
  refreshTokenSeconds: Type.Integer({ description: '刷新令牌有效期（秒，3600～2592000）' }),
});

/** The provider's addresses (`{PUBLIC_URL}/oidc`), the same for every application. */
export const OidcIntegrationSchema = Type.Object(
  {
    issuer: Type.String(),
    discoveryUrl: Type.String({ description: '发现文档 /.well-known/openid-configuration' }),
    authorizationEndpoint: Type.String(),
    tokenEndpoint: Type.String(),
    userinfoEndpoint: Type.String(),
    jwksUri: Type.String(),
    revocationEndpoint: Type.String(),
    introspectionEndpoint: Type.String(),
    endSessionEndpoint: Type.String(),
  },
  { description: 'OpenID Connect 集成配置' },
);

export const SamlNameIdFormatSchema = literals(Object.keys(SAML_NAME_ID_FORMATS) as SamlNameIdFormat[], {
  description: 'persistent：每个应用不同的持久标识；email：邮箱；unspecified：用户名',
});

/** A SAML application's service-provider settings (应用列表 answers them; 新建 / 编辑 take them). */
export const SamlSettingsSchema = Type.Object({
  entityId: Type.String({ maxLength: APP_URL_MAX * 2, description: 'SP 实体 ID（AuthnRequest 的 Issuer，响应的 Audience）' }),
  acsUrl: Type.String({ maxLength: APP_URL_MAX * 2, description: '断言消费地址（ACS，HTTP-POST）：响应只发往这里' }),
  sloUrl: Type.String({ maxLength: APP_URL_MAX * 2, description: '单点登出地址（HTTP-POST / Redirect）；空：不通知' }),
  certificate: Type.String({ maxLength: 20_000, description: 'SP 签名证书（PEM）；要求请求签名时必填' }),
  nameIdFormat: SamlNameIdFormatSchema,
  signResponse: Type.Boolean({ description: '签名整个响应（RSA-SHA256）' }),
  signAssertion: Type.Boolean({ description: '签名断言（RSA-SHA256）' }),
  wantRequestsSigned: Type.Boolean({ description: '要求 AuthnRequest 与登出请求签名' }),
});

/** The identity provider's addresses (`{PUBLIC_URL}/saml`), the same for every application. */
export const SamlIntegrationSchema = Type.Object(
  {
    entityId: Type.String({ description: 'IdP 实体 ID（即元数据地址）' }),
    metadataUrl: Type.String({ description: 'IdP 元数据（含签名证书）' }),
    ssoUrl: Type.String({ description: '单点登录地址（HTTP-Redirect、HTTP-POST）' }),
    sloUrl: Type.String({ description: '单点登出地址（HTTP-Redirect、HTTP-POST）' }),
  },
  { description: 'SAML 2.0 集成配置' },
);

/** `POST /web-api/console/v1/sso-app/saml/metadata`: an SP's metadata, uploaded or at an address the portal fetches. */
export const SamlMetadataBodySchema = Type.Object({
  xml: Type.Optional(Type.String({ maxLength: SAML_METADATA_MAX_BYTES, description: 'SP 元数据 XML（上传）' })),
  url: Type.Optional(
    Type.String({
      maxLength: APP_URL_MAX * 2,
      description: 'SP 元数据地址（http(s)，由平台经出站地址规则获取；不跟随重定向；10 秒、200 KB 以内）；与 xml 二选一',
    }),
  ),
});
/** Its answer: the settings the metadata names, for the form (nothing is written). */
export const SamlMetadataAnswerSchema = Type.Partial(SamlSettingsSchema);

export const SsoApplicationRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  icon: Type.String({ description: '上传接口返回的相对路径，或空' }),
  category: Type.String(),
  description: Type.String(),
  protocol: SsoProtocolSchema,
  servicePrefixes: Type.Array(Type.String(), { description: '服务地址：协议、主机、端口与路径前缀（CAS）；OpenID Connect 应用为空' }),
  logoutUrl: Type.String({ description: '注销地址（单点登出的后台通知）；空：发往获得票据的服务地址' }),
  attributes: Type.Array(ReleasableAttributeSchema, { description: '返回属性' }),
  status: SsoApplicationStatusSchema,
  allMembers: Type.Boolean({ description: '企业全员可登录（应用授权）' }),
  createdAt: Type.String(),
  platform: Type.Boolean({ description: '订阅的平台应用：由平台维护，只读（服务地址为平台的），经应用授权决定谁可登录' }),
  provider: Type.String({ description: '平台应用的提供方；本企业自建应用为空' }),
  oidc: Type.Union([OidcSettingsSchema, Type.Null()], { description: 'OpenID Connect 设置；CAS 应用为 null' }),
  saml: Type.Optional(Type.Union([SamlSettingsSchema, Type.Null()], { description: 'SAML 2.0 设置；其他协议为 null' })),
  integration: Type.Object(
    {
      loginUrl: Type.String(),
      validateUrl: Type.String({ description: 'CAS 3.0 票据校验（p3/serviceValidate）' }),
      logoutUrl: Type.String(),
      casServerUrlPrefix: Type.String(),
      oidc: OidcIntegrationSchema,
      saml: Type.Optional(SamlIntegrationSchema),
    },
    { description: '集成配置：应用接入统一身份认证所需的地址' },
  ),
});

// Lengths here only bound the request; the field rules (SsoRules) answer with their own messages.
export const SsoApplicationBodySchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  icon: Type.Optional(Type.String({ maxLength: 1000 })),
  category: Type.Optional(Type.String({ maxLength: 200 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  protocol: SsoProtocolSchema,
  servicePrefixes: Type.Array(Type.String({ maxLength: APP_URL_MAX * 4 }), {
    maxItems: MAX_SERVICE_PREFIXES * 5,
    description: 'CAS 应用的服务地址；OpenID Connect 应用不用（忽略）',
  }),
  logoutUrl: Type.Optional(Type.String({ maxLength: APP_URL_MAX * 4 })),
  attributes: Type.Array(Type.String({ maxLength: 32 }), {
    maxItems: 20,
    description: 'CAS 返回属性；OpenID Connect 应用按授权范围返回声明',
  }),
  status: SsoApplicationStatusSchema,
  oidc: Type.Optional(
    Type.Object(
      {
        clientId: Type.Optional(Type.String({ maxLength: 200, description: '客户端 ID；新建时留空则自动生成，创建后不能修改' })),
        clientType: OidcClientTypeSchema,
        redirectUris: Type.Array(Type.String({ maxLength: APP_URL_MAX * 4 }), { maxItems: MAX_OIDC_REDIRECT_URIS * 5 }),
        postLogoutRedirectUris: Type.Array(Type.String({ maxLength: APP_URL_MAX * 4 }), { maxItems: MAX_OIDC_REDIRECT_URIS * 5 }),
        backchannelLogoutUri: Type.String({ maxLength: APP_URL_MAX * 4 }),
        initiateLoginUri: Type.String({ maxLength: APP_URL_MAX * 4 }),
        scopes: Type.Array(Type.String({ maxLength: 32 }), { maxItems: 20 }),
        accessTokenSeconds: Type.Integer(),
        idTokenSeconds: Type.Integer(),
        refreshTokenSeconds: Type.Integer(),
      },
      { description: 'OpenID Connect 设置（协议为 oidc 时必填）' },
    ),
  ),
  saml: Type.Optional(
    Type.Object(
      {
        entityId: Type.String({ maxLength: APP_URL_MAX * 4 }),
        acsUrl: Type.String({ maxLength: APP_URL_MAX * 4 }),
        sloUrl: Type.String({ maxLength: APP_URL_MAX * 4 }),
        certificate: Type.String({ maxLength: 20_000 }),
        nameIdFormat: Type.String({ maxLength: 32 }),
        signResponse: Type.Boolean(),
        signAssertion: Type.Boolean(),
        wantRequestsSigned: Type.Boolean(),
      },
      { description: 'SAML 2.0 设置（协议为 saml2 时必填）' },
    ),
  ),
});

/** 新建's answer. */
export const SsoAppCreatedSchema = Type.Object({
  id: Type.Integer(),
  clientId: Type.String({ description: 'OpenID Connect 应用的客户端 ID；CAS 应用为空' }),
  clientSecret: Type.String({ description: '机密客户端的客户端密钥，仅此一次返回；其他为空' }),
});
/** 重置密钥's answer: the new secret, answered this once (the old one stops working at once). */
export const SsoAppSecretSchema = Type.Object({ clientId: Type.String(), clientSecret: Type.String() });

/** `GET /web-api/console/v1/sso-app/page/list` query. */
export const SsoApplicationQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(Type.Union([SsoApplicationStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

// ----- 应用授权

const GrantRef = Type.Object({ id: Type.Integer(), name: Type.String() });
export const SsoAppGrantsSchema = Type.Object({
  allMembers: Type.Boolean({ description: '企业全员' }),
  groups: Type.Array(GrantRef),
  roles: Type.Array(GrantRef),
  accounts: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String() })),
});
const Ids = (description: string) => Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500, description });
export const SsoAppGrantsBodySchema = Type.Object({
  allMembers: Type.Boolean(),
  groupIds: Ids('账号组'),
  roleIds: Ids('角色（本企业的角色与企业系统角色）'),
  accountIds: Ids('单个账号'),
});

// ----- 我的应用

export const MyApplicationSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  icon: Type.String({ description: '相对路径，前端加文件服务地址；空：无图标' }),
  category: Type.String(),
  description: Type.String(),
  url: Type.String({ description: '应用的第一个服务地址：打开它即经统一身份认证登录' }),
});

// ----- 安全设置

const Count = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });
export const SecurityPolicySchema = Type.Object({
  passwordMinLength: Count,
  passwordClasses: Type.Array(Type.Union([Type.Literal('lower'), Type.Literal('upper'), Type.Literal('digit'), Type.Literal('symbol')]), {
    maxItems: PASSWORD_CLASSES.length,
  }),
  passwordNoUsername: Type.Boolean(),
  passwordHistory: Count,
  passwordExpiryDays: Count,
  lockMaxFailures: Count,
  lockMinutes: Count,
  sessionIdleMinutes: Count,
  sessionMaxHours: Count,
  /** 同时在线会话数上限: SSO sessions one account may hold at once; 0 for no cap. */
  sessionMaxConcurrent: Count,
  sessionOverflow: Type.Union([Type.Literal('end-oldest'), Type.Literal('refuse')]),
  twoFactor: Type.Union([Type.Literal('off'), Type.Literal('admins'), Type.Literal('all'), Type.Literal('roles')]),
  /** 按角色: the enterprise's roles (ids, 角色) whose holders, directly or through a group, sign in with a second factor. */
  twoFactorRoles: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 100 }),
  /** 允许的验证方式: the second factors the enterprise accepts (at least one). */
  twoFactorMethods: Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('sms'), Type.Literal('passkey')]), {
    maxItems: TWO_FACTOR_METHODS.length,
  }),
  /** 信任此设备: days a browser that passed the second factor may skip it (0: never). */
  trustDeviceDays: Count,
  /** 审计日志保留天数: 登录日志 and 操作日志 older are archived to a file, then deleted (180–3650; absent in a body: unchanged). */
  auditRetentionDays: Type.Optional(Count),
});
/** `GET /web/portal/account/password-rules`: the rules a new password of the caller is checked against, and them in one sentence. */
export const PasswordRulesAnswerSchema = Type.Object({
  passwordMinLength: Type.Integer(),
  passwordClasses: SecurityPolicySchema.properties.passwordClasses,
  passwordNoUsername: Type.Boolean(),
  description: Type.String({ description: '一句话规则，如 8-18位，须包含大写字母、数字，不能包含账号' }),
});

/** `POST /web-api/console/v1/account/:id/two-factor/reset`: the account whose two-factor login starts again. */
export const TwoFactorResetParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });

// ----- 安全设置: 控制台访问

/**
 * `PUT /web-api/console/v1/security/ip-rules`: the form's lines as typed (one address or CIDR each;
 * blank ones are skipped but counted, so a refusal names the form's line); none: no restriction.
 */
export const ConsoleIpRulesBodySchema = Type.Object({
  rules: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500 }),
});
/** `GET /web-api/console/v1/security/ip-rules`: the enterprise's list in canonical form, and the caller's own address. */
export const ConsoleIpRulesSchema = Type.Object({
  rules: Type.Array(Type.String({ description: 'CIDR 网段（如 10.0.0.0/8、2001:db8::/32）或单个地址（如 203.0.113.7）' })),
  currentIp: Type.String({ description: '调用者当前的 IP 地址（保存的列表须包含它）' }),
});

/** `GET /web-api/console/v1/tenants/{id}/ip-rules` (operators): an enterprise's 控制台访问 list. */
export const TenantIpRulesSchema = Type.Pick(ConsoleIpRulesSchema, ['rules']);

// ----- 信任此设备

/** A trusted device (个人信息's own list, 账号管理's per account): a browser that may skip the second factor until it expires. */
export const TrustedDeviceRowSchema = Type.Object({
  id: Type.Integer(),
  browser: Type.String(),
  os: Type.String(),
  ip: Type.String({ description: '信任时的 IP 地址' }),
  createdAt: Type.String({ description: '信任时间 yyyy-MM-dd HH:mm:ss（中国时间）' }),
  lastUsedAt: Type.String({ description: '最近使用 yyyy-MM-dd HH:mm:ss（中国时间）；未使用过为空' }),
  expiresAt: Type.String({ description: '到期时间 yyyy-MM-dd HH:mm:ss（中国时间）' }),
});
export const TrustedDeviceParamsSchema = Type.Object({ deviceId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const AccountTrustedDeviceParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  deviceId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

// ----- 在线会话

export const SessionRowSchema = Type.Object({
  id: Type.String({ description: '会话句柄（不透明；强制下线时使用）' }),
  username: Type.String(),
  name: Type.String(),
  ip: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  loginAt: Type.String({ description: '登录时间 yyyy-MM-dd HH:mm:ss（中国时间）' }),
  lastActiveAt: Type.String({ description: '最近活动 yyyy-MM-dd HH:mm:ss（中国时间）' }),
  applications: Type.Array(Type.String(), { description: '已访问应用（门户为“门户”）' }),
  current: Type.Boolean({ description: '发出本请求的浏览器所在的会话' }),
});
export const SessionHandleParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const SessionQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '账号或姓名（包含）' })),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

// ----- 单点登出记录 (在线会话)

export const LogoutDeliveryRowSchema = Type.Object({
  id: Type.Integer(),
  sessionId: Type.String({ description: '已结束会话的句柄（与在线会话的 id 相同）' }),
  username: Type.String(),
  applicationName: Type.String(),
  protocol: Type.Union([Type.Literal('cas3'), Type.Literal('oidc'), Type.Literal('saml2')], {
    description: 'cas3：CAS logoutRequest；oidc：后端登出 logout_token；saml2：SAML LogoutRequest（HTTP-POST）',
  }),
  target: Type.String({ description: '消息发往的地址' }),
  state: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed')], {
    description: 'delivered 已送达；retrying 失败，等待重试；failed 重试后仍失败',
  }),
  reason: Type.String({ description: '失败原因（已送达时为空）' }),
  attempts: Type.Integer({ description: '已发送次数' }),
  nextAt: Type.String({ description: '下次重试时间（等待重试时）yyyy-MM-dd HH:mm:ss' }),
  createdAt: Type.String({ description: '会话结束（首次发送）时间' }),
  updatedAt: Type.String({ description: '最近一次发送时间' }),
});
export const LogoutDeliveryQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

// ----- 登录日志

export const LoginResultSchema = Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('logout')], {
  description: 'success 登录成功；failure 登录失败；logout 登出（会话结束）',
});
export const LoginLogReasonSchema = literals([
  ...new Set([...Object.keys(LOGIN_FAILURE_REASONS), ...Object.keys(LOGOUT_REASONS)]),
] as LoginLogReason[]);
const Tally = Type.Integer({ minimum: 0 });
/** What became of the single-logout messages an ended session sent (单点登出记录). */
export const LogoutDeliveryTallySchema = Type.Object(
  { total: Tally, delivered: Tally, retrying: Tally, failed: Tally },
  { description: '登出记录：会话结束时发给各应用的单点登出消息，按结果计数' },
);
/** `GET /web-api/console/v1/login-log/{id}/logout-deliveries`: a 登出 row's messages, as 单点登出记录 lists them. */
export const LoginLogIdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const LoginLogRowSchema = Type.Object({
  id: Type.Integer(),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss（中国时间）' }),
  username: Type.String({ description: '账号（无此账号时为所填的登录名）' }),
  name: Type.String(),
  result: LoginResultSchema,
  reason: Type.Union([LoginLogReasonSchema, Type.Literal('')]),
  reasonText: Type.String({ description: '失败原因或登出方式（中文）；成功为空' }),
  applicationName: Type.String({ description: '登录的应用；门户或未指定应用时为空' }),
  ip: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  enterpriseName: Type.String(),
  logoutDeliveries: Type.Optional(LogoutDeliveryTallySchema),
});
/** The list's filters, which the export honours too. */
export const LoginLogFilterFields = {
  filterStartTime: Type.Optional(Type.String({ maxLength: 19, description: '开始时间 yyyy-MM-dd HH:mm:ss（中国时间）' })),
  filterEndTime: Type.Optional(Type.String({ maxLength: 19, description: '结束时间 yyyy-MM-dd HH:mm:ss（含）' })),
  username: Type.Optional(Type.String({ maxLength: 64, description: '账号或姓名（完全一致）' })),
  result: Type.Optional(Type.Union([LoginResultSchema, Type.Literal('')])),
  reason: Type.Optional(Type.Union([LoginLogReasonSchema, Type.Literal('')], { description: '失败原因或登出方式编码' })),
  applicationId: Type.Optional(Type.Integer({ minimum: 0, description: '应用 id；0 为未指定应用（门户）' })),
};
export const LoginLogFilterQuerySchema = Type.Object(LoginLogFilterFields);
/** `GET /web-api/console/v1/login-log/page/list`: a page of the filtered rows. */
export const LoginLogPageQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  ...LoginLogFilterFields,
});

// ----- 统计分析

export const StatisticsSchema = Type.Object({
  signInsPerDay: Type.Array(Type.Object({ date: Type.String(), success: Tally, failure: Tally }), {
    description: `最近 ${STATISTICS_DAYS} 天每天的登录次数（中国日期，旧的在前）`,
  }),
  activeAccounts: Type.Object({ last7Days: Tally, last30Days: Tally, total: Tally }, { description: '近 7 天、近 30 天登录过的账号数' }),
  signInsPerApplication: Type.Array(
    Type.Object({ applicationId: Type.Union([Type.Integer(), Type.Null()]), name: Type.String(), count: Tally }),
    { description: `近 ${STATISTICS_DAYS} 天各应用的成功登录次数（前 ${STATISTICS_TOP_APPLICATIONS} 个，其余合为“其他”）` },
  ),
  accountsByStatus: Type.Object({ active: Tally, disabled: Tally, locked: Tally }, { description: '账号数：正常、停用、锁定' }),
  twoFactor: Type.Object({ enabled: Tally, notEnabled: Tally }, { description: '已启用、未启用二次验证的账号数' }),
});
