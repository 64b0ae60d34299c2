import type { Generated, Insertable, Selectable } from 'kysely';
import type {
  ApplicantRole,
  AppSubscriptionStatus,
  CertificationFilePurpose,
  CertificationStatus,
  LookupChannel,
  LookupOutcome,
  NotificationKind,
  OpenServiceIcon,
  OpenServiceToolId,
  OpenServiceToolStatus,
  PrefixRequestStatus,
} from '@portal/shared';

/** Key/value settings of the public site (footer texts, app download address…). */
export interface SiteSettingTable {
  key: string;
  value: string;
  updated_at: string;
}

/** Items of the public header menu (spec section 2). */
export interface NavItemTable {
  id: Generated<number>;
  key: string;
  title: string;
  sort: number;
  enabled: number;
}

/** Footer link groups and their links. */
export interface FooterLinkTable {
  id: Generated<number>;
  group_title: string;
  title: string;
  url: string;
  sort: number;
}

export interface CmsCategoryTable {
  id: Generated<number>;
  /** Stable code the API calls `categoryId` (news, policy, knowledge…). */
  code: string;
  name: string;
  /** Which list shows it: `news` (/news) or `knowledge` (/knowledge). */
  channel: string;
  parent_id: number | null;
  sort: number;
  created_at: string;
}

export type ArticleStatus = 'draft' | 'published' | 'offline';

export interface CmsArticleTable {
  id: Generated<number>;
  uuid: string;
  title: string;
  summary: string;
  thumbnail: string | null;
  /** Sanitised HTML. */
  content: string;
  /** Policy document number (文号). */
  number: string | null;
  category_id: number;
  /** `YYYY-MM-DD HH:mm:ss`, China time; null until first published. */
  publish_time: string | null;
  data_source_name: string | null;
  /** Policy validity in days; -1 or null means 长期有效. */
  expiration_day: number | null;
  status: ArticleStatus;
  view_count: number;
  created_at: string;
  updated_at: string;
}

/** 1- and 2-character substrings of title and summary, for short Chinese search keys. */
export interface CmsArticleGramTable {
  gram: string;
  article_id: number;
}

/** One row (id 1): bumped by triggers on every article write that can change a search's matches. */
export interface CmsArticleRevisionTable {
  id: number;
  revision: number;
}

export interface AppApplicationTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  application_description: string;
  image_path: string;
  icon_path: string;
  category: string;
  provider: string;
  content: string;
  recommended: number;
  sort: number;
  status: string;
  created_at: string;
  /** Single sign-on: the CAS service prefix, its host for the registry's lookup, the 注销地址 and released attributes (comma-separated); '' when not on single sign-on. */
  service_url: Generated<string>;
  service_host: Generated<string>;
  logout_url: Generated<string>;
  attributes: Generated<string>;
}

/** 开放服务: one of the six developer tools, ids '01'..'06'. */
export interface OpenServiceToolTable {
  id: OpenServiceToolId;
  title: string;
  summary: string;
  /** Sanitised HTML. */
  body: string;
  icon: OpenServiceIcon;
  sort: number;
  status: Generated<OpenServiceToolStatus>;
  updated_at: string;
}

/** 申请使用: an enterprise's request for an application of the application center, and its decision. */
export interface AppSubscriptionTable {
  id: Generated<number>;
  enterprise_id: number;
  application_id: number;
  status: AppSubscriptionStatus;
  purpose: Generated<string>;
  decision_note: Generated<string>;
  applicant_id: number | null;
  decided_by: Generated<number | null>;
  created_at: string;
  decided_at: Generated<string | null>;
}

/** Home page blocks: banners, quick links, KPI tiles, awards. */
export interface HomeBlockTable {
  id: Generated<number>;
  kind: 'banner' | 'link' | 'kpi' | 'award';
  title: string;
  // Columns with defaults: optional on insert.
  subtitle: Generated<string>;
  icon: Generated<string>;
  link_url: Generated<string>;
  open_url_flag: Generated<number>;
  kpi: Generated<string>;
  uom: Generated<string>;
  sort: number;
  /** 0 hides the block from the public home without deleting it. */
  enabled: Generated<number>;
}

