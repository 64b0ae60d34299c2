import type { Static } from 'typebox';
import type { SelfTestBodySchema, SelfTestPrecheckSchema, SelfTestResultSchema, SelfTestStepSchema } from './contracts/sso-self-test.js';
/**
 * 接入自检 (tool 03 统一身份认证集成): the portal checks one application's integration
 * end to end and answers a checklist, each step with the exact reason it failed.
 */

/** The steps of a CAS 3.0 application's check. */
export const SELF_TEST_STEPS = ['registered', 'reachable', 'logout', 'signIn', 'validate', 'attributes'] as const;
export type CasSelfTestStepKey = (typeof SELF_TEST_STEPS)[number];
export const SELF_TEST_STEP_TITLES: Record<CasSelfTestStepKey, string> = {
  registered: '服务地址已登记',
  reachable: '服务地址可访问',
  logout: '注销地址可响应',
  signIn: '测试账号登录',
  validate: '票据校验（/p3/serviceValidate）',
  attributes: '属性释放',
};

/** The steps of an OpenID Connect application's check. */
export const OIDC_SELF_TEST_STEPS = [
  'discovery',
  'redirectRegistered',
  'redirectReachable',
  'backchannel',
  'authorize',
  'token',
  'idToken',
  'userinfo',
] as const;
export type OidcSelfTestStepKey = (typeof OIDC_SELF_TEST_STEPS)[number];
export const OIDC_SELF_TEST_STEP_TITLES: Record<OidcSelfTestStepKey, string> = {
  discovery: '发现文档与 JWKS',
  redirectRegistered: '回调地址已登记',
  redirectReachable: '回调地址可访问',
  backchannel: '后端登出地址可响应',
  authorize: '测试账号登录（授权码 + PKCE S256）',
  token: '令牌交换（/token）',
  idToken: 'ID Token 校验',
  userinfo: '用户信息（/me）',
};

/** The steps of a SAML 2.0 application's check. */
export const SAML_SELF_TEST_STEPS = ['samlMetadata', 'acsReachable', 'samlResponse', 'sloReachable'] as const;
export type SamlSelfTestStepKey = (typeof SAML_SELF_TEST_STEPS)[number];
export const SAML_SELF_TEST_STEP_TITLES: Record<SamlSelfTestStepKey, string> = {
  samlMetadata: 'IdP 元数据与签名证书',
  acsReachable: '断言消费地址（ACS）可访问',
  samlResponse: '签名响应被应用接受',
  sloReachable: '单点登出地址可响应',
};

/** 接入自检's texts for SAML 2.0 applications. */
export const SamlSelfTestMessage = {
  metadata: (url: string, certificates: number) => `${url} 为有效的 SAML 2.0 元数据（${certificates} 个签名证书，RSA-SHA256）`,
  metadataFailed: (url: string, reason: string) => `IdP 元数据 ${url} 无效：${reason}`,
  acsReachable: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}（地址可访问；响应以 POST 发送）`,
  acsStatus: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}：断言消费地址不可用`,
  acsFailed: (url: string, reason: string) => `无法访问 ${url}：${reason}`,
  accepted: (url: string, status: number, username: string, location: string | undefined) =>
    `以账号 ${username} 签名的 IdP 发起响应已提交至 ${url}，应用返回 HTTP ${status}${location ? `，跳转至 ${location}` : ''}（未报错；应用是否建立会话以其页面为准）`,
  bounced: (url: string, status: number, location: string) =>
    `签名响应提交至 ${url}，应用返回 HTTP ${status} 并跳转回统一认证（${location}）：应用未接受该响应，请核对应用配置的 IdP 元数据（证书、实体 ID），或应用不接受 IdP 发起的登录`,
  refused: (url: string, status: number) =>
    `签名响应 POST 至 ${url}，应用返回 HTTP ${status}：请核对应用配置的 IdP 元数据（证书、实体 ID），或应用不接受 IdP 发起的登录（此时请从应用发起登录验证）`,
  responseFailed: (url: string, reason: string) => `签名响应无法送达 ${url}：${reason}`,
  sloAnswered: (url: string, status: number, username: string) =>
    `签名的 LogoutRequest（账号 ${username} 的测试会话）以 HTTP-POST 发送至 ${url}，与单点登出相同，返回 HTTP ${status}`,
  sloStatus: (url: string, status: number) => `POST 签名的 LogoutRequest 至 ${url} 返回 HTTP ${status}：应用收到登出请求后应返回 2xx`,
  sloFailed: (url: string, reason: string) => `登出请求无法送达 ${url}：${reason}`,
  noSlo: '未填写单点登出地址：会话结束时不通知该应用',
} as const;

