import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { validate as validateSchema } from '@authenio/samlify-node-xmllint';
import type { SamlEndpoints, SamlNameIdFormat, SamlSettings } from '@portal/shared';
import { XMLParser } from 'fast-xml-parser';
import * as samlify from 'samlify';
import type { SamlKeySet } from './saml-keys.js';

// Every message is checked against the SAML 2.0 schemas before it is read (samlify's validator, no Java).
samlify.setSchemaValidator({ validate: validateSchema });

const { binding: BINDING_NAMES } = samlify.Constants.wording;
export const BINDINGS = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;
export type InboundBinding = 'redirect' | 'post';

const NAME_ID_URNS: Record<SamlNameIdFormat, string> = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
};
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
/** Signature and digest algorithms named by SHA-1: refused in incoming messages (collisions are practical). */
const SHA1_ALGORITHM = /#(?:rsa-|dsa-|ecdsa-|hmac-)?sha1$/i;

/**
 * AuthnContextClassRef of an assertion, as the SSO session was authenticated: a password over TLS (SAML
 * Authn Context §3.4.19), more than one factor (a passkey, or a password and a second factor at that
 * login: the REFEDS MFA profile, which SPs such as Microsoft Entra, Shibboleth and Keycloak recognise),
 * or another way (chat or SMS sign-in, a session from before this was recorded).
 */
export const AUTHN_CONTEXTS = {
  password: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
  mfa: 'https://refeds.org/profile/mfa',
  unspecified: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
} as const;

/** How far another clock may be off (Keycloak's and Shibboleth's default is minutes, not seconds). */
export const CLOCK_SKEW_MS = 3 * 60_000;
/** How old a request may be when it arrives, and how long its sign-in waits at the central login. */
export const REQUEST_MAX_AGE_MS = 5 * 60_000;
/** How long an assertion may be used by the SP after it is issued (SAML Profiles §4.1.4.2: short). */
const ASSERTION_SECONDS = 5 * 60;
/** The largest message accepted, decoded (an AuthnRequest or LogoutRequest is a few KiB). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * The longest value of each field the portal keeps or looks up, as its column holds it: the ID
 * (saml_sign_in.request_id), the Issuer (saml_service_provider.entity_id), the SessionIndex (a sign-in's
 * id, which the portal issues) and the NameID (saml_sign_in.name_id).
 */
const FIELD_LIMITS = { ID: 256, Issuer: 500, SessionIndex: 64, NameID: 500 } as const;
/** Characters XML 1.0 never allows (§2.2): a message carrying one is not well-formed, whatever a lenient parser reads. */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A character reference (entities stay unexpanded here) to a C0 control character or DEL. */
const CONTROL_REFERENCE = /&#(?:x0*(?:[0-1]?[0-9a-f]|7f)|0*(?:[0-9]|[1-2][0-9]|3[01]|127));/i;

/** A message the identity provider refuses: `reason` goes to the log, the person sees the page. */
export class SamlRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What the portal reads of an inbound request before its signature is checked (to find its SP). */
export interface InboundMessage {
  xml: string;
  kind: string;
  id: string;
  issuer: string;
  issueInstant: string;
  destination: string | undefined;
  forceAuthn: boolean;
  isPassive: boolean;
  acsUrl: string | undefined;
  protocolBinding: string | undefined;
  sessionIndex: string | undefined;
  nameId: string | undefined;
  /** Whether the message carries an enveloped XML signature (the HTTP-POST binding's). */
  signed: boolean;
  /**
   * Why the message's signature cannot be accepted, if so: not its own (XML Signature wrapping) or made
   * with SHA-1. Refused by the caller once the Issuer's application is known, so that 登录日志 shows the
   * refusal at it.
   */
  signatureFault: string | undefined;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  processEntities: false,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
});

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && '#text' in value) {
    const text = (value as { '#text': unknown })['#text'];
    return typeof text === 'string' ? text : undefined;
  }
  return undefined;
};

/**
 * Decodes a SAMLRequest (deflated for HTTP-Redirect, SAML Bindings §3.4.4.1) and reads its root. A
 * DOCTYPE (external entities, entity expansion), a comment (NameID truncation by comments) or a
 * processing instruction besides the declaration never belongs in a protocol message: refused whole.
 */