/** Server-wide secrets generated at first start (HMAC keys, the password-transport RSA key pair). */
export interface SystemSecretTable {
  name: string;
  value: string;
  created_at: string;
}

export type EnterpriseStatus = 'active' | 'disabled';

export interface EnterpriseTable {
  id: Generated<number>;
  name: string;
  certification_status: CertificationStatus;
  /** A disabled enterprise's accounts cannot log in. */
  status: Generated<EnterpriseStatus>;
  created_at: string;
  /** 企业信息. 统一社会信用代码: null until given, unique. */
  credit_code: string | null;
  legal_representative: Generated<string>;
  address: Generated<string>;
  /** GB/T 4754 大类 code, '' when not given. */
  industry_code: Generated<string>;
  /** City code (GB/T 2260), '' when not given. */
  region_code: Generated<string>;
  contact_name: Generated<string>;
  contact_phone: Generated<string>;
  introduction: Generated<string>;
  /** Path under /files, '' for none. */
  logo: Generated<string>;
  certified_at: string | null;
  updated_at: string | null;
}

/** A certification material: stored under PRIVATE_FILES_DIR, never under /files. */
export interface PrivateFileTable {
  id: Generated<number>;
  enterprise_id: number;
  account_id: number | null;
  purpose: CertificationFilePurpose;
  /** yyyy/mm/<uuid>.<ext> under PRIVATE_FILES_DIR. */
  storage_key: string;
  mime: string;
  bytes: number;
  original_name: Generated<string>;
  created_at: string;
}

/** 企业认证: one application and its decision. */
export interface CertificationApplicationTable {
  id: Generated<number>;
  enterprise_id: number;
  applicant_id: number | null;
  status: 'pending' | 'approved' | 'rejected';
  enterprise_name: string;
  credit_code: string;
  legal_representative: string;
  applicant_role: ApplicantRole;
  licence_file_id: number;
  authorization_file_id: number | null;
  submitted_at: string;
  reviewer_id: number | null;
  decided_at: string | null;
  /** Comma-separated CERTIFICATION_REJECT_REASONS codes, '' unless rejected. */
  reasons: Generated<string>;
  comment: Generated<string>;
}

/** 消息中心: a message to one account. */
export interface NotificationTable {
  id: Generated<number>;
  account_id: number;
  kind: NotificationKind;
  title: string;
  content: Generated<string>;
  link: Generated<string>;
  read_at: string | null;
  created_at: string;
}

/** A browser (name, system, device type) an account signed in from. */
export interface KnownBrowserTable {
  account_id: number;
  fingerprint: string;
  first_seen_at: string;
  last_seen_at: string;
}

/** 申请标识前缀. */
export interface IdfPrefixRequestTable {
  id: Generated<number>;
  enterprise_id: number;
  applicant_id: number | null;
  prefix: string;
  purpose: Generated<string>;
  status: PrefixRequestStatus;
  reviewer_id: number | null;
  reason: Generated<string>;
  created_at: string;
  decided_at: string | null;
}

/** An uploaded file, counted against its enterprise's quota (UPLOAD_QUOTA_MB). */
export interface UploadedFileTable {
  id: Generated<number>;
  /** The uploader's enterprise; null for an account without one. */
  enterprise_id: number | null;
  account_id: number | null;
  /** The path under /files, e.g. /uploads/2026/05/….png. */
  path: string;
  bytes: number;
  created_at: string;
}

/** Bytes of each enterprise's uploaded files (0: accounts without an enterprise). */
export interface UploadUsageTable {
  enterprise_id: number;
  /** bigint: only ever raised in SQL, never read (PostgreSQL would answer a string). */
  bytes: number;
}

/** `deleted` is soft: the username and phone stay reserved and audit rows keep their names. */
export type AccountStatus = 'active' | 'disabled' | 'deleted';

