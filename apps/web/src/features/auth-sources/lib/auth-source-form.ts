import {
  AUTH_SOURCE_TYPE_LABELS,
  AuthSourceMessage,
  type AuthSourceConfig,
  type AuthSourceDetail,
  type AuthSourceInput,
  type AuthSourceTestInput,
  type AuthSourceType,
  type DingtalkSourceConfig,
  type FeishuSourceConfig,
  type LdapAttributeMapping,
  LDAP_DEFAULTS,
  type LdapSourceConfig,
  OIDC_DEFAULTS,
  type OidcSourceConfig,
  SAML_DEFAULTS,
  type SamlSourceConfig,
  type WecomSourceConfig,
  isLdapsUrl,
} from '@portal/shared';

/**
 * The 新增 / 编辑 form of a source. Each type keeps its settings under its own name (`ldap.url`,
 * `wecom.corpId`…), so the fields of the form are typed; only the source's own type is shown and sent.
 * The secret is never filled from the server: it starts empty, and empty keeps the stored one.
 */
export interface AuthSourceFormValues {
  name: string;
  enabled: boolean;
  secret: string;
  ldap: LdapSourceConfig;
  wecom: WecomSourceConfig;
  dingtalk: DingtalkSourceConfig;
  feishu: FeishuSourceConfig;
  oidc: OidcSourceConfig;
  saml: SamlSourceConfig;
}

type SettingOf<T extends AuthSourceType> = [T, keyof AuthSourceFormValues[T] & string];
/** A field of the form, as antd names it. */
export type AuthSourceFieldName =
  | 'name'
  | 'secret'
  | SettingOf<'ldap'>
  | SettingOf<'wecom'>
  | SettingOf<'dingtalk'>
  | SettingOf<'feishu'>
  | SettingOf<'oidc'>
  | SettingOf<'saml'>
  | ['ldap', 'mapping', keyof LdapAttributeMapping]
  | ['oidc', 'mapping', keyof OidcSourceConfig['mapping']]
  | ['saml', 'mapping', keyof SamlSourceConfig['mapping']];

const EMPTY_CHAT = {
  wecom: { corpId: '', agentId: '' },
  dingtalk: { appKey: '', corpId: '' },
  feishu: { appId: '' },
} as const;

function blankForm(): AuthSourceFormValues {
  return {
    name: '',
    enabled: true,
    secret: '',
    ldap: { ...LDAP_DEFAULTS, mapping: { ...LDAP_DEFAULTS.mapping } },
    wecom: { ...EMPTY_CHAT.wecom },
    dingtalk: { ...EMPTY_CHAT.dingtalk },
    feishu: { ...EMPTY_CHAT.feishu },
    oidc: { ...OIDC_DEFAULTS, mapping: { ...OIDC_DEFAULTS.mapping }, domains: [], groupIds: [] },
    saml: { ...SAML_DEFAULTS, mapping: { ...SAML_DEFAULTS.mapping }, certificates: [], domains: [], groupIds: [] },
  };
}

/** A new source of `type`, enabled: LDAP starts from the usual OpenLDAP settings, a chat platform named after itself. */
export function newAuthSourceForm(type: AuthSourceType): AuthSourceFormValues {
  return { ...blankForm(), name: type === 'ldap' || type === 'oidc' || type === 'saml' ? '' : AUTH_SOURCE_TYPE_LABELS[type] };
}

/** The form of a stored source: its settings, and an empty secret. */
export function editAuthSourceForm(detail: AuthSourceDetail): AuthSourceFormValues {
  const form = { ...blankForm(), name: detail.name, enabled: detail.enabled };
  switch (detail.type) {
    case 'ldap':
      return { ...form, ldap: { ...detail.config, mapping: { ...detail.config.mapping } } };
    case 'wecom':
      return { ...form, wecom: { ...detail.config } };
    case 'dingtalk':
      return { ...form, dingtalk: { ...detail.config } };
    case 'feishu':
      return { ...form, feishu: { ...detail.config } };
    case 'oidc':
      return { ...form, oidc: { ...detail.config, mapping: { ...detail.config.mapping }, domains: [...detail.config.domains] } };
    case 'saml':
      return {
        ...form,
        saml: {
          ...detail.config,
          mapping: { ...detail.config.mapping },
          certificates: [...detail.config.certificates],
          domains: [...detail.config.domains],
          groupIds: [...detail.config.groupIds],
        },
      };
  }
}

const trim = (value: string | undefined) => (value ?? '').trim();

