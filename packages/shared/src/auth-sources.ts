import type { Static } from 'typebox';
import type {
  AuthSourceDetailSchema,
  AuthSourceInputSchema,
  AuthSourceSummarySchema,
  AuthSourceTestInputSchema,
  AuthSourceTestResultSchema,
  AuthSourceTestStepSchema,
  DingtalkSourceConfigSchema,
  DirectoryUserViewSchema,
  FeishuSourceConfigSchema,
  LdapSourceConfigSchema,
  OidcSourceConfigSchema,
  SamlIdpMetadataSchema,
  SamlMetadataReadSchema,
  SamlSourceConfigSchema,
  SamlSpEndpointsSchema,
  SyncChangeSchema,
  SyncCountsSchema,
  SyncJobInputSchema,
  SyncJobSchema,
  SyncMappingSchema,
  SyncRunItemSchema,
  SyncRunSummarySchema,
  WecomSourceConfigSchema,
} from './contracts/auth-sources.js';
import { textLength } from './identifier-rules.js';
import { isAdBindName, isAttributeName, isDistinguishedName, isDnsDomain, isLdapFilter, isLdapsUrl, parseLdapUrl } from './ldap-syntax.js';

/**
 * 认证与同步: an enterprise's authentication sources (LDAP/AD, 企业微信, 钉钉, 飞书) and the
 * sync jobs that keep its accounts and 账号组 in step with them. Labels, limits, messages and the shapes
 * of the console calls, for both sides.
 */

export type AuthSourceType = 'ldap' | 'wecom' | 'dingtalk' | 'feishu' | 'oidc' | 'saml';
export const AUTH_SOURCE_TYPES: readonly AuthSourceType[] = ['ldap', 'wecom', 'dingtalk', 'feishu', 'oidc', 'saml'];
export const AUTH_SOURCE_TYPE_LABELS: Record<AuthSourceType, string> = {
  ldap: 'LDAP / AD',
  wecom: '企业微信',
  dingtalk: '钉钉',
  feishu: '飞书',
  oidc: 'OpenID Connect',
  saml: 'SAML 2.0',
};
/** The chat platforms: QR sign-in on the central login, at most one source of each per enterprise. */
export type ChatSourceType = 'wecom' | 'dingtalk' | 'feishu';
export const CHAT_SOURCE_TYPES: readonly ChatSourceType[] = ['wecom', 'dingtalk', 'feishu'];
export const isChatSourceType = (type: string): type is ChatSourceType => (CHAT_SOURCE_TYPES as readonly string[]).includes(type);

export const AUTH_SOURCE_NAME_MAX = 32;
export const LDAP_TEXT_MAX = 500;
export const SECRET_MAX = 200;
/** CorpID, AgentId, AppKey, App ID: the platforms' identifiers are short ASCII strings. */
export const CHAT_ID_MAX = 64;

/** Which directory attribute fills which account field (LDAP); username is required. */
export type LdapAttributeMapping = LdapSourceConfig['mapping'];

/** LDAP / Active Directory: the bind account's password is the source's secret. */
export type LdapSourceConfig = Static<typeof LdapSourceConfigSchema>;

/** 企业微信: the corp and the self-built app (its Secret is the source's secret). */
export type WecomSourceConfig = Static<typeof WecomSourceConfigSchema>;

/** 钉钉: the internal app's Client ID (AppKey); its Client Secret is the source's secret. */
export type DingtalkSourceConfig = Static<typeof DingtalkSourceConfigSchema>;

/** 飞书: the custom app's App ID; its App Secret is the source's secret. */
export type FeishuSourceConfig = Static<typeof FeishuSourceConfigSchema>;

/** OpenID Connect: the enterprise's own provider (its client secret is the source's secret). */
export type OidcSourceConfig = Static<typeof OidcSourceConfigSchema>;

