import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { validate as validateSchema } from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';
import { spKeyPair } from './saml-sp-app.js';

samlify.setSchemaValidator({ validate: validateSchema });

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** Who the IdP says signs in. */
export interface IdpUser {
  nameId: string;
  nameIdFormat?: string;
  sessionIndex?: string;
  attributes: Record<string, string>;
}

/**
 * How the next login response goes wrong: signed by another key, not signed at all, issued for another
 * audience, or long expired; `wrapped` adds a second, unsigned assertion beside the signed one.
 */
export type ResponseFault = 'none' | 'wrong-key' | 'unsigned' | 'wrong-audience' | 'expired' | 'wrapped';

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

const certBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/**
 * An independent SAML 2.0 identity provider on samlify, a real HTTP server, as an enterprise's own IdP:
 * `/metadata`, `/sso` (HTTP-Redirect and HTTP-POST AuthnRequests, signatures checked against the SP's
 * metadata, answered with a signed HTTP-POST Response for `user`), `/slo` (the SP's LogoutRequest checked,
 * answered with a LogoutResponse) and `logoutRequestUrl` (an IdP-initiated LogoutRequest to the SP).
 */
export async function startSamlIdp() {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = spKeyPair();
  const otherKeys = spKeyPair();
  const state = {
    user: undefined as IdpUser | undefined,
    fault: 'none' as ResponseFault,
    /** The AuthnRequests received, parsed (ID, Issuer…). */
    requests: [] as { id: string; issuer: string; signed: boolean; forceAuthn?: boolean }[],
    /** The SP's LogoutRequests received (NameID, SessionIndex). */
    logoutRequests: [] as { nameId: string; sessionIndex: string }[],
    refusals: [] as string[],
  };
  const idpFor = (key = keys) =>
    samlify.IdentityProvider({
      entityID: `${base}/metadata`,
      privateKey: key.privateKey,
      signingCert: certBody(key.certificate),
      wantAuthnRequestsSigned: true,
      wantLogoutRequestSigned: true,
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      singleSignOnService: [
        { Binding: REDIRECT, Location: `${base}/sso` },
        { Binding: POST, Location: `${base}/sso` },
      ],
      singleLogoutService: [{ Binding: REDIRECT, Location: `${base}/slo` }],
      nameIDFormat: ['urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'],
    });
  const idp = idpFor();

  /** The SP as its metadata (at its entity ID) describes it; its LogoutRequests must be signed too. */
  const spCache = new Map<string, ReturnType<typeof samlify.ServiceProvider>>();
  async function spOf(entityId: string) {
    const known = spCache.get(entityId);
    if (known) return known;
    const metadata = await (await fetch(entityId)).text();
    const sp = samlify.ServiceProvider({
      metadata,
      wantLogoutRequestSigned: true,
      wantLogoutResponseSigned: true,
      wantAssertionsSigned: true,
    });
    spCache.set(entityId, sp);
    return sp;
  }
  const issuerOf = (xml: string) => /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '';

  /** A login response for `user` to the SP's request, as `fault` says. */
  async function loginResponse(sp: ReturnType<typeof samlify.ServiceProvider>, requestId: string, user: IdpUser, fault: ResponseFault) {
    const acs = sp.entityMeta.getAssertionConsumerService(samlify.Constants.wording.binding.post) as string;
    const audience = fault === 'wrong-audience' ? 'https://other-sp.example.com/metadata' : sp.entityMeta.getEntityID();
    const now = Date.now();
    const issued = fault === 'expired' ? now - 3 * 3600_000 : now;
    const until = new Date(issued + 5 * 60_000).toISOString();
    const attributes = Object.entries(user.attributes)
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const responseId = `_${randomUUID()}`;
    const assertion = (id: string, nameId: string) =>
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date(issued).toISOString()}">` +
      `<saml:Issuer>${base}/metadata</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${user.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'}">${escapeXml(nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${acs}" InResponseTo="${requestId}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${new Date(issued - 60_000).toISOString()}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escapeXml(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${new Date(issued).toISOString()}" SessionIndex="${escapeXml(user.sessionIndex ?? '_s1')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      '</saml:Assertion>';
    const response = (inner: string) =>
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${new Date(issued).toISOString()}" Destination="${acs}" InResponseTo="${requestId}">` +
      `<saml:Issuer>${base}/metadata</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${inner}</samlp:Response>`;
    if (fault === 'unsigned') return Buffer.from(response(assertion(`_${randomUUID()}`, user.nameId))).toString('base64');
    const signer = fault === 'wrong-key' ? idpFor(otherKeys) : idp;
    const result = await signer.createLoginResponse(
      sp,
      { extract: { request: { id: requestId } } },
      samlify.Constants.wording.binding.post,
      {},
      () => ({ id: responseId, context: response(assertion(`_${randomUUID()}`, user.nameId)) }),
    );
    if (fault !== 'wrapped') return result.context;
    // XML Signature wrapping: the signed assertion stays, a forged one for someone else goes in front of it.
    const signed = Buffer.from(result.context, 'base64').toString('utf8');
    const forged = assertion(`_${randomUUID()}`, 'attacker');
    return Buffer.from(signed.replace(/(<samlp:Status>.*?<\/samlp:Status>)/, `$1${forged}`)).toString('base64');
  }

  /** The auto-posting form a browser gets (the SP's ACS, HTTP-POST binding). */
  const postPage = (action: string, fields: Record<string, string>) =>
    `<!doctype html><html><body><form method="post" action="${escapeXml(action)}">${Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeXml(value)}">`)
      .join('')}<button type="submit">Continue</button></form></body></html>`;

  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const answer = (status: number, type: string, text: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': type, ...headers });
        res.end(text);
      };
      void (async () => {
        try {
          if (url.pathname === '/metadata') return answer(200, 'application/samlmetadata+xml', idp.getMetadata());
          if (url.pathname === '/sso') {
            const posted = req.method === 'POST';
            const fields = posted ? Object.fromEntries(new URLSearchParams(body)) : Object.fromEntries(url.searchParams);
            const encoded = fields.SAMLRequest ?? '';
            const xml = posted
              ? Buffer.from(encoded, 'base64').toString('utf8')
              : (await import('node:zlib')).inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
            const sp = await spOf(issuerOf(xml));
            const octetString = posted
              ? undefined
              : (req.url ?? '')
                  .split('?')[1]
                  ?.split('&')
                  .filter((p) => !p.startsWith('Signature='))
                  .join('&');
            const parsed = await idp.parseLoginRequest(sp, posted ? 'post' : 'redirect', {
              ...(posted ? { body: fields } : { query: fields, octetString }),
            });
            const requestId = String((parsed.extract as { request?: { id?: string } }).request?.id ?? '');
            state.requests.push({ id: requestId, issuer: issuerOf(xml), signed: true, forceAuthn: /\sForceAuthn="true"/.test(xml) });
            if (!state.user) return answer(403, 'text/plain', 'no user');
            const acs = sp.entityMeta.getAssertionConsumerService(samlify.Constants.wording.binding.post) as string;
            const response = await loginResponse(sp, requestId, state.user, state.fault);
            return answer(200, 'text/html', postPage(acs, { SAMLResponse: response, RelayState: fields.RelayState ?? '' }));
          }
          if (url.pathname === '/slo') {
            const fields = Object.fromEntries(url.searchParams);
            const xml = (await import('node:zlib')).inflateRawSync(Buffer.from(fields.SAMLRequest ?? '', 'base64')).toString('utf8');
            const sp = await spOf(issuerOf(xml));
            const octetString = (req.url ?? '')
              .split('?')[1]
              ?.split('&')
              .filter((p) => !p.startsWith('Signature='))
              .join('&');
            const parsed = await idp.parseLogoutRequest(sp, 'redirect', { query: fields, octetString });
            const extract = parsed.extract as { nameID?: string; sessionIndex?: string; request?: { id?: string } };
            state.logoutRequests.push({ nameId: extract.nameID ?? '', sessionIndex: extract.sessionIndex ?? '' });
            const { context } = idp.createLogoutResponse(
              sp,
              { extract: { request: { id: extract.request?.id ?? '' } } },
              'redirect',
              fields.RelayState ?? '',
            );
            return answer(302, 'text/plain', '', { location: context });
          }
          return answer(404, 'text/plain', 'not found');
        } catch (err) {
          state.refusals.push(err instanceof Error ? err.message : String(err));
          return answer(400, 'text/plain', 'refused');
        }
      })();
    });
  });

  return {
    base,
    state,
    metadataUrl: `${base}/metadata`,
    metadata: () => idp.getMetadata(),
    /** An IdP-initiated LogoutRequest to the SP (HTTP-Redirect, signed): the address the browser or a back-channel call goes to. */
    async logoutRequestUrl(spEntityId: string, nameId: string, sessionIndex?: string, signedBy: 'idp' | 'other' = 'idp') {
      const sp = await spOf(spEntityId);
      const signer = signedBy === 'idp' ? idp : idpFor(otherKeys);
      return signer.createLogoutRequest(sp, 'redirect', { logoutNameID: nameId, ...(sessionIndex ? { sessionIndex } : {}) }).context;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
export type SamlIdp = Awaited<ReturnType<typeof startSamlIdp>>;
