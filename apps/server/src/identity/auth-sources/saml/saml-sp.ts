import { randomUUID, X509Certificate } from 'node:crypto';
import { validate as validateSchema } from '@authenio/samlify-node-xmllint';
import { type CacheProvider, type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { type SamlIdpMetadata, type SamlSourceConfig, type SamlSpEndpoints, AuthSourceMessage, certificateBase64 } from '@portal/shared';
import { XMLParser } from 'fast-xml-parser';
import * as samlify from 'samlify';
import { type OutboundGuard, OutboundTooLargeError, outboundGetText } from '../../../platform/lib/outbound.js';

/** How far the IdP's clock may be off ours (Keycloak's and Shibboleth's default is minutes, not seconds). */
export const SAML_SP_CLOCK_SKEW_MS = 3 * 60_000;
/** How long a sign-in may take at the IdP, from our AuthnRequest to its response. */
export const SAML_SP_REQUEST_SECONDS = 600;
/** The longest an assertion is taken after it was issued, whatever NotOnOrAfter says. */
const MAX_ASSERTION_AGE_MS = 10 * 60_000;
/** The largest SAMLResponse or LogoutRequest read, decoded. */
const MAX_MESSAGE_BYTES = 256 * 1024;
/** An IdP's metadata: a timeout and a size that no genuine document comes near (federation aggregates are refused). */
const METADATA_TIMEOUT_MS = 8000;
const METADATA_MAX_BYTES = 512 * 1024;

const BINDING_URNS = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;
const NAME_ID_URNS: Record<SamlSourceConfig['nameIdFormat'], string> = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
};

/** A message or document the service provider refuses: `reason` is for the log and 测试连接, in Chinese. */
export class SamlSpRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The key our AuthnRequests and LogoutRequests are signed with: the portal's SAML key (identity/saml/saml-keys.ts). */
export interface SpSigningKey {
  privateKey: string;
  certificate: string;
}

/** A certificate as PEM, 64 characters a line, from PEM or bare Base64. */
export function certificatePem(value: string): string {
  const body = certificateBase64(value);
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}

/** Whether each value is an X.509 certificate Node can read (the shared rule only checks the form). */
export function readableCertificates(values: readonly string[]): boolean {
  try {
    for (const value of values) new X509Certificate(certificatePem(value));
    return true;
  } catch {
    return false;
  }
}

/**
 * A document that may not come in: a DOCTYPE (external entities, entity expansion), a comment (NameID
 * truncation by comments) or a processing instruction besides the declaration. Refused whole, before
 * any XML library reads it.
 */
function refuseHostileXml(xml: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlSpRefusal('含有 DOCTYPE（不接受外部实体）');
  if (xml.includes('<!--')) throw new SamlSpRefusal('含有 XML 注释');
  if (/<\?(?!xml\s)/i.test(xml) || (xml.match(/<\?/g) ?? []).length > 1) throw new SamlSpRefusal('含有处理指令');
}

/** Decodes a posted SAMLResponse or SAMLRequest (HTTP-POST binding: Base64 of the XML) and refuses the hostile. */
function decodePosted(encoded: string): string {
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length === 0 || raw.length > MAX_MESSAGE_BYTES) throw new SamlSpRefusal('消息为空或过大');
  const xml = raw.toString('utf8');
  refuseHostileXml(xml);
  return xml;
}

/** Checks a message against the SAML 2.0 protocol schemas (the identity provider's validator: no Java, no network). */
async function schemaValid(xml: string): Promise<void> {
  try {
    await validateSchema(xml);
  } catch {
    throw new SamlSpRefusal('消息不符合 SAML 2.0 协议结构');
  }
}

const first = <T>(value: T | T[] | undefined): T | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The fields of an IdP's metadata a SAML source keeps (SAML Metadata §2.4.3): its entity ID, its SSO
 * service (HTTP-Redirect preferred, else HTTP-POST), its SLO service and its signing certificates.
 */