/** SAML 2.0: the enterprise's identity provider (its metadata's fields) and how its assertions fill an account. */
export type SamlSourceConfig = Static<typeof SamlSourceConfigSchema>;
/** What the enterprise registers at its IdP: our entity ID, ACS, SLO and metadata address for this source. */
export type SamlSpEndpoints = Static<typeof SamlSpEndpointsSchema>;
/** 读取元数据's body and answer. */
export type SamlMetadataRead = Static<typeof SamlMetadataReadSchema>;
export type SamlIdpMetadata = Static<typeof SamlIdpMetadataSchema>;
export type SamlBinding = SamlSourceConfig['ssoBinding'];
export const SAML_BINDING_LABELS: Record<SamlBinding, string> = { redirect: 'HTTP-Redirect', post: 'HTTP-POST' };
/** NameID formats a SAML source may ask its IdP for (SAML Core §8.3). */
export const SAML_SOURCE_NAME_ID_LABELS: Record<SamlSourceConfig['nameIdFormat'], string> = {
  persistent: '持久标识 persistent',
  email: '邮箱 emailAddress',
  unspecified: '未指定 unspecified',
};
export const SAML_TEXT_MAX = 500;
/** A PEM certificate (RSA-4096 with a long chain of names is under 4 KiB). */
export const SAML_CERTIFICATE_MAX = 8000;
export const SAML_CERTIFICATES_MAX = 4;

/**
 * The service-provider addresses of a SAML source: entity ID, metadata and SLO under `/cas/login/saml/{id}`,
 * the ACS the federated sign-in's callback (`/cas/login/federation/{id}/callback`).
 */
export function samlSpEndpoints(portalBase: string, sourceId: number): SamlSpEndpoints {
  const base = `${portalBase}/cas/login/saml/${sourceId}`;
  return {
    entityId: `${base}/metadata`,
    metadataUrl: `${base}/metadata`,
    acsUrl: `${portalBase}/cas/login/federation/${sourceId}/callback`,
    sloUrl: `${base}/slo`,
  };
}

export const SAML_DEFAULTS: SamlSourceConfig = {
  metadataUrl: '',
  idpEntityId: '',
  ssoUrl: '',
  ssoBinding: 'redirect',
  sloUrl: '',
  certificates: [],
  nameIdFormat: 'persistent',
  mapping: { username: 'uid', name: 'displayName', email: 'mail', phone: 'mobile' },
  wantAssertionsSigned: true,
  domains: [],
  jit: false,
  groupIds: [],
  enforce: false,
};

export type AuthSourceConfig =
  | { type: 'ldap'; config: LdapSourceConfig }
  | { type: 'wecom'; config: WecomSourceConfig }
  | { type: 'dingtalk'; config: DingtalkSourceConfig }
  | { type: 'feishu'; config: FeishuSourceConfig }
  | { type: 'oidc'; config: OidcSourceConfig }
  | { type: 'saml'; config: SamlSourceConfig };

/**
 * Federated sign-in (企业身份提供方): sources whose people sign in at the enterprise's own provider
 * and come back with a verified identity. Each has email domains, JIT creation and the forced-provider switch.
 */
export type FederatedSourceType = 'oidc' | 'saml';
export const FEDERATED_SOURCE_TYPES: readonly FederatedSourceType[] = ['oidc', 'saml'];
export const isFederatedSourceType = (type: string): type is FederatedSourceType =>
  (FEDERATED_SOURCE_TYPES as readonly string[]).includes(type);

/** The account fields a provider's claims (or attributes) fill; the username is required. */
export interface FederationMapping {
  username: string;
  name: string;
  email: string;
  phone: string;
}
/** Email domains a source claims (identity-first login sends those addresses to it). */
export const FEDERATION_DOMAINS_MAX = 20;
/** 账号组 a JIT-created account joins. */
export const FEDERATION_GROUPS_MAX = 20;
export const OIDC_TEXT_MAX = 500;

export const OIDC_DEFAULTS: OidcSourceConfig = {
  issuer: 'https://',
  clientId: '',
  scopes: 'openid profile email phone',
  mapping: { username: 'preferred_username', name: 'name', email: 'email', phone: 'phone_number' },
  domains: [],
  jit: false,
  groupIds: [],
  enforce: false,
};

