import { type TProperties, type TSchema, Type } from 'typebox';
import {
  AUTH_SOURCE_NAME_MAX,
  AUTH_SOURCE_TYPES,
  CHAT_ID_MAX,
  FEDERATION_DOMAINS_MAX,
  FEDERATION_GROUPS_MAX,
  LDAP_TEXT_MAX,
  OIDC_TEXT_MAX,
  SAML_CERTIFICATE_MAX,
  SAML_CERTIFICATES_MAX,
  SAML_TEXT_MAX,
  SECRET_MAX,
  SYNC_USERNAME_PREFIX_MAX,
} from '../auth-sources.js';
import { literals } from './envelope.js';

/** The console bodies of 认证源 and 同步 (认证与同步): the source of the types in auth-sources.ts. */

// ---------------------------------------------------------------------------------------------- sync
export const SyncRunStatusSchema = literals(['preview', 'running', 'succeeded', 'partial', 'failed', 'expired'] as const);

export const SyncCountsSchema = Type.Object({
  create: Type.Integer(),
  update: Type.Integer(),
  disable: Type.Integer(),
  move: Type.Integer(),
  failed: Type.Integer(),
});
export const SyncRunSummarySchema = Type.Object({
  id: Type.Integer(),
  jobId: Type.Integer(),
  jobName: Type.String(),
  status: SyncRunStatusSchema,
  trigger: literals(['manual', 'schedule'] as const),
  counts: SyncCountsSchema,
  error: Type.String({ description: '整体失败时认证源返回的错误' }),
  operator: Type.String({ description: '预览或执行的人；定时为空' }),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
});

export const SyncActionSchema = literals(['create', 'update', 'disable', 'move'] as const);
export const SyncItemStatusSchema = literals(['planned', 'succeeded', 'failed'] as const);
export const SyncLeaverRuleSchema = literals(['disable', 'keep'] as const);

export const SyncMappingSchema = Type.Object({
  groups: Type.Boolean({ description: '部门或目录组同步为账号组（含成员）' }),
  usernameFrom: literals(['userid', 'email'] as const),
  usernamePrefix: Type.String({ maxLength: 64, description: `用户名前缀（最多 ${SYNC_USERNAME_PREFIX_MAX} 位），可为空` }),
  updatePhone: Type.Boolean(),
  updateEmail: Type.Boolean(),
});
export const SyncJobSchema = Type.Object({
  id: Type.Integer(),
  sourceId: Type.Integer(),
  sourceName: Type.String(),
  sourceType: literals(AUTH_SOURCE_TYPES),
  name: Type.String(),
  mapping: SyncMappingSchema,
  cron: Type.String({ description: '5 段 cron 表达式（中国时间），空为仅手动' }),
  leaverRule: SyncLeaverRuleSchema,
  enabled: Type.Boolean(),
  nextRunAt: Type.Union([Type.String(), Type.Null()]),
  lastRun: Type.Union([SyncRunSummarySchema, Type.Null()]),
  updatedAt: Type.String(),
});
export const SyncJobInputSchema = Type.Object({
  sourceId: Type.Integer({ minimum: 1 }),
  name: Type.String({ maxLength: 200 }),
  mapping: SyncMappingSchema,
  cron: Type.String({ maxLength: 200 }),
  leaverRule: SyncLeaverRuleSchema,
  enabled: Type.Boolean(),
});
export const SyncChangeSchema = Type.Object({ field: Type.String(), from: Type.String(), to: Type.String() });
export const SyncRunItemSchema = Type.Object({
  id: Type.Integer(),
  kind: literals(['user', 'group'] as const),
  action: SyncActionSchema,
  externalId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  changes: Type.Array(SyncChangeSchema),
  status: SyncItemStatusSchema,
  error: Type.String(),
});