export function readIdpMetadata(xml: string): SamlIdpMetadata {
  if (!xml.trim()) throw new SamlSpRefusal('内容为空');
  refuseHostileXml(xml);
  if (/<(?:\w+:)?EntitiesDescriptor[\s>]/.test(xml)) throw new SamlSpRefusal('这是多个实体的聚合元数据，请提供该 IdP 自己的元数据');
  let meta: ReturnType<typeof samlify.IdentityProvider>['entityMeta'];
  try {
    meta = samlify.IdentityProvider({ metadata: xml }).entityMeta;
  } catch {
    throw new SamlSpRefusal('不是有效的 SAML 元数据 XML');
  }
  const entityId = meta.getEntityID();
  if (typeof entityId !== 'string' || !entityId.trim()) throw new SamlSpRefusal('缺少 entityID（不是 IdP 元数据？）');
  const service = (binding: 'redirect' | 'post', kind: 'sso' | 'slo') => {
    const name = binding === 'redirect' ? 'redirect' : 'post';
    let found: unknown;
    try {
      found = kind === 'sso' ? meta.getSingleSignOnService(name) : meta.getSingleLogoutService(name);
    } catch {
      return '';
    }
    const location = first(found as string | string[] | undefined);
    return typeof location === 'string' ? location : '';
  };
  const redirect = service('redirect', 'sso');
  const post = service('post', 'sso');
  if (!redirect && !post) throw new SamlSpRefusal('缺少 SingleSignOnService（HTTP-Redirect 或 HTTP-POST）');
  const signing = meta.getX509Certificate('signing');
  const certificates = (Array.isArray(signing) ? signing : [signing])
    .filter((c): c is string => typeof c === 'string' && c.trim() !== '')
    .map((c) => certificatePem(c));
  if (certificates.length === 0) throw new SamlSpRefusal('缺少签名证书（KeyDescriptor use="signing"）');
  if (!readableCertificates(certificates)) throw new SamlSpRefusal('签名证书无法解析');
  return {
    idpEntityId: entityId.trim(),
    ssoUrl: redirect || post,
    ssoBinding: redirect ? 'redirect' : 'post',
    sloUrl: service('redirect', 'slo') || service('post', 'slo'),
    certificates,
  };
}

/** Gets an IdP's metadata at an address an enterprise typed: through the outbound rules, no redirect, a timeout and a size limit. */
export async function fetchIdpMetadata(guard: OutboundGuard, address: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new SamlSpRefusal(AuthSourceMessage.samlUrlInvalid);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SamlSpRefusal(AuthSourceMessage.samlUrlInvalid);
  try {
    const answer = await outboundGetText(guard, url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      maxBytes: METADATA_MAX_BYTES,
      signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
    });
    if (answer.status >= 300 && answer.status < 400) throw new SamlSpRefusal(`地址返回重定向（HTTP ${answer.status}），请填写最终地址`);
    if (answer.status !== 200) throw new SamlSpRefusal(`HTTP ${answer.status}`);
    return answer.text;
  } catch (err) {
    if (err instanceof SamlSpRefusal) throw err;
    if (err instanceof OutboundTooLargeError) throw new SamlSpRefusal(`元数据超过 ${METADATA_MAX_BYTES / 1024} KiB`);
    const name = (err as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new SamlSpRefusal('连接超时');
    const message = err instanceof Error ? err.message : String(err);
    // The outbound guard's refusal is already a Chinese sentence; a socket error names its code.
    throw new SamlSpRefusal(/[\u4e00-\u9fff]/.test(message) ? message : `无法连接（${message}）`);
  }
}

/** A cache provider (node-saml's InResponseTo check) that knows one request ID: the one this browser's sign-in sent. */
function pendingRequestCache(requestId: string | undefined, issued?: (id: string) => void): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      issued?.(key);
      return { value, createdAt: Date.now() };
    },
    // node-saml reads the value as the request's creation time; its age and single use are the federated sign-in's state.
    getAsync: async (key) => (requestId !== undefined && key === requestId ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
}