export const LDAP_DEFAULTS: LdapSourceConfig = {
  url: 'ldap://',
  startTls: false,
  bindDn: '',
  baseDn: '',
  userFilter: '(objectClass=inetOrgPerson)',
  mapping: { username: 'uid', name: 'cn', phone: 'mobile', email: 'mail' },
  adDomain: '',
  groupBaseDn: '',
  groupFilter: '(objectClass=groupOfNames)',
};
/** Active Directory's usual attributes, offered when AD 域 is filled in. */
export const AD_MAPPING: LdapAttributeMapping = { username: 'sAMAccountName', name: 'displayName', phone: 'mobile', email: 'mail' };

/** `GET /web-api/console/v1/auth/sources`: one row. */
export type AuthSourceSummary = Static<typeof AuthSourceSummarySchema>;

/** `GET /web-api/console/v1/auth/sources/:id`: the form's values; the secret never leaves the server. */
export type AuthSourceDetail = Static<typeof AuthSourceDetailSchema>;

/** `POST /web-api/console/v1/auth/sources` and `PUT …/:id`: secret '' or absent keeps the stored one. */
export type AuthSourceInput = Static<typeof AuthSourceInputSchema>;

/** `POST /web-api/console/v1/auth/sources/test`: the form's values, and the source id whose stored secret to use when none is typed. */
export type AuthSourceTestInput = Static<typeof AuthSourceTestInputSchema>;

export type AuthSourceTestStep = Static<typeof AuthSourceTestStepSchema>;

/** A user as a source describes them (test sample, preview rows). */
export type DirectoryUserView = Static<typeof DirectoryUserViewSchema>;

export type AuthSourceTestResult = Static<typeof AuthSourceTestResultSchema>;
export const TEST_SAMPLE_SIZE = 5;

// ---------------------------------------------------------------------------------------------- sync

export type SyncLeaverRule = 'disable' | 'keep';
export const SYNC_LEAVER_RULE_LABELS: Record<SyncLeaverRule, string> = { disable: '停用账号', keep: '保留账号（不处理）' };

/** What a sync job copies besides the users' fields. */
export type SyncMapping = Static<typeof SyncMappingSchema>;
export const SYNC_MAPPING_DEFAULTS: SyncMapping = {
  groups: true,
  usernameFrom: 'userid',
  usernamePrefix: '',
  updatePhone: true,
  updateEmail: true,
};
export const SYNC_USERNAME_PREFIX_MAX = 8;
export const SYNC_JOB_NAME_MAX = 32;
export const CRON_MAX = 100;
/** Schedules are read in China time, like every date in the portal. */
export const SYNC_TIMEZONE = 'Asia/Shanghai';
/** Rows a preview or a run's log shows per page. */
export const SYNC_ITEMS_PAGE_SIZE = 20;

export type SyncJob = Static<typeof SyncJobSchema>;

export type SyncJobInput = Static<typeof SyncJobInputSchema>;

/** preview: listed, nothing written yet; running; then succeeded, partial (some items failed), failed (nothing applied past the failure), expired (the preview no longer matches the source). */
export type SyncRunStatus = 'preview' | 'running' | 'succeeded' | 'partial' | 'failed' | 'expired';
export const SYNC_RUN_STATUS_LABELS: Record<SyncRunStatus, string> = {
  preview: '待执行',
  running: '执行中',
  succeeded: '成功',
  partial: '部分失败',
  failed: '失败',
  expired: '预览已过期',
};
export type SyncTrigger = 'manual' | 'schedule';
export const SYNC_TRIGGER_LABELS: Record<SyncTrigger, string> = { manual: '手动', schedule: '定时' };

export type SyncAction = 'create' | 'update' | 'disable' | 'move';
export const SYNC_ACTION_LABELS: Record<SyncAction, string> = { create: '新增', update: '更新', disable: '停用', move: '移动' };
export type SyncObjectKind = 'user' | 'group';
export const SYNC_OBJECT_KIND_LABELS: Record<SyncObjectKind, string> = { user: '账号', group: '账号组' };
export type SyncItemStatus = 'planned' | 'succeeded' | 'failed';
export const SYNC_ITEM_STATUS_LABELS: Record<SyncItemStatus, string> = { planned: '待执行', succeeded: '成功', failed: '失败' };

export type SyncCounts = Static<typeof SyncCountsSchema>;

export type SyncRunSummary = Static<typeof SyncRunSummarySchema>;