/** The settings of `type` from the form, trimmed (addresses, DNs, filters and ids are pasted). */
export function authSourceConfig(type: AuthSourceType, values: Partial<AuthSourceFormValues>): AuthSourceConfig {
  switch (type) {
    case 'ldap': {
      const l = { ...LDAP_DEFAULTS, ...values.ldap };
      const m = { ...LDAP_DEFAULTS.mapping, ...values.ldap?.mapping };
      const url = trim(l.url);
      return {
        type,
        config: {
          url,
          // ldaps:// is TLS from the first byte; the switch is off and disabled for it.
          startTls: Boolean(l.startTls) && !isLdapsUrl(url),
          bindDn: trim(l.bindDn),
          baseDn: trim(l.baseDn),
          userFilter: trim(l.userFilter),
          mapping: { username: trim(m.username), name: trim(m.name), phone: trim(m.phone), email: trim(m.email) },
          adDomain: trim(l.adDomain),
          groupBaseDn: trim(l.groupBaseDn),
          groupFilter: trim(l.groupFilter),
        },
      };
    }
    case 'wecom':
      return { type, config: { corpId: trim(values.wecom?.corpId), agentId: trim(values.wecom?.agentId) } };
    case 'dingtalk':
      return { type, config: { appKey: trim(values.dingtalk?.appKey), corpId: trim(values.dingtalk?.corpId) } };
    case 'feishu':
      return { type, config: { appId: trim(values.feishu?.appId) } };
    case 'oidc': {
      const o = { ...OIDC_DEFAULTS, ...values.oidc };
      const m = { ...OIDC_DEFAULTS.mapping, ...values.oidc?.mapping };
      return {
        type,
        config: {
          issuer: trim(o.issuer),
          clientId: trim(o.clientId),
          scopes: trim(o.scopes).split(/\s+/).filter(Boolean).join(' '),
          mapping: { username: trim(m.username), name: trim(m.name), email: trim(m.email), phone: trim(m.phone) },
          domains: o.domains.map((d) => trim(d).replace(/^@/, '').toLowerCase()).filter(Boolean),
          jit: Boolean(o.jit),
          groupIds: [...o.groupIds],
          enforce: Boolean(o.enforce),
        },
      };
    }
    case 'saml': {
      const c = { ...SAML_DEFAULTS, ...values.saml };
      const m = { ...SAML_DEFAULTS.mapping, ...values.saml?.mapping };
      return {
        type,
        config: {
          metadataUrl: trim(c.metadataUrl),
          idpEntityId: trim(c.idpEntityId),
          ssoUrl: trim(c.ssoUrl),
          ssoBinding: c.ssoBinding,
          sloUrl: trim(c.sloUrl),
          certificates: c.certificates.map(trim).filter(Boolean),
          nameIdFormat: c.nameIdFormat,
          mapping: { username: trim(m.username), name: trim(m.name), email: trim(m.email), phone: trim(m.phone) },
          wantAssertionsSigned: Boolean(c.wantAssertionsSigned),
          domains: c.domains.map((d) => trim(d).replace(/^@/, '').toLowerCase()).filter(Boolean),
          jit: Boolean(c.jit),
          groupIds: [...c.groupIds],
          enforce: Boolean(c.enforce),
        },
      };
    }
  }
}

/** The body of 新增 and 编辑; an empty secret is left out, which keeps the stored one. */
export function authSourceInput(type: AuthSourceType, values: Partial<AuthSourceFormValues>): AuthSourceInput {
  const secret = values.secret ?? '';
  return {
    ...authSourceConfig(type, values),
    name: trim(values.name),
    enabled: values.enabled ?? true,
    ...(secret ? { secret } : {}),
  };
}

/**
 * 测试连接 with the form's unsaved values: the typed secret, or (none typed) the stored one of the
 * source being edited.
 */
export function authSourceTestInput(type: AuthSourceType, values: Partial<AuthSourceFormValues>, id?: number): AuthSourceTestInput {
  const secret = values.secret ?? '';
  return { ...authSourceConfig(type, values), ...(id !== undefined ? { id } : {}), ...(secret ? { secret } : {}) };
}

/** The type and settings of a stored source, without its other facts. */
export function configOf(detail: AuthSourceDetail): AuthSourceConfig {
  switch (detail.type) {
    case 'ldap':
      return { type: detail.type, config: detail.config };
    case 'wecom':
      return { type: detail.type, config: detail.config };
    case 'dingtalk':
      return { type: detail.type, config: detail.config };
    case 'feishu':
      return { type: detail.type, config: detail.config };
    case 'oidc':
      return { type: detail.type, config: detail.config };
    case 'saml':
      return { type: detail.type, config: detail.config };
  }
}