/** The SAML service provider of one source, on @node-saml/node-saml. */
function serviceProvider(
  config: SamlSourceConfig,
  sp: SamlSpEndpoints,
  key: SpSigningKey,
  cache: CacheProvider,
  generateUniqueId?: () => string,
  forceAuthn = false,
) {
  return new SAML({
    entryPoint: config.ssoUrl,
    logoutUrl: config.sloUrl || config.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    logoutCallbackUrl: sp.sloUrl,
    audience: sp.entityId,
    idpIssuer: config.idpEntityId,
    idpCert: config.certificates.map(certificatePem),
    privateKey: key.privateKey,
    publicCert: key.certificate,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    identifierFormat: NAME_ID_URNS[config.nameIdFormat],
    wantAssertionsSigned: config.wantAssertionsSigned,
    // The response or the assertion must be signed either way: node-saml refuses a response with neither.
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_SP_REQUEST_SECONDS * 1000,
    cacheProvider: cache,
    acceptedClockSkewMs: SAML_SP_CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    disableRequestedAuthnContext: true,
    authnRequestBinding: config.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect',
    // HTTP-POST carries the XML as it is (SAML Bindings §3.5.4); only HTTP-Redirect deflates it.
    skipRequestCompression: config.ssoBinding === 'post',
    ...(generateUniqueId ? { generateUniqueId } : {}),
    forceAuthn,
  });
}

/** Our service provider's metadata for a source: entity ID, ACS (HTTP-POST), SLO, the signing certificate(s). */
export function spMetadata(config: SamlSourceConfig, sp: SamlSpEndpoints, key: SpSigningKey, published: readonly string[]): string {
  const saml = serviceProvider(config, sp, key, pendingRequestCache(undefined));
  const xml = saml.generateServiceProviderMetadata(null, published.length ? [...published] : [key.certificate]);
  // node-saml lists the SLO endpoint for HTTP-POST only; it takes HTTP-Redirect as well (most IdPs send that).
  const redirect = `<SingleLogoutService Binding="${BINDING_URNS.redirect}" Location="${sp.sloUrl}"/>`;
  return xml.replace(/(<SingleLogoutService [^>]*\/>)/, `$1${redirect}`);
}

/** A new AuthnRequest: where the browser goes (HTTP-Redirect) or the form it posts (HTTP-POST), and its ID. */
export async function authnRequest(
  config: SamlSourceConfig,
  sp: SamlSpEndpoints,
  key: SpSigningKey,
  relayState: string,
  forceAuthn = false,
): Promise<{ requestId: string; redirect?: string; post?: Record<string, string> }> {
  const requestId = `_${randomUUID()}`;
  // ForceAuthn (SAML Core §3.4.1): a CAS renew or an application's own prompt=login asks the IdP for a fresh sign-in too.
  const saml = serviceProvider(config, sp, key, pendingRequestCache(undefined), () => requestId, forceAuthn);
  if (config.ssoBinding === 'post') {
    const message = await saml.getAuthorizeMessageAsync(relayState);
    const fields = Object.fromEntries(Object.entries(message).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return { requestId, post: fields };
  }
  return { requestId, redirect: await saml.getAuthorizeUrlAsync(relayState, undefined, {}) };
}

/** What a checked login response says of the person. */
export interface SamlSignedInPerson {
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  attributes: Record<string, string[]>;
  assertionId: string;
  /** When the assertion stops being usable (its replay record may go then). */
  expiresAt: Date;
}

const assertionParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  processEntities: false,
  parseAttributeValue: false,
  parseTagValue: false,
});

type XmlNode = Record<string, unknown>;
const nodes = (value: unknown): XmlNode[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is XmlNode => !!v && typeof v === 'object');
const attr = (node: XmlNode | undefined, name: string) => (typeof node?.[`@${name}`] === 'string' ? (node[`@${name}`] as string) : '');
const text = (value: unknown): string =>
  typeof value === 'string' ? value : value && typeof value === 'object' && '#text' in value ? String((value as XmlNode)['#text']) : '';