export type SelfTestStepKey = CasSelfTestStepKey | OidcSelfTestStepKey | SamlSelfTestStepKey;

export type SelfTestStepStatus = 'passed' | 'failed' | 'skipped';

export type SelfTestStep = Static<typeof SelfTestStepSchema>;

/**
 * `POST /web-api/console/v1/sso-app/{id}/self-test`: `service` for a CAS application; `redirectUri` and,
 * for a confidential OpenID Connect client, `clientSecret` (used for this run's token exchange only).
 */
export type SelfTestBody = Static<typeof SelfTestBodySchema>;

export type SelfTestResult = Static<typeof SelfTestResultSchema>;

/**
 * `GET /web-api/console/v1/sso-app/{id}/self-test`: what the console says before a run. When the
 * administrator may not sign in to the application (应用授权), or the portal uses an external CAS,
 * the run skips 测试账号登录 and the ticket validation, and `signInSkipped` says why.
 */
export type SelfTestPrecheck = Static<typeof SelfTestPrecheckSchema>;

/** Most 接入自检 runs one enterprise may start a minute (each makes up to three requests to its applications). */
export const SELF_TESTS_PER_MINUTE = 10;

/**
 * The Chinese texts of 接入自检: each step's detail names the address it used and, on failure, exactly
 * why (HTTP status, connection error). Addresses are the application's own; its answers' bodies are
 * never quoted, only their status and where a redirect points (host and path).
 */
