import type { Static } from 'typebox';
import type { SelfTestBodySchema, SelfTestPrecheckSchema, SelfTestResultSchema, SelfTestStepSchema } from './contracts/sso-self-test.js';
/**
 * 接入自检 (tool 03 统一身份认证集成): the portal checks one application's integration
 * end to end and answers a checklist, each step with the exact reason it failed.
 */

export const SELF_TEST_STEPS = ['registered', 'reachable', 'logout', 'signIn', 'validate', 'attributes'] as const;
export type SelfTestStepKey = (typeof SELF_TEST_STEPS)[number];
export const SELF_TEST_STEP_TITLES: Record<SelfTestStepKey, string> = {
  registered: '服务地址已登记',
  reachable: '服务地址可访问',
  logout: '注销地址可响应',
  signIn: '测试账号登录',
  validate: '票据校验（/p3/serviceValidate）',
  attributes: '属性释放',
};

export type SelfTestStepStatus = 'passed' | 'failed' | 'skipped';

export type SelfTestStep = Static<typeof SelfTestStepSchema>;

/** `POST /web-api/console/v1/sso-app/{id}/self-test`. */
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