/**
 * Reads what node-saml does not check in the assertion it verified (never in the unsigned rest of the
 * response): its ID (replay), the bearer SubjectConfirmationData's Recipient (our ACS, SAML Profiles
 * §4.1.4.3) and NotOnOrAfter.
 */
function readVerifiedAssertion(xml: string, acsUrl: string): { id: string; expiresAt: Date } {
  const doc = assertionParser.parse(xml) as XmlNode;
  const assertion = nodes(doc.Assertion)[0];
  const id = attr(assertion, 'ID');
  if (!assertion || !id) throw new SamlSpRefusal('断言缺少 ID');
  const confirmations = nodes(nodes(assertion.Subject)[0]?.SubjectConfirmation).flatMap((c) => nodes(c.SubjectConfirmationData));
  const recipients = confirmations.map((c) => attr(c, 'Recipient'));
  if (!recipients.includes(acsUrl)) throw new SamlSpRefusal(`断言的接收方（Recipient）不是本平台的 ACS 地址`);
  const ends = confirmations.map((c) => Date.parse(attr(c, 'NotOnOrAfter'))).filter(Number.isFinite);
  const conditionsEnd = Date.parse(attr(nodes(assertion.Conditions)[0], 'NotOnOrAfter'));
  const until = Math.max(...ends, Number.isFinite(conditionsEnd) ? conditionsEnd : 0, Date.now() + MAX_ASSERTION_AGE_MS);
  return { id, expiresAt: new Date(until + SAML_SP_CLOCK_SKEW_MS) };
}

/** The Response root's Destination, read from the XML as posted (SAML Bindings §3.5.5.2: must be our ACS when present). */
function destinationOf(xml: string): string | undefined {
  const doc = assertionParser.parse(xml) as XmlNode;
  const roots = Object.keys(doc).filter((k) => k !== '?xml');
  const response = nodes(doc.Response)[0];
  if (roots.length !== 1 || !response) throw new SamlSpRefusal('不是 SAML 登录响应（Response）');
  return attr(response, 'Destination') || undefined;
}

/** The values of the response's attributes as node-saml read them from the verified assertion, each a list of strings. */
function attributesOf(profile: Profile): Record<string, string[]> {
  const raw = (profile.attributes ?? {}) as Record<string, unknown>;
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    out[name] = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? v : text(v))).filter((v) => v !== '');
  }
  return out;
}

/** node-saml's words for a refused response, in Chinese (the log keeps the library's). */
function refusalOf(err: unknown): SamlSpRefusal {
  if (err instanceof SamlSpRefusal) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/InResponseTo/i.test(message)) return new SamlSpRefusal('响应不是对本次登录请求的回应（InResponseTo 不符、已使用或已过期）');
  if (/signature/i.test(message)) return new SamlSpRefusal('签名无效：响应或断言未签名，或不是用 IdP 的证书签名');
  if (/audience/i.test(message)) return new SamlSpRefusal('断言的受众（Audience）不是本平台');
  // node-saml names a bearer confirmation past its NotOnOrAfter "no valid subject confirmation".
  if (/NotBefore|NotOnOrAfter|expired|not yet valid|subject confirmation/i.test(message)) {
    return new SamlSpRefusal('断言不在有效期内（NotBefore / NotOnOrAfter）');
  }
  if (/issuer/i.test(message)) return new SamlSpRefusal('响应的签发方（Issuer）不是该 IdP');
  if (/status/i.test(message)) return new SamlSpRefusal(`IdP 未完成登录（${message}）`);
  return new SamlSpRefusal(`响应无效（${message}）`);
}

/**
 * Checks a posted SAMLResponse (HTTP-POST binding) of `requestId`, the AuthnRequest this browser's
 * sign-in sent: no hostile XML, the protocol schema, then node-saml: the IdP's signature on the response
 * or the assertion (on the assertion when `wantAssertionsSigned`; one assertion only, so a wrapped
 * copy is refused), the Issuer, InResponseTo, the validity window with the clock skew, the Audience;
 * then the Destination and Recipient. The request's single use and the assertion's replay are the
 * caller's (in the database).
 */