export function readInbound(encoded: string, binding: InboundBinding, kind: 'AuthnRequest' | 'LogoutRequest'): InboundMessage {
  let raw: Buffer;
  try {
    raw = Buffer.from(encoded, 'base64');
    if (binding === 'redirect') raw = inflateRawSync(raw, { maxOutputLength: MAX_MESSAGE_BYTES });
  } catch {
    throw new SamlRefusal('message is not base64 (and deflated for HTTP-Redirect)');
  }
  if (raw.length === 0 || raw.length > MAX_MESSAGE_BYTES) throw new SamlRefusal('message is empty or too large');
  const xml = raw.toString('utf8');
  if (XML_FORBIDDEN.test(xml)) throw new SamlRefusal('message carries a character XML does not allow');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRefusal('message carries a DOCTYPE (external entities are refused)');
  if (xml.includes('<!--')) throw new SamlRefusal('message carries an XML comment');
  if (/<\?(?!xml\s)/i.test(xml) || (xml.match(/<\?/g) ?? []).length > 1) throw new SamlRefusal('message carries a processing instruction');
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    throw new SamlRefusal('message is not well-formed XML');
  }
  const rootNames = Object.keys(doc).filter((k) => k !== '?xml');
  const root = doc[kind] as Record<string, unknown> | undefined;
  if (rootNames.length !== 1 || !root || typeof root !== 'object') throw new SamlRefusal(`message is not one ${kind}`);
  const attr = (name: string) => (typeof root[`@${name}`] === 'string' ? (root[`@${name}`] as string) : undefined);
  const issuer = textOf(root.Issuer);
  const id = attr('ID');
  const issueInstant = attr('IssueInstant');
  if (!issuer || !id || !issueInstant) throw new SamlRefusal(`${kind} lacks Issuer, ID or IssueInstant`);
  const fields = {
    ID: id,
    Issuer: issuer,
    IssueInstant: issueInstant,
    Destination: attr('Destination'),
    AssertionConsumerServiceURL: attr('AssertionConsumerServiceURL'),
    ProtocolBinding: attr('ProtocolBinding'),
    SessionIndex: textOf(root.SessionIndex),
    NameID: textOf(root.NameID),
  };
  // What is read here is looked up, kept and compared: a control character (a NUL PostgreSQL refuses, a
  // line break in a log) or a value longer than its column never reaches the database.
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (CONTROL.test(value) || CONTROL_REFERENCE.test(value)) throw new SamlRefusal(`${kind}'s ${name} carries a control character`);
    const limit = FIELD_LIMITS[name as keyof typeof FIELD_LIMITS] as number | undefined;
    if (limit !== undefined && value.length > limit) throw new SamlRefusal(`${kind}'s ${name} is longer than ${limit} characters`);
  }
  // An enveloped signature must be the root's own: one Reference to the root's ID and nothing carried
  // inside it. Otherwise a signed original moved into ds:Object under a forged root still verifies
  // (XML Signature wrapping), while the fields read here come from the forged root.
  let wrapped: string | undefined;
  if (root.Signature !== undefined) {
    const signature = root.Signature as Record<string, unknown>;
    const reference = (signature.SignedInfo as Record<string, unknown> | undefined)?.Reference;
    const uri =
      reference && typeof reference === 'object' && !Array.isArray(reference) ? (reference as Record<string, unknown>)['@URI'] : undefined;
    if (Array.isArray(root.Signature) || signature.Object !== undefined || uri !== `#${id}`) {
      wrapped = `${kind}'s signature does not cover the message itself`;
    }
    const algorithmOf = (element: unknown) =>
      element && typeof element === 'object' && !Array.isArray(element) ? (element as Record<string, unknown>)['@Algorithm'] : undefined;
    const signedInfo = signature.SignedInfo as Record<string, unknown> | undefined;
    const digest =
      reference && typeof reference === 'object' && !Array.isArray(reference)
        ? (reference as Record<string, unknown>).DigestMethod
        : undefined;
    if ([algorithmOf(signedInfo?.SignatureMethod), algorithmOf(digest)].some((a) => typeof a === 'string' && SHA1_ALGORITHM.test(a)))
      wrapped ??= `${kind} is signed with SHA-1 (SHA-256 or stronger only)`;
  }
  return {
    xml,
    kind,
    id,
    issuer,
    issueInstant,
    destination: fields.Destination,
    forceAuthn: attr('ForceAuthn') === 'true' || attr('ForceAuthn') === '1',
    isPassive: attr('IsPassive') === 'true' || attr('IsPassive') === '1',
    acsUrl: fields.AssertionConsumerServiceURL,
    protocolBinding: fields.ProtocolBinding,
    sessionIndex: fields.SessionIndex,
    nameId: fields.NameID,
    signed: root.Signature !== undefined,
    signatureFault: wrapped,
  };
}

