import { AUTH_SOURCE_NAME_MAX, CHAT_ID_MAX, LDAP_TEXT_MAX, SECRET_MAX, SyncRunSummarySchema as RunSummarySchema } from '@portal/shared';
import { type Static, type TProperties, type TSchema, Type } from 'typebox';
import { Envelope, literals } from '../../platform/lib/envelope.js';

/** The request and answer schemas of 认证源's console routes (auth-source-routes.ts). */

// ------------------------------------------------------------------------------------------ requests

// Lengths here only bound the request; AuthSourceRules answer with their own messages. Settings the
// form may leave out are optional (empty when absent).
const Bounded = (max: number) => Type.String({ maxLength: max * 4 });
const Optional = (max: number) => Type.Optional(Bounded(max));

const LdapConfigBody = Type.Object({
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
const WecomConfigBody = Type.Object({ corpId: Optional(CHAT_ID_MAX), agentId: Optional(CHAT_ID_MAX) });
const DingtalkConfigBody = Type.Object({ appKey: Optional(CHAT_ID_MAX), corpId: Optional(CHAT_ID_MAX) });
const FeishuConfigBody = Type.Object({ appId: Optional(CHAT_ID_MAX) });

/** One branch per type, keyed by `type`: that type's settings (`configs`), plus the `extra` fields every branch has. */
function perType<P extends TProperties, L extends TSchema, W extends TSchema, D extends TSchema, F extends TSchema>(
  extra: P,
  configs: { ldap: L; wecom: W; dingtalk: D; feishu: F },
) {
  return Type.Union([
    Type.Object({ ...extra, type: Type.Literal('ldap'), config: configs.ldap }),
    Type.Object({ ...extra, type: Type.Literal('wecom'), config: configs.wecom }),
    Type.Object({ ...extra, type: Type.Literal('dingtalk'), config: configs.dingtalk }),
    Type.Object({ ...extra, type: Type.Literal('feishu'), config: configs.feishu }),
  ]);
}

const configBodies = { ldap: LdapConfigBody, wecom: WecomConfigBody, dingtalk: DingtalkConfigBody, feishu: FeishuConfigBody };

const SecretBody = Type.String({ maxLength: SECRET_MAX * 4, description: '密钥（LDAP 绑定密码、应用 Secret）；编辑时空或不传表示不修改' });

export const AuthSourceBody = perType(
  {
    name: Type.String({ maxLength: AUTH_SOURCE_NAME_MAX * 4 }),
    enabled: Type.Boolean(),
    secret: Type.Optional(SecretBody),
  },
  configBodies,
);
export type Body = Static<typeof AuthSourceBody>;

export const AuthSourceTestBody = perType(
  {
    id: Type.Optional(Type.Integer({ minimum: 1, description: '编辑中的认证源：未输入密钥时使用它保存的密钥' })),
    secret: Type.Optional(SecretBody),
  },
  configBodies,
);
export type TestBody = Static<typeof AuthSourceTestBody>;

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const Empty = Envelope(Type.Object({}));

// ----------------------------------------------------------------------------------------- responses

const LdapConfigSchema = Type.Object({
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
const WecomConfigSchema = Type.Object({ corpId: Type.String(), agentId: Type.String() });
const DingtalkConfigSchema = Type.Object({ appKey: Type.String(), corpId: Type.String() });
const FeishuConfigSchema = Type.Object({ appId: Type.String() });

export const AuthSourceDetailSchema = perType(
  {
    id: Type.Integer(),
    name: Type.String(),
    enabled: Type.Boolean(),
    hasSecret: Type.Boolean({ description: '已保存密钥（密钥本身从不返回）' }),
    callbackUrl: Type.Union([Type.String(), Type.Null()], { description: '企业微信、钉钉、飞书：在其后台填写的登录回调地址' }),
    updatedAt: Type.String(),
  },
  { ldap: LdapConfigSchema, wecom: WecomConfigSchema, dingtalk: DingtalkConfigSchema, feishu: FeishuConfigSchema },
);

export const AuthSourceSummarySchema = Type.Object({
  id: Type.Integer(),
  type: literals(['ldap', 'wecom', 'dingtalk', 'feishu'] as const),
  name: Type.String(),
  enabled: Type.Boolean(),
  endpoint: Type.String({ description: 'LDAP 地址，或企业 / 应用标识' }),
  linkedAccounts: Type.Integer({ description: '关联的账号数（不含已删除）' }),
  lastSync: Type.Union([RunSummarySchema, Type.Null()], { description: '最近一次结束的同步' }),
  updatedAt: Type.String(),
});

const DirectoryUserSchema = Type.Object({
  externalId: Type.String(),
  username: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  location: Type.String(),
});
export const AuthSourceTestResultSchema = Type.Object({
  ok: Type.Boolean(),
  steps: Type.Array(Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.String() })),
  sample: Type.Array(DirectoryUserSchema),
});
