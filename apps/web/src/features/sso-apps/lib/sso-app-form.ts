import {
  OIDC_LIFETIMES,
  type OidcAppScope,
  OidcAppMessage,
  type OidcClientType,
  type ReleasableAttribute,
  SamlAppMessage,
  type SamlSettings,
  type SsoApplicationBody,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  SsoMessage,
  SsoRules,
  normalizeServicePrefix,
  type SsoProtocol,
} from '@portal/shared';

/**
 * An OpenID Connect application's fields as the form holds them: lifetimes in the units the form shows
 * (minutes for access and ID tokens, hours for refresh tokens), address lists with one empty row to fill.
 */
export interface OidcFormValues {
  clientId: string;
  clientType: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string;
  initiateLoginUri: string;
  scopes: OidcAppScope[];
  accessTokenMinutes: number;
  idTokenMinutes: number;
  refreshTokenHours: number;
}

/** The 新增 / 编辑 form of an application. */
export interface SsoAppFormValues {
  oidc: OidcFormValues;
  saml: SamlSettings;
  name: string;
  icon: string;
  category: string;
  description: string;
  protocol: SsoProtocol;
  servicePrefixes: string[];
  logoutUrl: string;
  attributes: ReleasableAttribute[];
  status: SsoApplicationStatus;
}

export type SsoAppFormField = keyof SsoAppFormValues | ['oidc', keyof OidcFormValues] | ['saml', keyof SamlSettings];

/** The lifetimes' bounds in the form's units. */
export const OIDC_FORM_LIFETIMES = {
  accessTokenMinutes: { min: OIDC_LIFETIMES.accessTokenSeconds.min / 60, max: OIDC_LIFETIMES.accessTokenSeconds.max / 60 },
  idTokenMinutes: { min: OIDC_LIFETIMES.idTokenSeconds.min / 60, max: OIDC_LIFETIMES.idTokenSeconds.max / 60 },
  refreshTokenHours: { min: OIDC_LIFETIMES.refreshTokenSeconds.min / 3600, max: OIDC_LIFETIMES.refreshTokenSeconds.max / 3600 },
} as const;

/** A new OIDC application: confidential, the common scopes, the default lifetimes. */
export function newOidcForm(): OidcFormValues {
  return {
    clientId: '',
    clientType: 'confidential',
    redirectUris: [''],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: '',
    initiateLoginUri: '',
    scopes: ['openid', 'profile', 'email'],
    accessTokenMinutes: OIDC_LIFETIMES.accessTokenSeconds.default / 60,
    idTokenMinutes: OIDC_LIFETIMES.idTokenSeconds.default / 60,
    refreshTokenHours: OIDC_LIFETIMES.refreshTokenSeconds.default / 3600,
  };
}

/** A new SAML application: persistent NameID, response and assertion signed, requests unsigned. */
export function newSamlForm(): SamlSettings {
  return {
    entityId: '',
    acsUrl: '',
    sloUrl: '',
    certificate: '',
    nameIdFormat: 'persistent',
    signResponse: true,
    signAssertion: true,
    wantRequestsSigned: false,
  };
}

/** A new application: one empty address to fill, the user's name released, enabled. */
export function newSsoAppForm(): SsoAppFormValues {
  return {
    oidc: newOidcForm(),
    saml: newSamlForm(),
    name: '',
    icon: '',
    category: '',
    description: '',
    protocol: 'cas3',
    servicePrefixes: [''],
    logoutUrl: '',
    attributes: ['name'],
    status: 'enabled',
  };
}

export function editSsoAppForm(row: SsoApplicationRow): SsoAppFormValues {
  const { oidc } = row;
  return {
    oidc: oidc
      ? {
          clientId: oidc.clientId,
          clientType: oidc.clientType,
          redirectUris: oidc.redirectUris.length > 0 ? [...oidc.redirectUris] : [''],
          postLogoutRedirectUris: [...oidc.postLogoutRedirectUris],
          backchannelLogoutUri: oidc.backchannelLogoutUri,
          initiateLoginUri: oidc.initiateLoginUri,
          scopes: [...oidc.scopes],
          accessTokenMinutes: oidc.accessTokenSeconds / 60,
          idTokenMinutes: oidc.idTokenSeconds / 60,
          refreshTokenHours: oidc.refreshTokenSeconds / 3600,
        }
      : newOidcForm(),
    saml: row.saml ? { ...row.saml } : newSamlForm(),
    name: row.name,
    icon: row.icon,
    category: row.category,
    description: row.description,
    protocol: row.protocol,
    servicePrefixes: row.servicePrefixes.length > 0 ? [...row.servicePrefixes] : [''],
    logoutUrl: row.logoutUrl,
    attributes: [...row.attributes],
    status: row.status,
  };
}

const trimmed = (value: string | undefined) => (value ?? '').trim();

const addresses = (values: readonly string[] | undefined) => (values ?? []).map((v) => v.trim()).filter(Boolean);

/**
 * The body of 新增 and 编辑: every field sent (an emptied one is sent empty, so the server clears it). An
 * OIDC application sends its settings (lifetimes in seconds) and no service addresses or attributes.
 */