/** Refuses a query signature (HTTP-Redirect, SAML Bindings §3.4.4.1) made with SHA-1. */
export function checkSigAlg(sigAlg: string | undefined): void {
  if (sigAlg !== undefined && SHA1_ALGORITHM.test(sigAlg)) throw new SamlRefusal('SigAlg is SHA-1 (SHA-256 or stronger only)');
}

/** Refuses a message issued too long ago or in the future, beyond the clock skew. */
export function checkIssueInstant(issueInstant: string, now: Date): void {
  const at = Date.parse(issueInstant);
  if (!Number.isFinite(at)) throw new SamlRefusal('IssueInstant is not a time');
  if (at > now.getTime() + CLOCK_SKEW_MS) throw new SamlRefusal('IssueInstant lies in the future');
  if (at < now.getTime() - REQUEST_MAX_AGE_MS - CLOCK_SKEW_MS) throw new SamlRefusal('request has expired');
}

/** A certificate as samlify takes it: the PEM's Base64 body, whatever its line breaks. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** A service provider as samlify sees it, from 应用列表's settings. */
export function serviceProvider(settings: SamlSettings) {
  return samlify.ServiceProvider({
    entityID: settings.entityId,
    assertionConsumerService: [{ Binding: BINDINGS.post, Location: settings.acsUrl }],
    singleLogoutService: settings.sloUrl
      ? [
          { Binding: BINDINGS.post, Location: settings.sloUrl },
          { Binding: BINDINGS.redirect, Location: settings.sloUrl },
        ]
      : [],
    ...(settings.certificate ? { signingCert: certificateBody(settings.certificate) } : {}),
    authnRequestsSigned: settings.wantRequestsSigned,
    wantAssertionsSigned: settings.signAssertion,
    wantMessageSigned: settings.signResponse,
    wantLogoutRequestSigned: true,
    wantLogoutResponseSigned: true,
    nameIDFormat: [NAME_ID_URNS[settings.nameIdFormat]],
  });
}

/**
 * The identity provider as samlify sees it: the signing key, its endpoints and, for one service
 * provider, whether that SP's requests must be signed and its NameID format.
 */
export function identityProvider(endpoints: SamlEndpoints, keys: SamlKeySet, forSp?: SamlSettings) {
  return samlify.IdentityProvider({
    entityID: endpoints.entityId,
    privateKey: keys.signing.privateKey,
    // The metadata lists every published certificate; a message's KeyInfo names the signing one.
    signingCert: forSp ? certificateBody(keys.signing.certificate) : keys.published.map(certificateBody),
    requestSignatureAlgorithm: RSA_SHA256,
    wantAuthnRequestsSigned: forSp?.wantRequestsSigned ?? false,
    wantLogoutRequestSigned: forSp?.wantRequestsSigned ?? false,
    nameIDFormat: forSp ? [NAME_ID_URNS[forSp.nameIdFormat]] : Object.values(NAME_ID_URNS),
    singleSignOnService: [
      { Binding: BINDINGS.redirect, Location: endpoints.ssoUrl },
      { Binding: BINDINGS.post, Location: endpoints.ssoUrl },
    ],
    singleLogoutService: [
      { Binding: BINDINGS.redirect, Location: endpoints.sloUrl },
      { Binding: BINDINGS.post, Location: endpoints.sloUrl },
    ],
  });
}

/** The identity provider's metadata (every published certificate). */
export function idpMetadata(endpoints: SamlEndpoints, keys: SamlKeySet): string {
  return identityProvider(endpoints, keys).getMetadata();
}

/**
 * Checks the request's signature where the SP must sign (samlify: the query signature over the raw
 * octets for HTTP-Redirect, the enveloped XML signature for HTTP-POST) and the schema.
 */