/** `GET /web-api/console/v1/auth/sync/runs` query (status '' is every status). */
export const SyncRunQuerySchema = Type.Object({
  jobId: Type.Optional(Type.Integer({ minimum: 1 })),
  status: Type.Optional(Type.Union([SyncRunStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
/** `GET /web-api/console/v1/auth/sync/runs/:id/items` query ('' is every action or result). */
export const SyncRunItemQuerySchema = Type.Object({
  action: Type.Optional(Type.Union([SyncActionSchema, Type.Literal('')])),
  status: Type.Optional(Type.Union([SyncItemStatusSchema, Type.Literal('')])),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});

// ------------------------------------------------------------------------------------- auth sources

// ------------------------------------------------------------------------------------------ requests

// Lengths here only bound the request; AuthSourceRules answer with their own messages. Settings the
// form may leave out are optional (empty when absent).
const Bounded = (max: number) => Type.String({ maxLength: max * 4 });
const Optional = (max: number) => Type.Optional(Bounded(max));

export const LdapSourceConfigBodySchema = Type.Object({
  url: Optional(LDAP_TEXT_MAX),
  startTls: Type.Optional(Type.Boolean()),
  bindDn: Optional(LDAP_TEXT_MAX),
  baseDn: Optional(LDAP_TEXT_MAX),
  userFilter: Optional(LDAP_TEXT_MAX),
  mapping: Type.Object({
    username: Optional(LDAP_TEXT_MAX),
    name: Optional(LDAP_TEXT_MAX),
    phone: Optional(LDAP_TEXT_MAX),
    email: Optional(LDAP_TEXT_MAX),
  }),
  adDomain: Optional(LDAP_TEXT_MAX),
  groupBaseDn: Optional(LDAP_TEXT_MAX),
  groupFilter: Optional(LDAP_TEXT_MAX),
});
export const WecomSourceConfigBodySchema = Type.Object({ corpId: Optional(CHAT_ID_MAX), agentId: Optional(CHAT_ID_MAX) });
export const DingtalkSourceConfigBodySchema = Type.Object({ appKey: Optional(CHAT_ID_MAX), corpId: Optional(CHAT_ID_MAX) });
export const FeishuSourceConfigBodySchema = Type.Object({ appId: Optional(CHAT_ID_MAX) });
export const OidcSourceConfigBodySchema = Type.Object({
  issuer: Optional(OIDC_TEXT_MAX),
  clientId: Optional(OIDC_TEXT_MAX),
  scopes: Optional(OIDC_TEXT_MAX),
  mapping: Type.Object({ username: Optional(100), name: Optional(100), email: Optional(100), phone: Optional(100) }),
  domains: Type.Optional(Type.Array(Bounded(253), { maxItems: FEDERATION_DOMAINS_MAX * 2 })),
  jit: Type.Optional(Type.Boolean()),
  groupIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: FEDERATION_GROUPS_MAX * 2 })),
  enforce: Type.Optional(Type.Boolean()),
});
const SamlNameIdFormatSchema = literals(['persistent', 'email', 'unspecified'] as const);
const SamlBindingSchema = literals(['redirect', 'post'] as const);
export const SamlSourceConfigBodySchema = Type.Object({
  metadataUrl: Optional(SAML_TEXT_MAX),
  idpEntityId: Optional(SAML_TEXT_MAX),
  ssoUrl: Optional(SAML_TEXT_MAX),
  ssoBinding: Type.Optional(SamlBindingSchema),
  sloUrl: Optional(SAML_TEXT_MAX),
  certificates: Type.Optional(Type.Array(Bounded(SAML_CERTIFICATE_MAX), { maxItems: SAML_CERTIFICATES_MAX })),
  nameIdFormat: Type.Optional(SamlNameIdFormatSchema),
  mapping: Type.Object({
    username: Optional(SAML_TEXT_MAX),
    name: Optional(SAML_TEXT_MAX),
    email: Optional(SAML_TEXT_MAX),
    phone: Optional(SAML_TEXT_MAX),
  }),
  wantAssertionsSigned: Type.Optional(Type.Boolean()),
  domains: Type.Optional(Type.Array(Bounded(253), { maxItems: FEDERATION_DOMAINS_MAX * 2 })),
  jit: Type.Optional(Type.Boolean()),
  groupIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: FEDERATION_GROUPS_MAX * 2 })),
  enforce: Type.Optional(Type.Boolean()),
});

/** One branch per type, keyed by `type`: that type's settings (`configs`), plus the `extra` fields every branch has. */
function perType<
  P extends TProperties,
  L extends TSchema,
  W extends TSchema,
  D extends TSchema,
  F extends TSchema,
  O extends TSchema,
  S extends TSchema,