export interface AccountTable {
  id: Generated<number>;
  username: string;
  name: string;
  phone: string;
  email: Generated<string>;
  /** Staff number shown in the header state (spec section 3). */
  number: string;
  /** argon2id. */
  password_hash: string;
  enterprise_id: number | null;
  status: AccountStatus;
  /** 1: the central login asks for a new password before anything else (set by 新增 and 重置密码). */
  must_change_password: Generated<number>;
  last_login_at: string | null;
  deleted_at: string | null;
  /** When the holder last set the password (expiry counts from here; null: set before expiry was tracked, counts as now). */
  password_changed_at: string | null;
  /** TOTP (RFC 6238) base32 secret once enrolled; the last accepted time step (each code works once). */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
}

/** A role: a system role (enterprise_id NULL) or an enterprise's custom role; codes are unique per enterprise. */
export interface RoleTable {
  id: Generated<number>;
  enterprise_id: number | null;
  code: string;
  name: string;
  description: Generated<string>;
}

export interface RoleAuthorityTable {
  role_id: number;
  authority: string;
}

export interface AccountRoleTable {
  account_id: number;
  role_id: number;
}

export interface AccountGroupTable {
  id: Generated<number>;
  enterprise_id: number;
  name: string;
  description: Generated<string>;
  created_at: string;
}

export interface AccountGroupMemberTable {
  group_id: number;
  account_id: number;
  created_at: string;
}

/** Roles granted to a group apply to its members. */
export interface AccountGroupRoleTable {
  group_id: number;
  role_id: number;
}

export type JoinRequestStatus = 'pending' | 'approved' | 'rejected';

/** Registration that named an existing enterprise: its administrators approve or reject it. */
export interface JoinRequestTable {
  id: Generated<number>;
  enterprise_id: number;
  account_id: number;
  status: JoinRequestStatus;
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
}