export async function verifyRequest(
  endpoints: SamlEndpoints,
  keys: SamlKeySet,
  settings: SamlSettings,
  kind: 'AuthnRequest' | 'LogoutRequest',
  binding: InboundBinding,
  request: { query?: Record<string, string>; body?: Record<string, string>; octetString?: string },
) {
  const idp = identityProvider(endpoints, keys, settings);
  const sp = serviceProvider(settings);
  const name = binding === 'redirect' ? BINDING_NAMES.redirect : BINDING_NAMES.post;
  try {
    return kind === 'AuthnRequest' ? await idp.parseLoginRequest(sp, name, request) : await idp.parseLogoutRequest(sp, name, request);
  } catch (err) {
    throw new SamlRefusal(`${kind} refused: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/**
 * samlify's response template with its `{Tag}`s filled, values escaped; a null value drops its
 * attribute (an unsolicited response has no InResponseTo). Written here: Node's ESM view of samlify
 * does not export its template helper.
 */
function fillTemplate(template: string, values: Record<string, string | null>): string {
  let xml = template;
  for (const [tag, value] of Object.entries(values)) {
    xml =
      value === null ? xml.replaceAll(new RegExp(`\\s+[\\w:.-]+="\\{${tag}\\}"`, 'g'), '') : xml.replaceAll(`{${tag}}`, escapeXml(value));
  }
  return xml;
}

/** What a login response says of the person and the sign-in. */
export interface Assertion {
  nameId: string;
  inResponseTo: string | null;
  sessionIndex: string;
  authTime: Date;
  /** AuthnContextClassRef (AUTHN_CONTEXTS). */
  authnContext: string;
  /** Released attributes under their SAML names, multi-valued ones as lists. */
  attributes: Record<string, string | string[]>;
}

/**
 * A signed login response for the SP (SAML Profiles §4.1.4.2): its ACS is the Destination and the
 * Recipient, its entity ID the Audience, the assertion short-lived; signed as the SP asked (the
 * response, the assertion or both; never neither), RSA-SHA256. Answers the base64 SAMLResponse.
 */
export async function loginResponse(endpoints: SamlEndpoints, keys: SamlKeySet, settings: SamlSettings, a: Assertion): Promise<string> {
  const idp = identityProvider(endpoints, keys, settings);
  const sp = serviceProvider(settings);
  const now = new Date();
  const id = `_${randomUUID()}`;
  const notOnOrAfter = new Date(now.getTime() + ASSERTION_SECONDS * 1000).toISOString();
  const attributes = Object.entries(a.attributes)
    .map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value])
        .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
        .join('');
      return `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values}</saml:Attribute>`;
    })
    .join('');
  const authn =
    `<saml:AuthnStatement AuthnInstant="${a.authTime.toISOString()}" SessionIndex="${escapeXml(a.sessionIndex)}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>${escapeXml(a.authnContext)}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
  const template = (context: string) => {
    const filled = fillTemplate(context, {
      ID: id,
      AssertionID: `_${randomUUID()}`,
      Destination: settings.acsUrl,
      Audience: settings.entityId,
      SubjectRecipient: settings.acsUrl,
      Issuer: endpoints.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      // The SP's clock may be a little behind the portal's.
      ConditionsNotBefore: new Date(now.getTime() - 60_000).toISOString(),
      ConditionsNotOnOrAfter: notOnOrAfter,
      SubjectConfirmationDataNotOnOrAfter: notOnOrAfter,
      NameIDFormat: NAME_ID_URNS[settings.nameIdFormat],
      NameID: a.nameId,
      // An unsolicited (IdP-initiated) response has no InResponseTo: the attributes are dropped.
      InResponseTo: a.inResponseTo,
    });
    return {
      id,
      context: filled
        .replace('{AuthnStatement}', authn)
        .replace('{AttributeStatement}', attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : ''),
    };
  };
  const result = await idp.createLoginResponse(sp, { extract: {} }, BINDING_NAMES.post, {}, { customTagReplacement: template });
  return result.context;
}

/** A login response without an assertion: a status only, as a Response to the SP's request. */
const STATUS_RESPONSE_TEMPLATE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
  'ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
  '<saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
  '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:NoPassive"/></samlp:StatusCode></samlp:Status></samlp:Response>';

/**
 * The answer to a passive request the IdP cannot meet without showing the person a page (SAML Core
 * §3.4.1 IsPassive, §3.2.2.2 NoPassive): a Response with the Responder/NoPassive status and no
 * assertion, the response itself signed (there is no assertion to sign), RSA-SHA256, to the ACS.
 */
export async function noPassiveResponse(
  endpoints: SamlEndpoints,
  keys: SamlKeySet,
  settings: SamlSettings,
  inResponseTo: string | null,
): Promise<string> {
  const messageSigned = { ...settings, signResponse: true, signAssertion: false };
  const idp = identityProvider(endpoints, keys, messageSigned);
  const sp = serviceProvider(messageSigned);
  const id = `_${randomUUID()}`;
  const template = () => ({
    id,
    context: fillTemplate(STATUS_RESPONSE_TEMPLATE, {
      ID: id,
      IssueInstant: new Date().toISOString(),
      Destination: settings.acsUrl,
      InResponseTo: inResponseTo,
      Issuer: endpoints.entityId,
    }),
  });
  const result = await idp.createLoginResponse(sp, { extract: {} }, BINDING_NAMES.post, {}, { customTagReplacement: template });
  return result.context;
}

/** A signed LogoutRequest to the SP for one sign-in (HTTP-POST binding): the base64 SAMLRequest. */
export function logoutRequest(
  endpoints: SamlEndpoints,
  keys: SamlKeySet,
  settings: SamlSettings,
  nameId: string,
  sessionIndex: string,
): string {
  const idp = identityProvider(endpoints, keys, settings);
  const sp = serviceProvider(settings);
  return idp.createLogoutRequest(sp, BINDING_NAMES.post, { logoutNameID: nameId, sessionIndex }).context;
}

const LOGOUT_RESPONSE_TEMPLATE =
  '<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
  'ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
  '<saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success">{Partial}' +
  '</samlp:StatusCode></samlp:Status></samlp:LogoutResponse>';

/**
 * A signed LogoutResponse to the SP's LogoutRequest (HTTP-POST binding): the base64 SAMLResponse. When
 * the portal's session was not ended (the request named no sign-in of this browser), Success carries the
 * second-level PartialLogout (SAML Core §3.7.3.2): the SP's own session ended, not the IdP's.
 */
export function logoutResponse(
  endpoints: SamlEndpoints,
  keys: SamlKeySet,
  settings: SamlSettings,
  requestId: string,
  partial = false,
): string {
  const idp = identityProvider(endpoints, keys, settings);
  const sp = serviceProvider(settings);
  const id = `_${randomUUID()}`;
  const template = () => ({
    id,
    context: fillTemplate(LOGOUT_RESPONSE_TEMPLATE, {
      ID: id,
      IssueInstant: new Date().toISOString(),
      Destination: settings.sloUrl,
      InResponseTo: requestId,
      Issuer: endpoints.entityId,
    }).replace('{Partial}', partial ? '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:PartialLogout"/>' : ''),
  });
  return idp.createLogoutResponse(sp, { extract: { request: { id: requestId } } }, BINDING_NAMES.post, { customTagReplacement: template })
    .context;
}

/** The fields of an SP's metadata 应用列表 fills in (SAML Metadata §2.4.4). */
export function readSpMetadata(xml: string): Partial<SamlSettings> & { entityId: string } {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRefusal('metadata carries a DOCTYPE');
  const sp = samlify.ServiceProvider({ metadata: xml });
  const meta = sp.entityMeta;
  const entityId = meta.getEntityID();
  if (typeof entityId !== 'string' || !entityId) throw new SamlRefusal('metadata has no entityID');
  const acs = meta.getAssertionConsumerService(BINDING_NAMES.post);
  const slo = meta.getSingleLogoutService(BINDING_NAMES.post) || meta.getSingleLogoutService(BINDING_NAMES.redirect);
  const cert = meta.getX509Certificate('signing');
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const certificate = first(cert);
  return {
    entityId,
    acsUrl: typeof first(acs) === 'string' ? (first(acs) as string) : '',
    sloUrl: typeof first(slo) === 'string' ? (first(slo) as string) : '',
    certificate: typeof certificate === 'string' && certificate ? pemOf(certificate) : '',
    wantRequestsSigned: meta.isAuthnRequestSigned(),
    signAssertion: meta.isWantAssertionsSigned() || undefined,
  };
}

/** A Base64 certificate body as PEM, 64 characters a line. */
export function pemOf(body: string): string {
  const clean = certificateBody(body);
  return `-----BEGIN CERTIFICATE-----\n${clean.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}