export async function checkLoginResponse(
  config: SamlSourceConfig,
  sp: SamlSpEndpoints,
  key: SpSigningKey,
  encoded: string,
  requestId: string | undefined,
): Promise<SamlSignedInPerson> {
  try {
    const xml = decodePosted(encoded);
    await schemaValid(xml);
    const destination = destinationOf(xml);
    if (destination !== undefined && destination !== sp.acsUrl)
      throw new SamlSpRefusal('响应的目的地址（Destination）不是本平台的 ACS 地址');
    const saml = serviceProvider(config, sp, key, pendingRequestCache(requestId));
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: encoded });
    if (!profile?.nameID) throw new SamlSpRefusal('断言缺少 NameID');
    const verified = readVerifiedAssertion(profile.getAssertionXml?.() ?? '', sp.acsUrl);
    return {
      nameId: profile.nameID,
      nameIdFormat: profile.nameIDFormat ?? '',
      sessionIndex: profile.sessionIndex ?? '',
      attributes: attributesOf(profile),
      assertionId: verified.id,
      expiresAt: verified.expiresAt,
    };
  } catch (err) {
    throw refusalOf(err);
  }
}

/** An IdP's LogoutRequest, checked: who it ends, and the LogoutResponse URL to send the browser back with. */
export interface IdpLogout {
  nameId: string;
  sessionIndex: string;
  respond: (success: boolean) => Promise<string>;
}

/**
 * Checks the IdP's LogoutRequest (SAML Profiles §4.4.4.1): signed by the IdP (the query signature on
 * HTTP-Redirect, an enveloped one on HTTP-POST), issued by it, to us; answers the person it names.
 */
export async function checkLogoutRequest(
  config: SamlSourceConfig,
  sp: SamlSpEndpoints,
  key: SpSigningKey,
  message: { query?: Record<string, string>; originalQuery?: string; body?: Record<string, string> },
): Promise<IdpLogout> {
  const saml = serviceProvider(config, sp, key, pendingRequestCache(undefined));
  try {
    let profile: Profile | null;
    if (message.body?.SAMLRequest) {
      const xml = decodePosted(message.body.SAMLRequest);
      await schemaValid(xml);
      ({ profile } = await saml.validatePostRequestAsync(message.body));
    } else if (message.query?.SAMLRequest) {
      if (!message.query.Signature) throw new SamlSpRefusal('登出请求未签名');
      ({ profile } = await saml.validateRedirectAsync(message.query, message.originalQuery ?? ''));
    } else throw new SamlSpRefusal('缺少 SAMLRequest');
    if (!profile?.nameID) throw new SamlSpRefusal('登出请求缺少 NameID');
    const request = profile;
    return {
      nameId: request.nameID,
      sessionIndex: request.sessionIndex ?? '',
      respond: (success) => saml.getLogoutResponseUrlAsync(request, '', {}, success),
    };
  } catch (err) {
    throw refusalOf(err);
  }
}

/** A signed LogoutRequest to the IdP for a federated sign-in (HTTP-Redirect), on 退出. */
export async function logoutRequestUrl(
  config: SamlSourceConfig,
  sp: SamlSpEndpoints,
  key: SpSigningKey,
  person: { nameId: string; nameIdFormat: string; sessionIndex: string },
  relayState: string,
): Promise<string> {
  const saml = serviceProvider(config, sp, key, pendingRequestCache(undefined));
  const profile: Profile = {
    issuer: config.idpEntityId,
    nameID: person.nameId,
    nameIDFormat: person.nameIdFormat || NAME_ID_URNS[config.nameIdFormat],
    ...(person.sessionIndex ? { sessionIndex: person.sessionIndex } : {}),
  };
  return saml.getLogoutUrlAsync(profile, relayState, {});
}

export { BINDING_URNS };