export const SelfTestMessage = {
  passed: '接入自检通过',
  failed: '接入自检未通过，请按各检查项的说明修改后重试',
  tooMany: (seconds: number) => `接入自检过于频繁，请 ${seconds} 秒后再试`,

  registered: (service: string, appName: string) => `服务地址 ${service} 已登记在应用「${appName}」中，统一身份认证按此地址识别本应用`,
  noServices: (appName: string) => `应用「${appName}」尚未填写服务地址，请先在应用列表中填写`,
  serviceInvalid: (service: string) => `${service} 不是完整的 http(s) 地址`,
  serviceNotOwn: (service: string, appName: string) =>
    `${service} 不在应用「${appName}」的服务地址中：统一身份认证不会为它签发票据，请先在应用列表中添加该服务地址`,
  serviceElsewhere: (service: string) => `统一身份认证将 ${service} 识别为门户、平台应用或其他应用的地址，而不是本应用`,

  reachable: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}`,
  reachableAuth: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}（应用要求登录，地址可访问）`,
  reachableRedirect: (url: string, status: number, to: string) => `GET ${url} 返回 HTTP ${status}，跳转至 ${to}（未跟随跳转）`,
  reachableRedirectToCas: (url: string, status: number, to: string) =>
    `GET ${url} 返回 HTTP ${status}，跳转至统一身份认证登录页 ${to}（未跟随跳转）`,
  redirectWithoutLocation: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}，但没有给出跳转地址`,
  reachableStatus: (url: string, status: number) =>
    `GET ${url} 返回 HTTP ${status}：服务地址应能打开应用（2xx），或跳转登录（3xx、401、403）`,
  reachableFailed: (url: string, reason: string) => `无法访问 ${url}：${reason}`,

  logout: (url: string, status: number, toService: boolean) =>
    `POST 单点登出通知（logoutRequest）至 ${url}，返回 HTTP ${status}${toService ? '（未填写注销地址，发往服务地址）' : ''}`,
  logoutStatus: (url: string, status: number) =>
    `POST 单点登出通知（logoutRequest）至 ${url} 返回 HTTP ${status}：应用收到通知后应返回 2xx`,
  logoutRedirect: (url: string, status: number, to: string) =>
    `POST 单点登出通知（logoutRequest）至 ${url} 返回 HTTP ${status}，跳转至 ${to}（未跟随跳转）：注销地址应直接处理通知并返回 2xx，不能要求登录`,
  logoutFailed: (url: string, reason: string) => `单点登出通知（logoutRequest）无法送达 ${url}：${reason}`,

  signIn: (username: string) => `已通过账号 ${username} 当前的统一身份认证会话为该服务签发服务票据（与用户从门户打开应用时相同）`,
  noSsoSession: '您的统一身份认证会话已结束，无法签发测试票据：请退出并重新登录门户后再试',
  notAuthorized: (username: string, appName: string) =>
    `账号 ${username} 未获准登录「${appName}」：请在“应用授权”中添加该账号（或其所在的账号组、角色，或开启企业全员）后重试`,
  notGranted: (username: string, appName: string) =>
    `账号 ${username} 未获准登录「${appName}」，已跳过测试登录与票据校验：如需测试，请在“应用授权”中添加该账号（或其所在的账号组、角色，或开启企业全员）后重试`,
  appDisabled: (appName: string) => `应用「${appName}」已停用，统一身份认证不为它签发票据：请在应用列表中启用后重试`,
  externalCas: (casServerUrl: string) =>
    `门户使用外部统一身份认证服务${casServerUrl ? ` ${casServerUrl}` : ''}（未启用内置 CAS），测试登录与票据校验须在该服务上进行，已跳过`,

  validated: (url: string, user: string) => `GET ${url} 校验通过，返回账号 ${user}`,
  validationRefused: (url: string, code: string, description: string) => `GET ${url} 校验未通过：${code}（${description}）`,
  validationStatus: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}，不是 CAS 3.0 校验结果`,
  validationUnreadable: (url: string) => `GET ${url} 的应答不是 CAS 3.0 校验结果`,
  validationWrongUser: (url: string, user: string, username: string) => `GET ${url} 返回的账号 ${user} 与测试账号 ${username} 不一致`,
  validationFailed: (url: string, reason: string) => `无法访问统一身份认证服务 ${url}：${reason}`,

  attributes: (names: string) => `已返回 ${names}`,
  noAttributes: '应用未设置返回属性，无需检查',
  attributeMissing: (label: string, username: string) => `未返回属性「${label}」：账号 ${username} 没有该属性的值`,
  attributesHint: '请补充账号信息，或在应用列表中取消该返回属性',

  skippedUnregistered: '服务地址未通过登记检查，已跳过（不会访问未登记的地址）',
  skippedNoTicket: '未能签发服务票据，已跳过',
  skippedNotValidated: '票据校验未通过，已跳过',

  refused: '连接被拒绝（ECONNREFUSED）：应用未启动，或没有监听该地址的端口',
  notFound: '域名无法解析（ENOTFOUND）',
  timeout: (seconds: number) => `${seconds} 秒内没有响应（超时）`,
  reset: '连接被对方重置（ECONNRESET）',
  unreachableHost: (code: string) => `网络不可达（${code}）`,
  certificate: (code: string) => `HTTPS 证书校验失败（${code}）`,
  connectionFailed: (code: string) => `连接失败（${code}）`,
} as const;

/**
 * The Chinese texts of an OpenID Connect application's 接入自检 (connection failures use SelfTestMessage's).
 * A run signs in as the administrator with a real authorization code and PKCE; what it was issued is
 * revoked when it ends. Tokens, codes and the client secret are never quoted.
 */
