import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, SignJWT } from 'jose';
import Provider, { type JWK } from 'oidc-provider';

/** A person at the enterprise's provider: their stable subject and the claims it releases. */
export interface IdpPerson {
  sub: string;
  preferred_username: string;
  name: string;
  email: string;
  email_verified: boolean;
  phone_number: string;
  /** Their password at the provider's own login page (a browser test types it). */
  password?: string;
}

export interface IdpClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Where the provider sends a logout token when a person's session there ends (Back-Channel Logout 1.0). */
  backchannelLogoutUri?: string;
}

/** How the provider misbehaves, for the tests of a relying party's checks. */
export interface IdpFaults {
  /** Serve a JWKS whose key has the signing key's id but other key material (every signature is then bad). */
  badKeys: boolean;
  /** Replace the nonce of authorization requests, so the ID token carries one the relying party never sent. */
  otherNonce: boolean;
  /** Answer the token endpoint this many milliseconds late. */
  slowTokenMs: number;
}

const bodyOf = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

/** The provider's own sign-in page (its look is its own: another company's product). */
const loginPage = (action: string, failed: boolean) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>集团统一身份认证</title></head>
<body><main><h1>集团统一身份认证</h1>${failed ? '<p role="alert">用户名或密码错误</p>' : ''}
<form method="post" action="${action}">
<label for="login">用户名</label><input id="login" name="login" autocomplete="username">
<label for="password">密码</label><input id="password" name="password" type="password">
<button type="submit">登录</button>
</form></main></body></html>`;

function rsaJwk(kid: string): { privateJwk: JWK; publicJwk: JWK } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const base = { kid, alg: 'RS256', use: 'sig' };
  return {
    privateJwk: { ...(privateKey.export({ format: 'jwk' }) as JWK), ...base },
    publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), ...base },
  };
}

/**
 * Tests only: an enterprise's own OpenID Provider, independent of the portal (node oidc-provider, an
 * OpenID-certified implementation) on its own HTTP server and port, with its own people. The person
 * who signs in at its login is `signInAs` (a test sets it, as a person typing their password would);
 * its consent is granted for the scopes asked. `faults` make it misbehave.
 */
export async function startOidcIdp(options: { port: number; clients: IdpClient[]; people: IdpPerson[] }) {
  const issuer = `http://127.0.0.1:${options.port}`;
  const people = new Map(options.people.map((p) => [p.sub, { ...p }]));
  const signing = rsaJwk('idp-key-1');
  const impostor = rsaJwk('idp-key-1');
  const state = {
    signInAs: null as string | null,
    faults: { badKeys: false, otherNonce: false, slowTokenMs: 0 } as IdpFaults,
    /** How many people signed in at its login (a second sign-in at the portal may reuse the provider's session). */
    logins: 0,
  };

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
      ...(c.backchannelLogoutUri ? { backchannel_logout_uri: c.backchannelLogoutUri } : {}),
    })),
    jwks: { keys: [signing.privateJwk] },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
      phone: ['phone_number'],
    },
    async findAccount(_ctx, id) {
      const person = people.get(id);
      if (!person) return undefined;
      const { password: _password, ...claims } = person;
      return { accountId: id, claims: async () => claims };
    },
    features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['enterprise-idp-test-cookie-key'] },
    // The portal it tells of ended sessions listens on loopback beside it in tests: without the
    // provider's own guard against special-use addresses (its dispatcher), which would refuse it.
    fetch: (url: string | URL | Request, options?: RequestInit) => {
      const { dispatcher: _guard, ...plain } = (options ?? {}) as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, plain);
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  });

  /** What went wrong delivering logout tokens (oidc-provider's backchannel.error events). */
  const backchannelErrors: string[] = [];
  provider.on('backchannel.error', (_ctx: unknown, err: Error) =>
    backchannelErrors.push(`${err.message} ${String((err as { cause?: unknown }).cause)}`),
  );
  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/jwks' && state.faults.badKeys) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [impostor.publicJwk] }));
        return;
      }
      if (url.pathname === '/auth' && state.faults.otherNonce && url.searchParams.has('nonce')) {
        url.searchParams.set('nonce', 'a-nonce-the-relying-party-never-sent');
        req.url = `${url.pathname}${url.search}`;
      }
      if (url.pathname === '/token' && state.faults.slowTokenMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, state.faults.slowTokenMs));
      }
      if (url.pathname.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          // A test that set `signInAs` stands for a person who signed in; otherwise the provider's own login page.
          let accountId = state.signInAs;
          if (!accountId && req.method === 'POST') {
            const form = new URLSearchParams(await bodyOf(req));
            const login = form.get('login') ?? '';
            const person = [...people.values()].find((p) => p.preferred_username === login || p.email === login);
            if (person && person.password !== undefined && person.password === form.get('password')) accountId = person.sub;
          }
          if (!accountId) {
            res.statusCode = req.method === 'POST' ? 401 : 200;
            res.setHeader('content-type', 'text/html; charset=utf-8');
            res.end(loginPage(url.pathname, req.method === 'POST'));
            return;
          }
          state.logins += 1;
          await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({
          accountId: String(details.session?.accountId ?? ''),
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return;
      }
      callback(req, res);
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    issuer,
    port,
    state,
    backchannelErrors,
    /** Changes what the provider says of a person from now on. */
    update(sub: string, claims: Partial<IdpPerson>) {
      const person = people.get(sub);
      if (person) Object.assign(person, claims);
    },
    add(person: IdpPerson) {
      people.set(person.sub, { ...person });
    },
    /**
     * A token signed with the provider's own key (RS256, its kid): what a genuine provider, or one
     * misusing its key, could send. `typ` is the header's (logout+jwt unless given; null leaves it out).
     */
    async sign(claims: Record<string, unknown>, typ: string | null = 'logout+jwt') {
      const key = await importJWK(signing.privateJwk as Parameters<typeof importJWK>[0], 'RS256');
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1', ...(typ === null ? {} : { typ }) })
        .setIssuedAt()
        .sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OidcIdp = Awaited<ReturnType<typeof startOidcIdp>>;