/** One field that changes: 姓名, 账号, 手机号, 邮箱, 状态, 位置, 账号组 … */
export type SyncChange = Static<typeof SyncChangeSchema>;

export type SyncRunItem = Static<typeof SyncRunItemSchema>;

/** 测试连接 runs per enterprise and minute: each opens connections to an address the caller typed. */
export const AUTH_SOURCE_TESTS_PER_MINUTE = 10;

export const AuthSourceMessage = {
  testTooMany: (seconds: number) => `测试连接过于频繁，请 ${seconds} 秒后再试`,
  nameRequired: '请输入认证源名称',
  nameTooLong: `认证源名称最多${AUTH_SOURCE_NAME_MAX}个字符`,
  nameTaken: '认证源名称已存在',
  chatTypeTaken: '本企业已配置该类型的认证源',
  /** An address the portal will not connect to (its reason: 不允许连接到该地址（内网地址）…). */
  urlRefused: (reason: string) => `LDAP 地址：${reason}`,
  urlInvalid: '请输入正确的 LDAP 地址，如 ldap://ldap.example.com:389 或 ldaps://ldap.example.com:636',
  startTlsWithLdaps: 'ldaps:// 地址已使用 TLS，不能再启用 StartTLS',
  bindDnRequired: '请输入绑定账号（DN）',
  baseDnRequired: '请输入用户基准 DN',
  dnInvalid: 'DN 格式不正确，如 ou=people,dc=example,dc=com',
  filterInvalid: '用户过滤条件不是有效的 LDAP 过滤条件（RFC 4515），如 (objectClass=inetOrgPerson)',
  groupFilterInvalid: '组过滤条件不是有效的 LDAP 过滤条件（RFC 4515），如 (objectClass=groupOfNames)',
  usernameAttributeRequired: '属性映射必须指定用户名对应的属性',
  attributeInvalid: '属性名须以字母开头，只能包含字母、数字和连字符',
  domainInvalid: 'AD 域格式不正确，如 corp.example.com',
  secretRequired: '请输入密钥',
  secretTooLong: `密钥最多${SECRET_MAX}个字符`,
  corpIdRequired: '请输入企业 ID（CorpID）',
  agentIdRequired: '请输入应用 AgentId',
  appKeyRequired: '请输入应用的 Client ID（AppKey）',
  appIdRequired: '请输入应用的 App ID',
  inUse: '该认证源已关联账号，不能删除；可先停用',
  hasJobs: '该认证源有同步任务，请先删除同步任务',
  notFound: '认证源不存在',
  typeLocked: '认证源类型不能修改',
  ldapTextTooLong: `LDAP 设置项最多${LDAP_TEXT_MAX}个字符`,
  chatIdTooLong: `应用标识最多${CHAT_ID_MAX}个字符`,
  agentIdInvalid: '应用 AgentId 应为数字',
  /** The stored bind password is only ever sent to the address it was typed for. */
  secretRetype: 'LDAP 地址已修改，请重新输入绑定密码',
  /** Central login: the account's LDAP / AD server could not be reached (not counted as a wrong password). */
  sourceUnavailable: '认证源暂时无法连接，请稍后再试或联系企业管理员',
  /** 修改密码 and 忘记密码 of an account whose password is its directory's (LDAP / AD). */
  directoryPassword: '该账号由企业目录（LDAP）管理，请在企业目录中修改密码',
  issuerInvalid: '请输入正确的发现地址（Issuer），如 https://idp.example.com/realms/corp',
  clientIdRequired: '请输入客户端 ID（Client ID）',
  oidcTextTooLong: `OpenID Connect 设置项最多${OIDC_TEXT_MAX}个字符`,
  scopesInvalid: '授权范围须包含 openid，以空格分隔，如 openid profile email',
  claimRequired: '声明映射必须指定用户名对应的声明',
  claimInvalid: '声明名只能包含字母、数字、下划线、连字符、点和冒号',
  domainsInvalid: (domain: string) => `邮箱域名格式不正确：${domain}（如 example.com）`,
  domainsDuplicate: (domain: string) => `邮箱域名重复：${domain}`,
  domainsTooMany: `邮箱域名最多${FEDERATION_DOMAINS_MAX}个`,
  /** A domain is one enterprise's: another's claim refuses the save. */
  domainTaken: (domain: string) => `邮箱域名 ${domain} 已被其他企业或认证源使用`,
  /** The same, when two saves of one domain met at the same moment (the database names no domain). */
  domainRaced: '邮箱域名已被其他企业或认证源使用',
  domainUnknown: '该企业未认领此邮箱域名',
  /** A public mail service's domain says nothing of who the person works for. */
  domainPublic: (domain: string) => `邮箱域名 ${domain} 是公共邮箱域名，不能作为企业邮箱域名`,
  /** Another enterprise's accounts hold addresses there, or its AD 域 is that domain. */
  domainOfOther: (domain: string) => `邮箱域名 ${domain} 已被其他企业的账号或 AD 域使用，不能认领`,
  groupsTooMany: `默认账号组最多${FEDERATION_GROUPS_MAX}个`,
  groupUnknown: '默认账号组不存在',
  federatedNoSync: '企业身份提供方（OpenID Connect、SAML 2.0）的认证源不能同步',
  samlEntityIdRequired: '请输入 IdP 实体 ID（Entity ID）',
  samlSsoUrlRequired: '请输入 IdP 单点登录地址（SSO URL）',
  samlUrlInvalid: '地址须为 http:// 或 https:// 开头的完整网址',
  samlTextTooLong: `SAML 设置项最多${SAML_TEXT_MAX}个字符`,
  samlCertificateRequired: '请提供 IdP 的签名证书',
  samlCertificateInvalid: '签名证书不是有效的 X.509 证书（PEM 或 Base64）',
  samlTooManyCertificates: `签名证书最多${SAML_CERTIFICATES_MAX}个`,
  samlAttributeRequired: '属性映射必须指定用户名对应的属性（或 NameID）',
  samlAttributeInvalid: '属性名不能包含空白或控制字符',
  samlMetadataMissing: '请输入元数据地址或粘贴元数据 XML',
  /** The metadata could not be read (its reason after the colon). */
  samlMetadataInvalid: (reason: string) => `IdP 元数据无效：${reason}`,
  samlMetadataUnreachable: (reason: string) => `无法获取 IdP 元数据：${reason}`,
} as const;