/** 邀请成员: a one-time code sent to a phone; registering with it joins the enterprise at once. */
export interface EnterpriseInvitationTable {
  id: Generated<number>;
  enterprise_id: number;
  phone: string;
  code_hash: string;
  invited_by: number | null;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export type SsoApplicationStatus = 'enabled' | 'disabled';

/** 应用列表: an enterprise's application on single sign-on. */
export interface SsoApplicationTable {
  id: Generated<number>;
  enterprise_id: number;
  name: string;
  icon: Generated<string>;
  category: Generated<string>;
  description: Generated<string>;
  protocol: Generated<string>;
  logout_url: Generated<string>;
  /** Released attribute names, comma-separated. */
  attributes: Generated<string>;
  all_members: Generated<number>;
  status: Generated<SsoApplicationStatus>;
  created_at: string;
  updated_at: string;
  /** A subscribed platform application: the application center's row it copies; null for the enterprise's own. */
  platform_app_id: Generated<number | null>;
  /** OpenID Connect settings, read when protocol is 'oidc' (identity/oidc/). */
  oidc_client_id: Generated<string | null>;
  /** sha256 of the client secret ('sha256:' + base64url); '' for a public client. */
  oidc_secret_hash: Generated<string>;
  oidc_client_type: Generated<OidcClientType>;
  /** JSON arrays of absolute addresses. */
  oidc_redirect_uris: Generated<string>;
  oidc_post_logout_uris: Generated<string>;
  oidc_backchannel_logout_uri: Generated<string>;
  oidc_initiate_login_uri: Generated<string>;
  /** Space-separated scopes the application may ask for. */
  oidc_scopes: Generated<string>;
  oidc_access_token_seconds: Generated<number>;
  oidc_id_token_seconds: Generated<number>;
  oidc_refresh_token_seconds: Generated<number>;
}

export type OidcClientType = 'confidential' | 'public';

/** The SAML identity provider's signing keys: one per generation, the private key sealed. */
export interface SamlSigningKeyTable {
  id: Generated<number>;
  generation: number;
  certificate: string;
  private_key: string;
  created_at: string;
  retire_at: string | null;
}

/** A SAML application's service-provider settings (identity/saml/). */
export interface SamlServiceProviderTable {
  application_id: number;
  entity_id: string;
  acs_url: string;
  slo_url: string;
  certificate: string;
  name_id_format: string;
  sign_response: number;
  sign_assertion: number;
  want_requests_signed: number;
}

/** A SAML sign-in from the SP's request (or 我的应用) to its response, kept for single logout. */
export interface SamlSignInTable {
  id: string;
  application_id: number;
  request_id: string | null;
  relay_state: Generated<string>;
  force_authn: Generated<number>;
  /** The AuthnRequest's IsPassive: the central login may show nothing (a NoPassive answer without a session). */
  is_passive: Generated<number>;
  created_at: string;
  expires_at: string;
  answered_at: string | null;
  account_id: number | null;
  name_id: string | null;
  ticket_id: string | null;
}

/** What the OpenID provider keeps (its adapter's rows): one row per model instance. */
export interface OidcModelTable {
  kind: string;
  id: string;
  /** The model's payload as JSON. */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

/** The OpenID provider's signing keys (JWK), the private half sealed. */
export interface OidcSigningKeyTable {
  id: Generated<number>;
  generation: number;
  alg: string;
  kid: string;
  public_jwk: string;
  private_jwk: string;
  created_at: string;
  retire_at: string | null;
}

/** 机器客户端: an enterprise's own system calling its APIs with client_credentials. */
export interface MachineClientTable {
  id: Generated<number>;
  enterprise_id: number;
  name: string;
  client_id: string;
  secret_hash: string;
  /** Space-separated. */
  scopes: Generated<string>;
  status: Generated<'enabled' | 'disabled'>;
  created_at: string;
  updated_at: string;
}

/** The one namespace of OpenID client ids (applications' and machine clients'). */
export interface OidcClientIdTable {
  client_id: string;
  kind: 'application' | 'machine';
}

/** 服务地址: a URL prefix of an application, found by its host. */
export interface SsoApplicationServiceTable {
  id: Generated<number>;
  application_id: number;
  enterprise_id: number;
  prefix: string;
  host: string;
}

export type GrantSubjectType = 'group' | 'role' | 'account';

/** 应用授权: who may sign in to an application. */
export interface SsoAppGrantTable {
  application_id: number;
  subject_type: GrantSubjectType;
  subject_id: number;
}

export type TwoFactorMode = 'off' | 'admins' | 'all' | 'roles';
export type SessionOverflow = 'end-oldest' | 'refuse';

/** 安全设置 of an enterprise (no row: the platform defaults from configuration). */
export interface SecurityPolicyTable {
  enterprise_id: number;
  password_min_length: number;
  /** Required character classes, comma-separated: lower, upper, digit, symbol. */
  password_classes: Generated<string>;
  password_no_username: Generated<number>;
  password_history: Generated<number>;
  password_expiry_days: Generated<number>;
  lock_max_failures: number;
  lock_minutes: number;
  session_idle_minutes: number;
  session_max_hours: number;
  /** Concurrent SSO sessions an account may hold; 0: no cap. */
  session_max_concurrent: Generated<number>;
  session_overflow: Generated<SessionOverflow>;
  two_factor: Generated<TwoFactorMode>;
  /** 允许的验证方式, comma-separated: totp, sms, passkey. */
  two_factor_methods: Generated<string>;
  /** 信任此设备: days a browser may skip the second factor; 0: off. */
  trust_device_days: Generated<number>;
  updated_at: string;
  /** 审计日志保留天数: 登录日志 and 操作日志 rows older are archived, then deleted (at least 180); null: the platform default. */
  audit_retention_days: number | null;
}

/** A hash chain's head: 登录日志 (`login`) or 操作日志 (`audit`) of one enterprise (0: rows of none). */
export interface AuditChainTable {
  log: 'login' | 'audit';
  enterprise_key: number;
  /** The last row's place (0: none yet). */
  seq: number;
  last_hash: string;
  /** The last archived and purged row: the first remaining row follows it (0 and the genesis hash at first). */
  anchor_seq: number;
  anchor_hash: string;
}

/** Where each log's chain began: rows with a lower id were written before it. */
export interface AuditChainStartTable {
  log: 'login' | 'audit';
  first_id: number;
  /** When the chain began: a row without a place claiming a later time was put in directly. */
  started_at: string;
}

/** 安全设置's 按角色: a role whose holders sign in with a second factor. */
export interface SecurityPolicyRoleTable {
  enterprise_id: number;
  role_id: number;
}

/** 信任此设备: a browser that passed the second factor; its cookie's token is kept only as SHA-256 hex. */
export interface TrustedDeviceTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  /** The browser's User-Agent as sent (cut at 200 characters), shown as browser and system. */
  user_agent: Generated<string>;
  ip: Generated<string>;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

/** 安全设置's 控制台访问: one network an enterprise's console may be reached from (none listed: any address). */
export interface ConsoleIpRuleTable {
  enterprise_id: number;
  /** The order the administrator listed them in. */
  position: number;
  /** Canonical CIDR (`10.0.0.0/8`, `2001:db8::/32`; a single address as /32 or /128). */
  network: string;
}

export interface AccountRecoveryCodeTable {
  account_id: number;
  code_hash: string;
  used_at: string | null;
}

/** A passkey (WebAuthn credential) of an account. */
export interface WebauthnCredentialTable {
  id: Generated<number>;
  account_id: number;
  /** The account's enterprise when it was registered: a sign-in with it elsewhere is refused. */
  enterprise_id: number | null;
  /** base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter last seen (bigint: a string on PostgreSQL). */
  counter: Generated<number | string>;
  /** The authenticator's transports, comma-separated (`internal,hybrid`). */
  transports: Generated<string>;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn ceremony's challenge (base64url), spent once. */
export interface WebauthnChallengeTable {
  challenge: string;
  purpose: 'register' | 'sign-in' | 'second-factor';
  /** The account it was issued to (registration, second factor); null for a passwordless sign-in. */
  account_id: number | null;
  expires_at: string;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  account_id: number;
  password_hash: string;
  created_at: string;
}

/** 登录日志: one sign-in attempt. */
export interface LoginLogTable {
  id: Generated<number>;
  enterprise_id: number | null;
  account_id: number | null;
  username: string;
  name: Generated<string>;
  result: 'success' | 'failure' | 'logout';
  reason: Generated<string>;
  application_id: number | null;
  application_name: Generated<string>;
  ip: Generated<string>;
  user_agent: Generated<string>;
  created_at: string;
  /** A 登出 row's ended session (在线会话's handle), which its single-logout deliveries carry too. */
  session_handle: string | null;
  /** How the sign-in was made: `password`, `passkey`; empty when not recorded. */
  method: Generated<string>;
  /** Place in the enterprise's chain (docs/architecture.md, "Tamper-evident audit"); null: written before the chain began. */
  chain_seq: number | null;
  /** The hash of the chain's previous row (or of its anchor). */
  prev_hash: string | null;
  /** SHA-256 of this row's canonical serialization with its place and the previous hash. */
  row_hash: string | null;
}

export interface PortalMenuTable {
  id: Generated<number>;
  parent_id: number | null;
  auth_code: string;
  name: string;
  path: string;
  title: string;
  icon: Generated<string>;
  sort: Generated<number>;
}

export interface CasTgtTable {
  id: string;
  account_id: number;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  /** The client that opened the SSO session (在线会话). */
  ip: Generated<string>;
  user_agent: Generated<string>;
  /** How the session was authenticated: 'password', 'mfa' or '' (another way, or not known). */
  authn: Generated<string>;
}

export type LogoutDeliveryState = 'delivered' | 'retrying' | 'failed';

/** A single-logout message to one application for an ended sign-on session (CAS or OpenID Connect). */
export interface LogoutDeliveryTable {
  id: Generated<number>;
  enterprise_id: number | null;
  account_id: number;
  username: string;
  session_handle: string;
  application_id: number | null;
  application_name: string;
  protocol: 'cas3' | 'oidc' | 'saml2';
  target: string;
  guarded: number;
  ticket_id: string | null;
  client_id: string | null;
  sid: string | null;
  state: LogoutDeliveryState;
  reason: Generated<string>;
  attempts: Generated<number>;
  /** When a retry is due; null once delivered or given up. A claim moves it on by the lease. */
  next_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CasStTable {
  id: string;
  tgt_id: string;
  service: string;
  created_at: string;
  expires_at: string;
  from_login: Generated<number>;
  validated_at: string | null;
  /** The enterprise application (sso_application) the ticket was issued for; null for the portal and CAS_SERVICES. */
  application_id: number | null;
  /** An OpenID Connect sign-in's ticket: what the provider issued with it (null for CAS tickets). */
  oidc_client_id: string | null;
  oidc_sid: string | null;
  oidc_grant_id: string | null;
  oidc_session_uid: string | null;
}

export interface LoginFailureTable {
  username: string;
  failures: number;
  last_failed_at: string;
  locked_until: string | null;
}

export interface PortalSessionTable {
  id: string;
  account_id: number;
  service_ticket: string;
  created_at: string;
  expires_at: string;
  /** The last proof of identity (the CAS login, or 验证身份); null: counts from created_at. */
  authenticated_at: string | null;
  /** When the session was last used, written at most about once a minute; null: counts from created_at. */
  last_used_at: string | null;
}

export interface SmsCodeTable {
  id: Generated<number>;
  purpose: string;
  phone: string;
  ip: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: number | null;
  username: string;
  enterprise_id: number | null;
  action: string;
  target: Generated<string>;
  ip: string;
  outcome: 'success' | 'failure';
  detail: Generated<string>;
  /** The request that wrote the row (its `X-Request-Id`); '' for rows of no request (schedules) and older rows. */
  request_id: Generated<string>;
  created_at: string;
  /** Place in the enterprise's chain (docs/architecture.md, "Tamper-evident audit"); null: written before the chain began. */
  chain_seq: number | null;
  /** The hash of the chain's previous row (or of its anchor). */
  prev_hash: string | null;
  /** SHA-256 of this row's canonical serialization with its place and the previous hash. */
  row_hash: string | null;
}

/** Identifier prefixes (Handle / IDIS), each owned by one enterprise. */
export interface IdfPrefixTable {
  id: Generated<number>;
  /** Dotted, e.g. `88.118.8`. */
  prefix: string;
  name: string;
  enterprise_id: number;
  created_at: string;
  updated_at: string;
}

/** A metadata template of a prefix; `version` is its latest version. */
export interface IdfTemplateTable {
  id: Generated<number>;
  prefix_id: number;
  name: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One version of a template, never changed once written. */
export interface IdfTemplateVersionTable {
  template_id: number;
  version: number;
  name: string;
  /** JSON array of `TemplateItem` (@portal/shared). */
  items: string;
  created_at: string;
  created_by: string;
}

/** An identifier record: its handle and item values as Handle values. */
export interface IdfRecordTable {
  id: Generated<number>;
  handle: string;
  prefix_id: number;
  template_id: number;
  template_version: number;
  /** JSON array of `[index, type, value]` in template order. */
  item_values: string;
  created_at: string;
  updated_at: string;
}

/** 标识统计: lookups per China date (`yyyy-MM-dd`), prefix ('' when the handle did not parse), channel, region, outcome. */
export interface IdfLookupRollupTable {
  day: string;
  prefix: string;
  channel: LookupChannel;
  region: string;
  outcome: LookupOutcome;
  /** bigint: PostgreSQL answers sums and values as strings; read through Number(). */
  lookups: number | string;
}

/** The handles looked up per day, found (top identifiers) or failed (mistyped handles). */
export interface IdfLookupHandleTable {
  day: string;
  prefix: string;
  outcome: LookupOutcome;
  handle: string;
  lookups: number | string;
}

/** Values of template items marked 计入统计 among found lookups, per day; `item` is the item's name. */
export interface IdfLookupValueTable {
  day: string;
  prefix: string;
  item: string;
  value: string;
  lookups: number | string;
}

/** 认证源: config is JSON of the type's non-secret settings; secret is sealed (lib/sealed-secret.ts). */
export interface AuthSourceTable {
  id: Generated<number>;
  enterprise_id: number;
  type: 'ldap' | 'wecom' | 'dingtalk' | 'feishu' | 'oidc' | 'saml';
  name: string;
  status: 'enabled' | 'disabled';
  config: string;
  secret: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** An account's stable id in a source (entryUUID, objectGUID, platform user id) and, for LDAP, its last DN. */
export interface AccountIdentityTable {
  id: Generated<number>;
  account_id: number;
  source_id: number;
  external_id: string;
  dn: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** An email domain a federated source claims (unique across enterprises). */
export interface FederationDomainTable {
  id: Generated<number>;
  enterprise_id: number;
  source_id: number;
  domain: string;
  /** pending (待审核) | approved (已批准) | refused (已驳回): only an approved domain routes sign-ins. */
  status: Generated<FederationDomainStatus>;
}

export type FederationDomainStatus = 'pending' | 'approved' | 'refused';

/** A redirect to an enterprise's provider awaiting its answer (single use, browser-bound, expiring). */
export interface FederationSignInTable {
  id: Generated<number>;
  state_hash: string;
  browser_hash: string;
  source_id: number;
  purpose: 'login' | 'test';
  service: Generated<string>;
  renew: Generated<number>;
  pending: string;
  expires_at: string;
}

/** A SAML source's message ID seen once: an assertion taken (a replay is refused). */
export interface SamlSourceMessageTable {
  id: Generated<number>;
  source_id: number;
  /** logout-jti: an OpenID Connect source's logout token (Back-Channel Logout), seen once. */
  kind: 'request' | 'assertion' | 'logout-jti';
  message_id: string;
  expires_at: string;
}

/** A sign-in through a SAML source: who the IdP said it was (NameID, SessionIndex), for single logout both ways. */
export interface SamlSourceSessionTable {
  id: Generated<number>;
  source_id: number;
  account_id: number;
  name_id: string;
  name_id_format: Generated<string>;
  session_index: Generated<string>;
  created_at: string;
  expires_at: string;
}

/** A 账号组 filled from a source's department or directory group. */
export interface GroupIdentityTable {
  id: Generated<number>;
  group_id: number;
  source_id: number;
  external_id: string;
  created_at: string;
}

export interface SyncJobTable {
  id: Generated<number>;
  enterprise_id: number;
  source_id: number;
  name: string;
  /** SyncMapping as JSON. */
  mapping: string;
  /** Five-field cron in China time; '' = manual only. */
  cron: Generated<string>;
  leaver_rule: Generated<'disable' | 'keep'>;
  status: Generated<'enabled' | 'disabled'>;
  next_run_at: string | null;
  lease_holder: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SyncRunTable {
  id: Generated<number>;
  job_id: number;
  enterprise_id: number;
  status: 'preview' | 'running' | 'succeeded' | 'partial' | 'failed' | 'expired';
  origin: 'manual' | 'schedule';
  fingerprint: Generated<string>;
  count_create: Generated<number>;
  count_update: Generated<number>;
  count_disable: Generated<number>;
  count_move: Generated<number>;
  count_failed: Generated<number>;
  error: Generated<string>;
  operator_id: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface SyncRunItemTable {
  id: Generated<number>;
  run_id: number;
  kind: 'user' | 'group';
  action: 'create' | 'update' | 'disable' | 'move';
  external_id: string;
  name: Generated<string>;
  username: Generated<string>;
  target_id: number | null;
  /** JSON: { changes: SyncChange[], values: what executing writes }. */
  detail: string;
  status: Generated<'planned' | 'succeeded' | 'failed'>;
  error: Generated<string>;
}

/** A SCIM bearer token of an enterprise (scim/): only its SHA-256 is kept. */
export interface ScimTokenTable {
  id: Generated<number>;
  enterprise_id: number;
  name: string;
  token_hash: string;
  /** Its first characters, shown to tell tokens apart. */
  hint: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

/** What SCIM knows of an account beyond its own columns. */
export interface ScimUserTable {
  account_id: number;
  enterprise_id: number;
  external_id: string | null;
  family_name: string | null;
  given_name: string | null;
  department: string | null;
  manager_id: number | null;
}

/** What SCIM knows of a 账号组 beyond its own columns; updated_at is the group's meta.lastModified. */
export interface ScimGroupTable {
  group_id: number;
  enterprise_id: number;
  external_id: string | null;
  updated_at: string;
}

/** A limit's count for one key (a client address, an account) in its current window. */
export interface RateLimitHitTable {
  /** The limit's name and the key: `cas-login|192.0.2.1`. */
  bucket: string;
  hits: number;
  /** When the window ends (epoch milliseconds); PostgreSQL answers a bigint as text. */
  expires_at: number | string;
}

/** Work one instance of several does per interval, claimed by a lease (retention). */
export interface ScheduledTaskTable {
  name: string;
  next_run_at: string;
  lease_holder: string | null;
  lease_expires_at: string | null;
}

export interface Database {
  site_setting: SiteSettingTable;
  nav_item: NavItemTable;
  footer_link: FooterLinkTable;
  cms_category: CmsCategoryTable;
  cms_article: CmsArticleTable;
  cms_article_gram: CmsArticleGramTable;
  cms_article_revision: CmsArticleRevisionTable;
  app_application: AppApplicationTable;
  open_service_tool: OpenServiceToolTable;
  app_subscription: AppSubscriptionTable;
  home_block: HomeBlockTable;
  system_secret: SystemSecretTable;
  enterprise: EnterpriseTable;
  account: AccountTable;
  role: RoleTable;
  role_authority: RoleAuthorityTable;
  account_role: AccountRoleTable;
  account_group: AccountGroupTable;
  account_group_member: AccountGroupMemberTable;
  account_group_role: AccountGroupRoleTable;
  join_request: JoinRequestTable;
  sso_application: SsoApplicationTable;
  sso_application_service: SsoApplicationServiceTable;
  sso_app_grant: SsoAppGrantTable;
  security_policy: SecurityPolicyTable;
  security_policy_role: SecurityPolicyRoleTable;
  trusted_device: TrustedDeviceTable;
  console_ip_rule: ConsoleIpRuleTable;
  account_recovery_code: AccountRecoveryCodeTable;
  webauthn_credential: WebauthnCredentialTable;
  webauthn_challenge: WebauthnChallengeTable;
  password_history: PasswordHistoryTable;
  login_log: LoginLogTable;
  enterprise_invitation: EnterpriseInvitationTable;
  portal_menu: PortalMenuTable;
  cas_tgt: CasTgtTable;
  cas_st: CasStTable;
  logout_delivery: LogoutDeliveryTable;
  login_failure: LoginFailureTable;
  portal_session: PortalSessionTable;
  sms_code: SmsCodeTable;
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
  audit_chain_start: AuditChainStartTable;
  uploaded_file: UploadedFileTable;
  upload_usage: UploadUsageTable;
  idf_prefix: IdfPrefixTable;
  idf_template: IdfTemplateTable;
  idf_template_version: IdfTemplateVersionTable;
  idf_record: IdfRecordTable;
  idf_lookup_rollup: IdfLookupRollupTable;
  idf_lookup_handle: IdfLookupHandleTable;
  idf_lookup_value: IdfLookupValueTable;
  private_file: PrivateFileTable;
  certification_application: CertificationApplicationTable;
  notification: NotificationTable;
  known_browser: KnownBrowserTable;
  idf_prefix_request: IdfPrefixRequestTable;
  auth_source: AuthSourceTable;
  account_identity: AccountIdentityTable;
  federation_domain: FederationDomainTable;
  federation_sign_in: FederationSignInTable;
  saml_source_message: SamlSourceMessageTable;
  saml_source_session: SamlSourceSessionTable;
  group_identity: GroupIdentityTable;
  sync_job: SyncJobTable;
  sync_run: SyncRunTable;
  sync_run_item: SyncRunItemTable;
  oidc_model: OidcModelTable;
  oidc_signing_key: OidcSigningKeyTable;
  saml_signing_key: SamlSigningKeyTable;
  saml_service_provider: SamlServiceProviderTable;
  saml_sign_in: SamlSignInTable;
  machine_client: MachineClientTable;
  oidc_client_id: OidcClientIdTable;
  rate_limit_hit: RateLimitHitTable;
  scheduled_task: ScheduledTaskTable;
  scim_token: ScimTokenTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
}

export type NavItemRow = Selectable<NavItemTable>;
export type NewNavItem = Insertable<NavItemTable>;
export type FooterLinkRow = Selectable<FooterLinkTable>;