export function ssoAppBody(values: SsoAppFormValues): SsoApplicationBody {
  const common = {
    name: trimmed(values.name),
    icon: values.icon ?? '',
    category: trimmed(values.category),
    description: trimmed(values.description),
    status: values.status,
  };
  if (values.protocol === 'oidc') {
    const { oidc } = values;
    return {
      ...common,
      protocol: 'oidc',
      servicePrefixes: [],
      logoutUrl: '',
      attributes: [],
      oidc: {
        clientId: trimmed(oidc.clientId),
        clientType: oidc.clientType,
        redirectUris: addresses(oidc.redirectUris),
        postLogoutRedirectUris: addresses(oidc.postLogoutRedirectUris),
        backchannelLogoutUri: trimmed(oidc.backchannelLogoutUri),
        initiateLoginUri: trimmed(oidc.initiateLoginUri),
        scopes: oidc.scopes,
        accessTokenSeconds: Math.round(oidc.accessTokenMinutes * 60),
        idTokenSeconds: Math.round(oidc.idTokenMinutes * 60),
        refreshTokenSeconds: Math.round(oidc.refreshTokenHours * 3600),
      },
    };
  }
  if (values.protocol === 'saml2') {
    const { saml } = values;
    return {
      ...common,
      protocol: 'saml2',
      servicePrefixes: [],
      logoutUrl: '',
      attributes: values.attributes,
      saml: {
        ...saml,
        entityId: trimmed(saml.entityId),
        acsUrl: trimmed(saml.acsUrl),
        sloUrl: trimmed(saml.sloUrl),
        certificate: trimmed(saml.certificate),
      },
    };
  }
  return {
    ...common,
    protocol: values.protocol,
    servicePrefixes: values.servicePrefixes.map((p) => p.trim()),
    logoutUrl: trimmed(values.logoutUrl),
    attributes: values.attributes,
  };
}

/** The shared messages that name one plain field: a server refusal with one of them shows under it. */
const FIELD_OF_MESSAGE = new Map<string, SsoAppFormField>([
  [SsoMessage.nameRequired, 'name'],
  [SsoMessage.nameTooLong, 'name'],
  [SsoMessage.nameTaken, 'name'],
  [SsoMessage.categoryTooLong, 'category'],
  [SsoMessage.descriptionTooLong, 'description'],
  [SsoMessage.iconInvalid, 'icon'],
  [SsoMessage.logoutUrlInvalid, 'logoutUrl'],
  [SsoMessage.logoutUrlTooLong, 'logoutUrl'],
]);

/** Server refusals of an OIDC field shown under it (the lists' own problems show under the list). */
const OIDC_FIELD_OF_MESSAGE = new Map<string, SsoAppFormField>([
  [OidcAppMessage.clientIdInvalid, ['oidc', 'clientId']],
  [OidcAppMessage.clientIdTaken, ['oidc', 'clientId']],
  [OidcAppMessage.initiateLoginHttps, ['oidc', 'initiateLoginUri']],
  [OidcAppMessage.scopeUnknown, ['oidc', 'scopes']],
]);

/** Server refusals of a SAML field shown under it. */
const SAML_FIELD_OF_MESSAGE = new Map<string, SsoAppFormField>([
  [SamlAppMessage.entityIdInvalid, ['saml', 'entityId']],
  [SamlAppMessage.entityIdTaken, ['saml', 'entityId']],
  [SamlAppMessage.acsInvalid, ['saml', 'acsUrl']],
  [SamlAppMessage.sloInvalid, ['saml', 'sloUrl']],
  [SamlAppMessage.certificateInvalid, ['saml', 'certificate']],
  [SamlAppMessage.certificateRequired, ['saml', 'certificate']],
  [SamlAppMessage.unsigned, ['saml', 'signAssertion']],
]);

export const fieldOfMessage = (message: string): SsoAppFormField | undefined =>
  FIELD_OF_MESSAGE.get(message) ??
  OIDC_FIELD_OF_MESSAGE.get(message) ??
  SAML_FIELD_OF_MESSAGE.get(message) ??
  (message.startsWith('单点登出地址') ? ['saml', 'sloUrl'] : undefined) ??
  (message.startsWith('后端登出地址') ? ['oidc', 'backchannelLogoutUri'] : undefined);

/** The same address twice adds nothing: the form asks for one of them to go (compared as stored). */
export const SERVICE_DUPLICATE_MESSAGE = '服务地址不能重复';

/**
 * The 服务地址 list as a whole: one at least and MAX_SERVICE_PREFIXES at most (the shared rule), none
 * twice; each address's own problem shows under that address instead.
 */
export function servicePrefixListProblem(values: readonly string[]): string | undefined {
  if (values.length > 0 && values.some((v) => SsoRules.servicePrefix(v))) return undefined;
  const problem = SsoRules.servicePrefixes(values);
  if (problem) return problem;
  return new Set(values.map(normalizeServicePrefix)).size < values.length ? SERVICE_DUPLICATE_MESSAGE : undefined;
}