const samlText = (value: string) => (textLength(value) > SAML_TEXT_MAX ? AuthSourceMessage.samlTextTooLong : undefined);
const isWebUrl = (value: string) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value);
/** A certificate's Base64 body, whatever its PEM armour and line breaks. */
export const certificateBase64 = (value: string) => value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
/** The mapping's word for the NameID: 用户名 may be the subject itself (an email or account NameID). */
export const SAML_NAME_ID = 'NameID';

function requiredText(value: string, max: number, missing: string, tooLong: string): string | undefined {
  if (!value.trim()) return missing;
  return textLength(value) > max ? tooLong : undefined;
}
const ldapText = (value: string) => (textLength(value) > LDAP_TEXT_MAX ? AuthSourceMessage.ldapTextTooLong : undefined);
const chatId = (value: string, missing: string) => requiredText(value, CHAT_ID_MAX, missing, AuthSourceMessage.chatIdTooLong);

/**
 * One rule per field of 认证源: the message for a bad value, or undefined. The console's form runs
 * each under its field and the server runs `config` (their first problem) on every write and test:
 * the same functions and messages on both sides. The LDAP syntax is ldap-syntax.ts's.
 */
/** A claimed email domain's review by a platform operator (租户管理): only 已批准 routes identity-first sign-ins. */
export const FEDERATION_DOMAIN_STATUS_LABELS = { pending: '待审核', approved: '已批准', refused: '已驳回' } as const;
export type FederationDomainStatus = keyof typeof FEDERATION_DOMAIN_STATUS_LABELS;

/** A domain's ASCII (punycode) form as browsers and Node read a host name; the text itself when it is no host name. */
function asciiDomain(domain: string): string {
  if (/^[\x21-\x7e]*$/.test(domain)) return domain;
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return domain;
  }
}

