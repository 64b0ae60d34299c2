import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Profile, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import forge from 'node-forge';

/** A self-signed RSA key and certificate (PEM) for a service provider that signs its requests. */
export function spKeyPair(): { privateKey: string; certificate: string } {
  const pair = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'sp.test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'sp.test' }]);
  cert.sign(pair.privateKey, forge.md.sha256.create());
  return { privateKey: forge.pki.privateKeyToPem(pair.privateKey), certificate: forge.pki.certificateToPem(cert) };
}

/** The IdP's signing certificates as its metadata publishes them (what an SP configures from it). */
export async function idpCertificates(idpBase: string): Promise<string[]> {
  const xml = await (await fetch(`${idpBase}/saml/metadata`)).text();
  return [...xml.matchAll(/<(?:\w+:)?X509Certificate>([^<]+)</g)].map((m) => (m[1] ?? '').replace(/\s+/g, ''));
}

export interface SpOptions {
  idpBase: string;
  /** Signs its AuthnRequests and LogoutRequests with this key. */
  signing?: { privateKey: string; certificate: string };
  identifierFormat?: string;
  /** An IdP-initiated (unsolicited) response is accepted. */
  unsolicited?: boolean;
  /** Overrides of node-saml's options (a request the IdP must refuse). */
  overrides?: Partial<SamlConfig>;
}

/**
 * An independent SAML service provider on @node-saml/node-saml, a real HTTP server: `/login` starts an
 * HTTP-Redirect AuthnRequest, `/login-post` answers the HTTP-POST form, `/acs` validates the response
 * (signatures against the IdP metadata's certificates, audience, recipient, InResponseTo of a request it
 * sent) and answers the profile as JSON, `/slo` takes the IdP's LogoutRequests and LogoutResponses.
 */
export async function startSamlSp(options: SpOptions) {
  const received = {
    profiles: [] as Profile[],
    refusals: [] as string[],
    logoutRequests: [] as Profile[],
    logoutResponses: 0,
    hits: 0,
  };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certs = await idpCertificates(options.idpBase);
  const config: SamlConfig = {
    entryPoint: `${options.idpBase}/saml/sso`,
    logoutUrl: `${options.idpBase}/saml/slo`,
    issuer: `${base}/saml/metadata`,
    callbackUrl: `${base}/saml/acs`,
    audience: `${base}/saml/metadata`,
    idpCert: certs,
    idpIssuer: `${options.idpBase}/saml/metadata`,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    identifierFormat: options.identifierFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    validateInResponseTo: options.unsolicited ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 60_000,
    ...(options.signing ? { privateKey: options.signing.privateKey, publicCert: options.signing.certificate } : {}),
    ...options.overrides,
  };
  const saml = new SAML(config);
  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.hits += 1;
      const path = new URL(req.url ?? '/', base).pathname;
      const form = Object.fromEntries(new URLSearchParams(body));
      const answer = (status: number, type: string, text: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': type, ...headers });
        res.end(text);
      };
      void (async () => {
        try {
          if (path === '/saml/login') {
            return answer(302, 'text/plain', '', { location: await saml.getAuthorizeUrlAsync('relay-1', undefined, {}) });
          }
          if (path === '/saml/login-post') return answer(200, 'text/html', await saml.getAuthorizeFormAsync('relay-2'));
          if (path === '/saml/acs' && req.method === 'POST') {
            const { profile } = await saml.validatePostResponseAsync(form);
            if (!profile) throw new Error('no profile');
            received.profiles.push(profile);
            const { getAssertion: _a, getAssertionXml: _b, getSamlResponseXml: _c, ...plain } = profile;
            return answer(200, 'application/json', JSON.stringify({ ...plain, relayState: form.RelayState ?? null }));
          }
          if (path === '/saml/slo' && req.method === 'POST') {
            if (form.SAMLResponse) {
              received.logoutResponses += 1;
              return answer(200, 'text/plain', 'logged out');
            }
            const { profile } = await saml.validatePostRequestAsync(form);
            if (profile) received.logoutRequests.push(profile);
            return answer(200, 'text/plain', 'ok');
          }
          return answer(404, 'text/plain', 'not found');
        } catch (err) {
          received.refusals.push(err instanceof Error ? err.message : String(err));
          return answer(403, 'text/plain', 'refused');
        }
      })();
    });
  });
  return {
    base,
    saml,
    received,
    entityId: `${base}/saml/metadata`,
    acsUrl: `${base}/saml/acs`,
    sloUrl: `${base}/saml/slo`,
    loginUrl: `${base}/saml/login`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
export type SamlSp = Awaited<ReturnType<typeof startSamlSp>>;