/** The settings of a stored source as 停用/启用 sends them back (no secret: the stored one stays). */
export const storedInput = (detail: AuthSourceDetail, enabled: boolean): AuthSourceInput => ({
  ...configOf(detail),
  name: detail.name,
  enabled,
});

/** The shared messages that name one field of `type`: a server refusal with one of them shows under it. */
export function fieldOfMessage(type: AuthSourceType, message: string): AuthSourceFieldName | undefined {
  switch (message) {
    case AuthSourceMessage.nameRequired:
    case AuthSourceMessage.nameTooLong:
    case AuthSourceMessage.nameTaken:
      return 'name';
    case AuthSourceMessage.secretRequired:
    case AuthSourceMessage.secretTooLong:
      return 'secret';
  }
  if (type === 'ldap') {
    const ldapFields: Record<string, AuthSourceFieldName> = {
      [AuthSourceMessage.urlInvalid]: ['ldap', 'url'],
      [AuthSourceMessage.startTlsWithLdaps]: ['ldap', 'startTls'],
      [AuthSourceMessage.bindDnRequired]: ['ldap', 'bindDn'],
      [AuthSourceMessage.baseDnRequired]: ['ldap', 'baseDn'],
      [AuthSourceMessage.filterInvalid]: ['ldap', 'userFilter'],
      [AuthSourceMessage.groupFilterInvalid]: ['ldap', 'groupFilter'],
      [AuthSourceMessage.usernameAttributeRequired]: ['ldap', 'mapping', 'username'],
      [AuthSourceMessage.domainInvalid]: ['ldap', 'adDomain'],
    };
    return ldapFields[message];
  }
  if (type === 'oidc') {
    const oidcFields: Record<string, AuthSourceFieldName> = {
      [AuthSourceMessage.issuerInvalid]: ['oidc', 'issuer'],
      [AuthSourceMessage.clientIdRequired]: ['oidc', 'clientId'],
      [AuthSourceMessage.scopesInvalid]: ['oidc', 'scopes'],
      [AuthSourceMessage.claimRequired]: ['oidc', 'mapping', 'username'],
      [AuthSourceMessage.domainsTooMany]: ['oidc', 'domains'],
      [AuthSourceMessage.groupsTooMany]: ['oidc', 'groupIds'],
      [AuthSourceMessage.groupUnknown]: ['oidc', 'groupIds'],
    };
    if (message.startsWith('邮箱域名')) return ['oidc', 'domains'];
    if (message.startsWith('发现地址')) return ['oidc', 'issuer'];
    return oidcFields[message];
  }
  if (type === 'saml') {
    const samlFields: Record<string, AuthSourceFieldName> = {
      [AuthSourceMessage.samlEntityIdRequired]: ['saml', 'idpEntityId'],
      [AuthSourceMessage.samlSsoUrlRequired]: ['saml', 'ssoUrl'],
      [AuthSourceMessage.samlCertificateRequired]: ['saml', 'certificates'],
      [AuthSourceMessage.samlCertificateInvalid]: ['saml', 'certificates'],
      [AuthSourceMessage.samlTooManyCertificates]: ['saml', 'certificates'],
      [AuthSourceMessage.samlAttributeRequired]: ['saml', 'mapping', 'username'],
      [AuthSourceMessage.domainsTooMany]: ['saml', 'domains'],
      [AuthSourceMessage.groupsTooMany]: ['saml', 'groupIds'],
      [AuthSourceMessage.groupUnknown]: ['saml', 'groupIds'],
    };
    if (message.startsWith('邮箱域名')) return ['saml', 'domains'];
    if (message.startsWith('无法获取 IdP 元数据') || message.startsWith('IdP 元数据无效')) return ['saml', 'metadataUrl'];
    return samlFields[message];
  }
  if (message === AuthSourceMessage.corpIdRequired && type === 'wecom') return ['wecom', 'corpId'];
  if (message === AuthSourceMessage.corpIdRequired && type === 'dingtalk') return ['dingtalk', 'corpId'];
  if (message === AuthSourceMessage.agentIdRequired && type === 'wecom') return ['wecom', 'agentId'];
  if (message === AuthSourceMessage.appKeyRequired && type === 'dingtalk') return ['dingtalk', 'appKey'];
  if (message === AuthSourceMessage.appIdRequired && type === 'feishu') return ['feishu', 'appId'];
  return undefined;
}