export const AuthSourceRules = {
  name: (value: string) => requiredText(value, AUTH_SOURCE_NAME_MAX, AuthSourceMessage.nameRequired, AuthSourceMessage.nameTooLong),
  /** Kept as typed (a password may hold spaces). `stored`: the source keeps one, so '' leaves it as it is; creating needs one. */
  secret(value: string, stored: boolean): string | undefined {
    if (!value) return stored ? undefined : AuthSourceMessage.secretRequired;
    return textLength(value) > SECRET_MAX ? AuthSourceMessage.secretTooLong : undefined;
  },
  /** 地址: `ldap://host[:port]` or `ldaps://host[:port]` (parseLdapUrl). */
  url: (value: string) => ldapText(value) ?? (parseLdapUrl(value) ? undefined : AuthSourceMessage.urlInvalid),
  /** StartTLS (RFC 4511 §4.14) upgrades a plain connection; an `ldaps://` one is TLS already. */
  startTls: (startTls: boolean, url: string) => (startTls && isLdapsUrl(url) ? AuthSourceMessage.startTlsWithLdaps : undefined),
  /** 绑定账号: a DN; with an AD 域, also AD's `user@domain` or `DOMAIN\user` (isAdBindName). */
  bindDn(value: string, adDomain: string): string | undefined {
    const problem = requiredText(value, LDAP_TEXT_MAX, AuthSourceMessage.bindDnRequired, AuthSourceMessage.ldapTextTooLong);
    if (problem) return problem;
    const name = value.trim();
    if (adDomain.trim() && isAdBindName(name)) return undefined;
    return isDistinguishedName(name) ? undefined : AuthSourceMessage.dnInvalid;
  },
  /** 用户基准 DN. */
  baseDn(value: string): string | undefined {
    const problem = requiredText(value, LDAP_TEXT_MAX, AuthSourceMessage.baseDnRequired, AuthSourceMessage.ldapTextTooLong);
    return problem ?? (isDistinguishedName(value) ? undefined : AuthSourceMessage.dnInvalid);
  },
  /** 用户过滤条件: an RFC 4515 filter (isLdapFilter); there is always one. */
  userFilter: (value: string) => ldapText(value) ?? (isLdapFilter(value) ? undefined : AuthSourceMessage.filterInvalid),
  /** AD 域: optional; set, the directory is Active Directory. */
  adDomain(value: string): string | undefined {
    if (!value.trim()) return undefined;
    return ldapText(value) ?? (isDnsDomain(value.trim()) ? undefined : AuthSourceMessage.domainInvalid);
  },
  /** 属性映射's 用户名: required, an attribute name. */
  usernameAttribute(value: string): string | undefined {
    const problem = requiredText(value, LDAP_TEXT_MAX, AuthSourceMessage.usernameAttributeRequired, AuthSourceMessage.ldapTextTooLong);
    return problem ?? (isAttributeName(value.trim()) ? undefined : AuthSourceMessage.attributeInvalid);
  },
  /** 姓名, 手机号, 邮箱: optional (empty: not read from the directory). */
  attribute(value: string): string | undefined {
    if (!value.trim()) return undefined;
    return ldapText(value) ?? (isAttributeName(value.trim()) ? undefined : AuthSourceMessage.attributeInvalid);
  },
  /** 组基准 DN: optional; empty, no 账号组 come from the directory. */
  groupBaseDn(value: string): string | undefined {
    if (!value.trim()) return undefined;
    return ldapText(value) ?? (isDistinguishedName(value) ? undefined : AuthSourceMessage.dnInvalid);
  },
  /** 组过滤条件: needed only where groups are read (a 组基准 DN is set); a filter typed is a filter anyway. */
  groupFilter(value: string, groupBaseDn: string): string | undefined {
    if (!value.trim() && !groupBaseDn.trim()) return undefined;
    return ldapText(value) ?? (isLdapFilter(value) ? undefined : AuthSourceMessage.groupFilterInvalid);
  },
  corpId: (value: string) => chatId(value, AuthSourceMessage.corpIdRequired),
  agentId(value: string): string | undefined {
    return chatId(value, AuthSourceMessage.agentIdRequired) ?? (/^\d+$/.test(value.trim()) ? undefined : AuthSourceMessage.agentIdInvalid);
  },
  appKey: (value: string) => chatId(value, AuthSourceMessage.appKeyRequired),
  appId: (value: string) => chatId(value, AuthSourceMessage.appIdRequired),
  /** 发现地址 (Issuer): an http(s) URL without query or fragment; its /.well-known/openid-configuration is read. */
  issuer(value: string): string | undefined {
    if (textLength(value) > OIDC_TEXT_MAX) return AuthSourceMessage.oidcTextTooLong;
    try {
      const url = new URL(value.trim());
      const ok = (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.search && !url.hash;
      return ok && !url.username && !url.password ? undefined : AuthSourceMessage.issuerInvalid;
    } catch {
      return AuthSourceMessage.issuerInvalid;
    }
  },
  clientId: (value: string) => requiredText(value, OIDC_TEXT_MAX, AuthSourceMessage.clientIdRequired, AuthSourceMessage.oidcTextTooLong),
  /** 授权范围: space-separated scope tokens (RFC 6749 §3.3), openid among them. */
  scopes(value: string): string | undefined {
    if (textLength(value) > OIDC_TEXT_MAX) return AuthSourceMessage.oidcTextTooLong;
    const tokens = value.trim().split(/\s+/);
    return tokens.includes('openid') && tokens.every((t) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(t))
      ? undefined
      : AuthSourceMessage.scopesInvalid;
  },
  /** 声明映射: a claim name (`preferred_username`, `upn`, a namespaced one such as `https://x/y` is not taken). */
  claim(value: string, required: boolean): string | undefined {
    if (!value.trim()) return required ? AuthSourceMessage.claimRequired : undefined;
    if (textLength(value) > 100) return AuthSourceMessage.oidcTextTooLong;
    return /^[A-Za-z_][\w.:-]*$/.test(value.trim()) ? undefined : AuthSourceMessage.claimInvalid;
  },
  /** 邮箱域名: DNS names, each once, at most FEDERATION_DOMAINS_MAX. */
  domains(values: readonly string[]): string | undefined {
    if (values.length > FEDERATION_DOMAINS_MAX) return AuthSourceMessage.domainsTooMany;
    const seen = new Set<string>();
    for (const raw of values) {
      // As the server keeps it: without `@` or a trailing dot, an internationalised one in its ASCII form.
      const domain = asciiDomain(raw.trim().replace(/^@/, '').replace(/\.$/, '').toLowerCase());
      if (!isDnsDomain(domain) || !domain.includes('.')) return AuthSourceMessage.domainsInvalid(raw);
      if (seen.has(domain)) return AuthSourceMessage.domainsDuplicate(domain);
      seen.add(domain);
    }
    return undefined;
  },
  /** SAML: the IdP's entity ID (any URI, usually its metadata address). */
  samlEntityId: (value: string) => (value.trim() ? samlText(value) : AuthSourceMessage.samlEntityIdRequired),
  /** SAML: an http(s) address; `required` for the SSO URL, the SLO URL and the metadata address may be empty. */
  samlUrl(value: string, required: boolean): string | undefined {
    if (!value.trim()) return required ? AuthSourceMessage.samlSsoUrlRequired : undefined;
    return samlText(value) ?? (isWebUrl(value.trim()) ? undefined : AuthSourceMessage.samlUrlInvalid);
  },
  /** SAML: at least one signing certificate, each Base64 of a DER certificate (the server parses them too). */
  samlCertificates(values: readonly string[]): string | undefined {
    if (values.length === 0) return AuthSourceMessage.samlCertificateRequired;
    if (values.length > SAML_CERTIFICATES_MAX) return AuthSourceMessage.samlTooManyCertificates;
    const bad = values.some((v) => {
      const body = certificateBase64(v);
      return body.length < 100 || body.length > SAML_CERTIFICATE_MAX || !/^[A-Za-z0-9+/]+={0,2}$/.test(body);
    });
    return bad ? AuthSourceMessage.samlCertificateInvalid : undefined;
  },
  /** SAML: an attribute's Name (often a URI), or `NameID`; empty: not read. */
  samlAttribute(value: string, required = false): string | undefined {
    if (!value.trim()) return required ? AuthSourceMessage.samlAttributeRequired : undefined;
    return samlText(value) ?? (/[\s\p{Cc}]/u.test(value.trim()) ? AuthSourceMessage.samlAttributeInvalid : undefined);
  },
  groupIds: (values: readonly number[]) => (values.length > FEDERATION_GROUPS_MAX ? AuthSourceMessage.groupsTooMany : undefined),
  /** The first problem of a source's settings by its type, in the form's order (the secret is checked by whoever stores it). */
  config(source: AuthSourceConfig): string | undefined {
    switch (source.type) {
      case 'ldap': {
        const c = source.config;
        return (
          AuthSourceRules.url(c.url) ??
          AuthSourceRules.startTls(c.startTls, c.url) ??
          AuthSourceRules.bindDn(c.bindDn, c.adDomain) ??
          AuthSourceRules.baseDn(c.baseDn) ??
          AuthSourceRules.userFilter(c.userFilter) ??
          AuthSourceRules.adDomain(c.adDomain) ??
          AuthSourceRules.usernameAttribute(c.mapping.username) ??
          AuthSourceRules.attribute(c.mapping.name) ??
          AuthSourceRules.attribute(c.mapping.phone) ??
          AuthSourceRules.attribute(c.mapping.email) ??
          AuthSourceRules.groupBaseDn(c.groupBaseDn) ??
          AuthSourceRules.groupFilter(c.groupFilter, c.groupBaseDn)
        );
      }
      case 'wecom':
        return AuthSourceRules.corpId(source.config.corpId) ?? AuthSourceRules.agentId(source.config.agentId);
      case 'dingtalk':
        return AuthSourceRules.appKey(source.config.appKey) ?? AuthSourceRules.corpId(source.config.corpId);
      case 'feishu':
        return AuthSourceRules.appId(source.config.appId);
      case 'oidc': {
        const c = source.config;
        return (
          AuthSourceRules.issuer(c.issuer) ??
          AuthSourceRules.clientId(c.clientId) ??
          AuthSourceRules.scopes(c.scopes) ??
          AuthSourceRules.claim(c.mapping.username, true) ??
          AuthSourceRules.claim(c.mapping.name, false) ??
          AuthSourceRules.claim(c.mapping.email, false) ??
          AuthSourceRules.claim(c.mapping.phone, false) ??
          AuthSourceRules.domains(c.domains) ??
          AuthSourceRules.groupIds(c.groupIds)
        );
      }
      case 'saml': {
        const c = source.config;
        return (
          AuthSourceRules.samlUrl(c.metadataUrl, false) ??
          AuthSourceRules.samlEntityId(c.idpEntityId) ??
          AuthSourceRules.samlUrl(c.ssoUrl, true) ??
          AuthSourceRules.samlUrl(c.sloUrl, false) ??
          AuthSourceRules.samlCertificates(c.certificates) ??
          AuthSourceRules.samlAttribute(c.mapping.username, true) ??
          AuthSourceRules.samlAttribute(c.mapping.name) ??
          AuthSourceRules.samlAttribute(c.mapping.email) ??
          AuthSourceRules.samlAttribute(c.mapping.phone) ??
          AuthSourceRules.domains(c.domains) ??
          AuthSourceRules.groupIds(c.groupIds)
        );
      }
    }
  },
} as const;

export const SyncMessage = {
  jobNameRequired: '请输入任务名称',
  jobNameTooLong: `任务名称最多${SYNC_JOB_NAME_MAX}个字符`,
  jobNameTaken: '同步任务名称已存在',
  cronInvalid: '定时表达式无效：请使用 5 段 cron 表达式，如 0 2 * * *（每天 2:00）',
  prefixInvalid: `用户名前缀为最多${SYNC_USERNAME_PREFIX_MAX}位字母、数字或下划线，以字母开头`,
  sourceDisabled: '认证源已停用，不能同步',
  busy: '该任务正在同步，请稍后再试',
  previewExpired: '预览已过期：目录数据在预览后发生了变化，请重新预览',
  previewConsumed: '该预览已执行过，请重新预览',
  notPreview: '只能执行待执行的预览',
} as const;
