import type { Generated, Insertable, Selectable } from 'kysely';

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

export type CertificationStatus = 'pending' | 'certified' | 'rejected';

export type EnterpriseStatus = 'active' | 'disabled';

export interface EnterpriseTable {
  id: Generated<number>;
  name: string;
  certification_status: CertificationStatus;
  /** A disabled enterprise's accounts cannot log in. */
  status: Generated<EnterpriseStatus>;
  created_at: string;
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
}

export interface CasStTable {
  id: string;
  tgt_id: string;
  service: string;
  created_at: string;
  expires_at: string;
  from_login: Generated<number>;
  validated_at: string | null;
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
  created_at: string;
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

/** Lookups of a prefix's records the public resolution answered, per China date (`yyyy-MM-dd`). */
export interface IdfLookupDayTable {
  prefix_id: number;
  day: string;
  lookups: number;
}

export interface Database {
  site_setting: SiteSettingTable;
  nav_item: NavItemTable;
  footer_link: FooterLinkTable;
  cms_category: CmsCategoryTable;
  cms_article: CmsArticleTable;
  cms_article_gram: CmsArticleGramTable;
  app_application: AppApplicationTable;
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
  enterprise_invitation: EnterpriseInvitationTable;
  portal_menu: PortalMenuTable;
  cas_tgt: CasTgtTable;
  cas_st: CasStTable;
  login_failure: LoginFailureTable;
  portal_session: PortalSessionTable;
  sms_code: SmsCodeTable;
  audit_log: AuditLogTable;
  uploaded_file: UploadedFileTable;
  upload_usage: UploadUsageTable;
  idf_prefix: IdfPrefixTable;
  idf_template: IdfTemplateTable;
  idf_template_version: IdfTemplateVersionTable;
  idf_record: IdfRecordTable;
  idf_lookup_day: IdfLookupDayTable;
}

export type NavItemRow = Selectable<NavItemTable>;
export type NewNavItem = Insertable<NavItemTable>;
export type FooterLinkRow = Selectable<FooterLinkTable>;