export const OidcSelfTestMessage = {
  discovered: (url: string, issuer: string, jwksUri: string, keys: number, algs: string) =>
    `GET ${url} 返回发现文档（issuer ${issuer}，端点均在其下）；GET ${jwksUri} 返回 ${keys} 个签名公钥（${algs}）`,
  discoveryFailed: (url: string, reason: string) => `无法访问发现文档 ${url}：${reason}`,
  discoveryStatus: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}，不是发现文档`,
  discoveryUnreadable: (url: string) => `GET ${url} 的应答不是 JSON 格式的发现文档`,
  issuerMismatch: (url: string, got: string, expected: string) =>
    `${url} 的 issuer 为 ${got || '（空）'}，与应有的 ${expected} 不一致：请检查 PUBLIC_URL 与反向代理转发的协议和主机`,
  endpointMissing: (name: string) => `发现文档缺少 ${name}`,
  endpointElsewhere: (name: string, value: string, issuer: string) => `发现文档的 ${name}（${value}）不在 issuer ${issuer} 之下`,
  jwksFailed: (url: string, reason: string) => `无法访问 JWKS ${url}：${reason}`,
  jwksStatus: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}，不是 JWKS`,
  jwksUnreadable: (url: string) => `GET ${url} 的应答不是 JWKS（JSON 格式的 keys 列表）`,
  noSigningKey: (url: string, alg: string) => `JWKS ${url} 中没有 ${alg} 签名公钥：ID Token 无法验证`,

  redirectRegistered: (uri: string, appName: string) => `回调地址 ${uri} 已登记在应用「${appName}」中（redirect_uri 须与之完全一致）`,
  noRedirectUris: (appName: string) => `应用「${appName}」尚未填写回调地址，请先在应用列表中填写`,
  redirectNotOwn: (uri: string, appName: string) =>
    `${uri} 不是应用「${appName}」登记的回调地址：redirect_uri 须与登记的回调地址完全一致（协议、主机、端口、路径与查询参数），请在应用列表中添加或改用已登记的地址`,
  redirectReachable: (uri: string, status: number) => `GET ${uri} 返回 HTTP ${status}（回调地址可访问；未携带授权码）`,
  redirectReachableRedirect: (uri: string, status: number, to: string) =>
    `GET ${uri} 返回 HTTP ${status}，跳转至 ${to}（回调地址可访问；未携带授权码，未跟随跳转）`,
  redirectFailed: (uri: string, reason: string) => `无法访问回调地址 ${uri}：${reason}`,

  backchannel: (uri: string, status: number) =>
    `POST 无效的 logout_token 至 ${uri}，返回 HTTP ${status}（应用拒绝了无效的登出令牌，地址可响应）`,
  backchannelAccepted: (uri: string, status: number) =>
    `POST 无效的 logout_token 至 ${uri}，返回 HTTP ${status}：地址可响应，但应用接受了无效的登出令牌，请确认应用校验其签名、iss、aud 与登出事件（规范要求返回 400）`,
  backchannelAnswered: (uri: string, status: number) => `POST 无效的 logout_token 至 ${uri}，返回 HTTP ${status}（地址可响应）`,
  backchannelRedirect: (uri: string, status: number, to: string) =>
    `POST 无效的 logout_token 至 ${uri} 返回 HTTP ${status}，跳转至 ${to}（未跟随跳转）：后端登出地址应直接处理通知，不能要求登录`,
  backchannelStatus: (uri: string, status: number) => `POST 无效的 logout_token 至 ${uri} 返回 HTTP ${status}：应用未能处理后端登出通知`,
  backchannelFailed: (uri: string, reason: string) => `后端登出通知无法送达 ${uri}：${reason}`,
  noBackchannel: '未填写后端登出地址：会话结束时不通知应用，已跳过',

  authorized: (username: string, uri: string) =>
    `已通过账号 ${username} 当前的统一身份认证会话完成授权请求（PKCE S256），授权端点签发了授权码并跳转至 ${uri}（未访问回调地址，授权码未交给应用）`,
  authorizeRefused: (error: string, description: string) => `授权端点拒绝了授权请求：${error}${description ? `（${description}）` : ''}`,
  authorizeStatus: (url: string, status: number) =>
    `授权端点 ${url} 返回 HTTP ${status}，没有继续登录：客户端不存在或已停用、回调地址不一致时会如此`,
  authorizeFailed: (url: string, reason: string) => `无法访问授权端点 ${url}：${reason}`,
  authorizeUnexpected: (step: string) => `授权请求在${step}时没有按预期跳转，未取得授权码`,
  authorizeStateMismatch: '授权端点返回的 state 与请求不一致，未取得授权码',
  authorizeIssuerMismatch: (iss: string, issuer: string) => `授权应答的 iss（${iss}）与 issuer ${issuer} 不一致（RFC 9207）`,
  callbackElsewhere: '统一身份认证没有把登录回调识别为本应用，未签发票据',
  secretMissing: '机密客户端须在自检中输入客户端密钥才能交换令牌（仅用于本次自检，不保存）',
  skippedSecretMissing: '未输入客户端密钥，未发起测试登录',
  notGranted: (username: string, appName: string) =>
    `账号 ${username} 未获准登录「${appName}」，已跳过测试登录、令牌交换、ID Token 校验与用户信息：如需测试，请在“应用授权”中添加该账号（或其所在的账号组、角色，或开启企业全员）后重试`,

  exchanged: (url: string, refresh: boolean, confidential: boolean) =>
    `POST ${url} 以授权码与 PKCE 校验码换得访问令牌、ID Token${refresh ? ' 与刷新令牌' : ''}（${confidential ? '机密客户端，client_secret_basic' : '公开客户端，仅 PKCE'}）`,
  wrongSecret: (url: string) =>
    `POST ${url} 返回 invalid_client：客户端认证失败，输入的客户端密钥不正确（遗失可在应用列表中重置密钥，应用须同时改用新密钥）`,
  tokenRefused: (url: string, error: string, description: string) =>
    `POST ${url} 拒绝了令牌请求：${error}${description ? `（${description}）` : ''}`,
  tokenStatus: (url: string, status: number) => `POST ${url} 返回 HTTP ${status}，不是令牌应答`,
  tokenFailed: (url: string, reason: string) => `无法访问令牌端点 ${url}：${reason}`,
  tokenIncomplete: (url: string) => `POST ${url} 的应答缺少 access_token 或 id_token`,

  idTokenVerified: (alg: string, kid: string, sub: string, expires: string) =>
    `ID Token 签名（${alg}${kid ? `，kid ${kid.slice(0, 16)}…` : ''}）已用 JWKS 验证；iss、aud（客户端 ID）、nonce 与有效期均正确（sub ${sub}，有效至 ${expires}）`,
  idTokenSignature: (code: string) => `ID Token 的签名无法用 JWKS 中的公钥验证（${code}）`,
  idTokenClaim: (claim: string, reason: string) => `ID Token 的 ${claim} 不正确：${reason}`,
  idTokenExpired: 'ID Token 已过期（exp），请检查服务器时钟',
  idTokenNonce: 'ID Token 的 nonce 与授权请求不一致',
  idTokenMalformed: (code: string) => `ID Token 不是有效的 JWT（${code}）`,

  userinfo: (url: string, username: string, sub: string, claims: string) =>
    `GET ${url} 返回账号 ${username}（sub ${sub}），声明：${claims}`,
  userinfoStatus: (url: string, status: number) => `GET ${url} 返回 HTTP ${status}，访问令牌未被接受`,
  userinfoUnreadable: (url: string) => `GET ${url} 的应答不是 JSON 格式的用户信息`,
  userinfoSubject: (url: string, got: string, expected: string) => `GET ${url} 返回的 sub（${got}）与 ID Token 的 sub（${expected}）不一致`,
  userinfoFailed: (url: string, reason: string) => `无法访问用户信息端点 ${url}：${reason}`,

  skippedDiscovery: '发现文档或 JWKS 未通过，已跳过',
  skippedUnregistered: '回调地址未通过登记检查，已跳过（不会访问未登记的地址）',
  skippedNoCode: '未取得授权码，已跳过',
  skippedNoToken: '未取得令牌，已跳过',
} as const;