>(extra: P, configs: { ldap: L; wecom: W; dingtalk: D; feishu: F; oidc: O; saml: S }) {
  return Type.Union([
    Type.Object({ ...extra, type: Type.Literal('ldap'), config: configs.ldap }),
    Type.Object({ ...extra, type: Type.Literal('wecom'), config: configs.wecom }),
    Type.Object({ ...extra, type: Type.Literal('dingtalk'), config: configs.dingtalk }),
    Type.Object({ ...extra, type: Type.Literal('feishu'), config: configs.feishu }),
    Type.Object({ ...extra, type: Type.Literal('oidc'), config: configs.oidc }),
    Type.Object({ ...extra, type: Type.Literal('saml'), config: configs.saml }),
  ]);
}

const configBodies = {
  ldap: LdapSourceConfigBodySchema,
  wecom: WecomSourceConfigBodySchema,
  dingtalk: DingtalkSourceConfigBodySchema,
  feishu: FeishuSourceConfigBodySchema,
  oidc: OidcSourceConfigBodySchema,
  saml: SamlSourceConfigBodySchema,
};

const SecretBody = Type.String({ maxLength: SECRET_MAX * 4, description: '密钥（LDAP 绑定密码、应用 Secret）；编辑时空或不传表示不修改' });

export const AuthSourceInputSchema = perType(
  {
    name: Type.String({ maxLength: AUTH_SOURCE_NAME_MAX * 4 }),
    enabled: Type.Boolean(),
    secret: Type.Optional(SecretBody),
  },
  configBodies,
);

export const AuthSourceTestInputSchema = perType(
  {
    id: Type.Optional(Type.Integer({ minimum: 1, description: '编辑中的认证源：未输入密钥时使用它保存的密钥' })),
    secret: Type.Optional(SecretBody),
  },
  configBodies,
);

// ----------------------------------------------------------------------------------------- responses

export const LdapSourceConfigSchema = Type.Object({
  url: Type.String(),
  startTls: Type.Boolean(),
  bindDn: Type.String(),
  baseDn: Type.String(),
  userFilter: Type.String(),
  mapping: Type.Object({ username: Type.String(), name: Type.String(), phone: Type.String(), email: Type.String() }),
  adDomain: Type.String(),
  groupBaseDn: Type.String(),
  groupFilter: Type.String(),
});
export const WecomSourceConfigSchema = Type.Object({ corpId: Type.String(), agentId: Type.String() });
export const DingtalkSourceConfigSchema = Type.Object({ appKey: Type.String(), corpId: Type.String() });
export const FeishuSourceConfigSchema = Type.Object({ appId: Type.String() });
export const OidcSourceConfigSchema = Type.Object({
  issuer: Type.String({ description: '发现地址（Issuer），读取其 /.well-known/openid-configuration' }),
  clientId: Type.String(),
  scopes: Type.String({ description: '授权范围，以空格分隔，含 openid' }),
  mapping: Type.Object({ username: Type.String(), name: Type.String(), email: Type.String(), phone: Type.String() }),
  domains: Type.Array(Type.String(), { description: '属于本企业的邮箱域名（各企业之间唯一）' }),
  jit: Type.Boolean({ description: '允许首次登录自动创建账号' }),
  groupIds: Type.Array(Type.Integer(), { description: '自动创建的账号加入的账号组' }),
  enforce: Type.Boolean({ description: '仅允许通过企业身份提供方登录（企业管理员保留密码登录）' }),
});
export const SamlSourceConfigSchema = Type.Object({
  metadataUrl: Type.String({ description: 'IdP 元数据地址；粘贴或上传元数据时为空' }),
  idpEntityId: Type.String(),
  ssoUrl: Type.String(),
  ssoBinding: SamlBindingSchema,
  sloUrl: Type.String({ description: 'IdP 的单点登出地址，可为空' }),
  certificates: Type.Array(Type.String(), { description: 'IdP 的签名证书（PEM）' }),
  nameIdFormat: SamlNameIdFormatSchema,
  mapping: Type.Object({ username: Type.String(), name: Type.String(), email: Type.String(), phone: Type.String() }),
  wantAssertionsSigned: Type.Boolean({ description: '要求断言签名（否则响应或断言至少一个签名）' }),
  domains: Type.Array(Type.String(), { description: '属于本企业的邮箱域名（各企业之间唯一）' }),
  jit: Type.Boolean({ description: '允许首次登录自动创建账号' }),
  groupIds: Type.Array(Type.Integer(), { description: '自动创建的账号加入的账号组' }),
  enforce: Type.Boolean({ description: '仅允许通过企业身份提供方登录（企业管理员保留密码登录）' }),
});
/** What the enterprise registers at its IdP for a SAML source (the portal as its service provider). */
export const SamlSpEndpointsSchema = Type.Object({
  entityId: Type.String(),
  acsUrl: Type.String(),
  sloUrl: Type.String(),
  metadataUrl: Type.String(),
});

