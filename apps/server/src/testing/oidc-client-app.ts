import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';

/** A completed sign-in at the relying party: the tokens and the ID token's claims. */
export interface RelyingPartySignIn {
  tokens: client.TokenEndpointResponse;
  claims: client.IDToken;
}

/** What the relying party asks for at `/login`: any authorization request parameter (scope, prompt, max_age, …). */
export type SignInRequest = Record<string, string>;

export interface OidcClientAppOptions {
  /** `{PUBLIC_URL}/oidc`. */
  issuer: string;
  clientId: string;
  /** A confidential client's secret (client_secret_basic); none: a public client. */
  clientSecret?: string;
  /** 127.0.0.1 by default. */
  host?: string;
}

const SESSION_COOKIE = 'RP_SESSION';

/**
 * A stand-in for an enterprise's OpenID Connect application, as a real second HTTP server using
 * openid-client (an independent, certified relying party): `/login` starts the code flow with PKCE
 * (S256), state and nonce; `/callback` exchanges the code and verifies the ID token; `/backchannel`
 * takes back-channel logout tokens. With `exchange = false` the callback keeps the code unexchanged
 * (`codes`), for a test to exchange it later. It notes every request it receives.
 */
export class OidcClientApp {
  /** Whether `/callback` exchanges the code at once. */
  exchange = true;
  /** Every request received: method and path with query. */
  readonly requests: { method: string; url: string }[] = [];
  /** Sign-ins completed at `/callback`, the latest last. */
  readonly signIns: RelyingPartySignIn[] = [];
  /** Codes received while `exchange` is false, with what exchanging them needs. */
  readonly codes: { callbackUrl: URL; verifier: string; state: string; nonce: string }[] = [];
  /** The back-channel logout tokens received (OpenID Connect Back-Channel Logout 1.0 §2.5). */
  readonly logoutTokens: string[] = [];
  /** Why logout tokens that failed validation were refused (a test expects none). */
  readonly rejectedLogoutTokens: string[] = [];
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  private readonly pending = new Map<string, { verifier: string; nonce: string }>();
  private readonly sessions = new Map<string, RelyingPartySignIn>();
  private base = '';
  #config: client.Configuration | undefined;

  private constructor(
    private readonly server: http.Server,
    private readonly options: OidcClientAppOptions,
  ) {}

  static async start(options: OidcClientAppOptions): Promise<OidcClientApp> {
    const server = http.createServer();
    const app = new OidcClientApp(server, options);
    server.on('request', (req, res) => {
      app.handle(req, res).catch((err: unknown) => app.send(res, 500, `relying party failure: ${(err as Error).message}`));
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
    app.base = `http://${host}:${(server.address() as AddressInfo).port}`;
    return app;
  }

  get origin(): string {
    return this.base;
  }

  get redirectUri(): string {
    return `${this.base}/callback`;
  }

  get backchannelUri(): string {
    return `${this.base}/backchannel`;
  }

  /** The provider as openid-client discovered it (once). */
  async config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.options;
    this.#config ??= await client.discovery(
      new URL(issuer),
      clientId,
      undefined,
      clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
      { execute: [client.allowInsecureRequests] },
    );
    return this.#config;
  }

  /** The address that starts a sign-in with these request parameters. */
  loginUrl(request: SignInRequest = {}): string {
    return `${this.base}/login?${new URLSearchParams(request).toString()}`;
  }

  /** Exchanges a code kept while `exchange` was false. */
  async exchangeCode(kept: { callbackUrl: URL; verifier: string; state: string; nonce: string }): Promise<client.TokenEndpointResponse> {
    return client.authorizationCodeGrant(await this.config(), kept.callbackUrl, {
      pkceCodeVerifier: kept.verifier,
      expectedState: kept.state,
      expectedNonce: kept.nonce,
      idTokenExpected: true,
    });
  }

  reset(): void {
    this.requests.length = 0;
    this.signIns.length = 0;
    this.codes.length = 0;
    this.logoutTokens.length = 0;
    this.rejectedLogoutTokens.length = 0;
    this.exchange = true;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(`<!doctype html><html><body><p>${text}</p></body></html>`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests.push({ method: req.method ?? '', url: req.url ?? '' });
    const url = new URL(req.url ?? '/', this.base);
    if (req.method === 'POST' && url.pathname === '/backchannel') {
      const token = new URLSearchParams(await readBody(req)).get('logout_token');
      if (!token) return this.send(res, 400, 'no logout_token');
      // Validated as Back-Channel Logout 1.0 §2.6 asks: signed with a key of the provider's JWKS,
      // its issuer, this client as audience, the logout event, a sid or sub, and no nonce.
      try {
        const metadata = (await this.config()).serverMetadata();
        this.#jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri ?? ''));
        const { payload } = await jwtVerify(token, this.#jwks, {
          issuer: metadata.issuer,
          audience: this.options.clientId,
          typ: 'logout+jwt',
          requiredClaims: ['iat', 'jti', 'events'],
        });
        const events = payload['events'] as Record<string, unknown> | undefined;
        if (!events || typeof events['http://schemas.openid.net/event/backchannel-logout'] !== 'object') throw new Error('no logout event');
        if (!payload.sub && !payload['sid']) throw new Error('neither sid nor sub');
        if ('nonce' in payload) throw new Error('a nonce');
      } catch (err) {
        this.rejectedLogoutTokens.push((err as Error).message);
        return this.send(res, 400, 'invalid logout_token');
      }
      this.logoutTokens.push(token);
      return this.send(res, 200, 'ok');
    }
    if (url.pathname === '/login') return this.login(res, url);
    if (url.pathname === '/callback') return this.callback(res, url);
    const session = /(?:^|;\s*)RP_SESSION=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
    const signIn = session ? this.sessions.get(session) : undefined;
    return this.send(res, 200, signIn ? `signed in as ${String(signIn.claims.sub)}` : 'public page');
  }

  private async login(res: ServerResponse, url: URL) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    this.pending.set(state, { verifier, nonce });
    const target = client.buildAuthorizationUrl(await this.config(), {
      redirect_uri: this.redirectUri,
      scope: 'openid',
      ...Object.fromEntries(url.searchParams),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return this.send(res, 302, 'sign in', { location: target.href });
  }

  private async callback(res: ServerResponse, url: URL) {
    const state = url.searchParams.get('state') ?? '';
    const pending = this.pending.get(state);
    if (!pending) return this.send(res, 400, 'unknown state');
    this.pending.delete(state);
    if (url.searchParams.has('error')) return this.send(res, 400, `refused: ${url.searchParams.get('error') ?? ''}`);
    if (!this.exchange) {
      this.codes.push({ callbackUrl: url, verifier: pending.verifier, state, nonce: pending.nonce });
      return this.send(res, 200, 'code kept');
    }
    const tokens = await client.authorizationCodeGrant(await this.config(), url, {
      pkceCodeVerifier: pending.verifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return this.send(res, 500, 'no ID token');
    const signIn = { tokens, claims };
    this.signIns.push(signIn);
    const session = randomBytes(16).toString('hex');
    this.sessions.set(session, signIn);
    return this.send(res, 200, `signed in as ${claims.sub}`, { 'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly` });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 100_000) req.destroy();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