/** A claimed email domain and its review by a platform operator: only 已批准 (approved) routes sign-ins. */
export const FederationDomainReviewSchema = Type.Object({
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('refused')], {
    description: 'pending 待审核；approved 已批准；refused 已驳回',
  }),
});

export const AuthSourceDetailSchema = perType(
  {
    id: Type.Integer(),
    name: Type.String(),
    enabled: Type.Boolean(),
    hasSecret: Type.Boolean({ description: '已保存密钥（密钥本身从不返回）' }),
    callbackUrl: Type.Union([Type.String(), Type.Null()], {
      description: '企业微信、钉钉、飞书：在其后台填写的登录回调地址；OpenID Connect：在身份提供方登记的重定向地址',
    }),
    serviceProvider: Type.Optional(
      Type.Union([SamlSpEndpointsSchema, Type.Null()], { description: 'SAML 2.0：在 IdP 登记的本平台 SP 信息' }),
    ),
    domainReviews: Type.Optional(
      Type.Array(FederationDomainReviewSchema, { description: 'OpenID Connect、SAML 2.0：各邮箱域名的审核状态（平台运营审核）' }),
    ),
    updatedAt: Type.String(),
  },
  {
    ldap: LdapSourceConfigSchema,
    wecom: WecomSourceConfigSchema,
    dingtalk: DingtalkSourceConfigSchema,
    feishu: FeishuSourceConfigSchema,
    oidc: OidcSourceConfigSchema,
    saml: SamlSourceConfigSchema,
  },
);

export const AuthSourceSummarySchema = Type.Object({
  id: Type.Integer(),
  type: literals(AUTH_SOURCE_TYPES),
  name: Type.String(),
  enabled: Type.Boolean(),
  endpoint: Type.String({ description: 'LDAP 地址，或企业 / 应用标识' }),
  linkedAccounts: Type.Integer({ description: '关联的账号数（不含已删除）' }),
  lastSync: Type.Union([SyncRunSummarySchema, Type.Null()], { description: '最近一次结束的同步' }),
  updatedAt: Type.String(),
});

export const DirectoryUserViewSchema = Type.Object({
  externalId: Type.String(),
  username: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  location: Type.String(),
});
export const AuthSourceTestStepSchema = Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.String() });
export const AuthSourceTestResultSchema = Type.Object({
  ok: Type.Boolean(),
  steps: Type.Array(AuthSourceTestStepSchema),
  sample: Type.Array(DirectoryUserViewSchema),
});

/** `POST /web-api/console/v1/auth/sources/:id/sign-in-test`: the popup's address (a signed link, two minutes). */
export const FederationTestLinkSchema = Type.Object({ url: Type.String() });

/** `POST /web-api/console/v1/auth/sources/saml-metadata`: an IdP's metadata by address or as pasted / uploaded XML. */
export const SamlMetadataReadSchema = Type.Object({
  url: Type.Optional(Bounded(SAML_TEXT_MAX)),
  xml: Type.Optional(Type.String({ maxLength: 512 * 1024 })),
});
/** The fields of a SAML source an IdP's metadata fills in. */
export const SamlIdpMetadataSchema = Type.Object({
  idpEntityId: Type.String(),
  ssoUrl: Type.String(),
  ssoBinding: SamlBindingSchema,
  sloUrl: Type.String(),
  certificates: Type.Array(Type.String()),
});
