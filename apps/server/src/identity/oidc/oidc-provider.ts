import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import Provider, { errors, type Account, type Client, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { publicSiteUrl } from '../../platform/config.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { OutboundGuard } from '../../platform/lib/outbound.js';
import { API_HEADERS } from '../../platform/plugins/security.js';
import type { AccountRepository } from '../accounts/account-repository.js';
import { clientSecretMatches } from './client-secret.js';
import { outboundFetch } from './outbound-fetch.js';
import { oidcAdapter, PORTAL_CLIENT_METADATA, type PortalClientMetadata } from './oidc-adapter.js';
import type { OidcClientRepository } from './oidc-client-repository.js';
import { MACHINE_SCOPES, type MachineScope, OIDC_CLAIM_SCOPES } from './oidc-scopes.js';
import { oidcErrorPage, oidcLogoutDonePage, oidcLogoutPage } from './oidc-pages.js';
import type { OidcRepository } from './oidc-repository.js';
import { KEY_CHECK_MS, MAX_ID_TOKEN_SECONDS, OIDC_KEY_SECRET, SIGNING_ALGS, SigningKeys, type SigningJwk } from './signing-keys.js';

/** Where the provider is mounted: the issuer is `{PUBLIC_URL}/oidc`. */
export const OIDC_PREFIX = '/oidc';

/**
 * Every /oidc answer: the API header set, with a page policy for the provider's few pages (the CAS
 * stylesheet, no scripts but the form_post one the provider adds by hash) and no framing.
 */
export const OIDC_HEADERS: Readonly<Record<string, string>> = {
  ...API_HEADERS,
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** Seconds from a client's metadata (its token lifetime), or the default; never more than `max`. */
function lifetime(client: Client | undefined, name: (typeof PORTAL_CLIENT_METADATA)[number], fallback: number, max: number): number {
  const value = (client?.metadata() as Partial<PortalClientMetadata> | undefined)?.[name];
  return typeof value === 'number' && value > 0 ? Math.min(value, max) : fallback;
}

/** A web origin of an absolute address, if it has one. */
function originOf(address: string): string | undefined {
  const origin = URL.parse(address)?.origin;
  return origin && origin !== 'null' ? origin : undefined;
}

interface ProviderDeps {
  issuer: string;
  casBase: string;
  sessionSeconds: number;
  cookieKeys: string[];
  jwks: SigningJwk[];
  repository: OidcRepository;
  clients: OidcClientRepository;
  accounts: AccountRepository;
  outbound: OutboundGuard;
  log: FastifyBaseLogger;
}

/** The account a token names: its claims per scope (OIDC Core §5.4). Unknown or unusable accounts are none. */
async function findAccount(accounts: AccountRepository, sub: string): Promise<Account | undefined> {
  if (!/^[1-9]\d{0,9}$/.test(sub)) return undefined;
  const profile = await accounts.profile(Number(sub));
  if (!profile?.usable) return undefined;
  return {
    accountId: sub,
    claims: () => ({
      sub,
      name: profile.name,
      preferred_username: profile.username,
      ...(profile.email ? { email: profile.email } : {}),
      ...(profile.phone ? { phone_number: profile.phone } : {}),
      ...(profile.enterpriseId ? { enterprise_id: String(profile.enterpriseId), enterprise_name: profile.enterpriseName } : {}),
    }),
  };
}

function configuration(deps: ProviderDeps): Configuration {
  const { casBase } = deps;
  return {
    adapter: oidcAdapter(deps.repository, deps.clients),
    // Back-channel logout goes to addresses enterprises typed: through the outbound rules.
    fetch: outboundFetch(deps.outbound),
    jwks: { keys: deps.jwks },
    findAccount: (_ctx, sub) => findAccount(deps.accounts, sub),
    claims: Object.fromEntries(Object.entries(OIDC_CLAIM_SCOPES).map(([scope, claims]) => [scope, [...claims]])),
    scopes: ['openid', 'offline_access', ...Object.keys(OIDC_CLAIM_SCOPES).filter((s) => s !== 'openid'), ...MACHINE_SCOPES],
    extraClientMetadata: { properties: [...PORTAL_CLIENT_METADATA] },
    // The provider refuses a known scope a client does not hold but, without resource indicators, drops
    // unknown ones from a client_credentials request before anything sees its parameters, so a mistyped
    // or made-up scope still got a token. The request as sent is checked instead and refused whole
    // (RFC 6749 §5.2 invalid_scope); this hook runs before the token is saved.
    extraTokenClaims: (ctx, token) => {
      if (token.kind === 'ClientCredentials') {
        const sent = ctx.oidc.body?.scope;
        const requested = typeof sent === 'string' ? sent.split(' ') : [];
        const unknown = requested.filter((s) => s && !MACHINE_SCOPES.includes(s as MachineScope));
        if (unknown.length > 0) throw new errors.InvalidScope('requested scope is not allowed', unknown.join(' '));
      }
      return undefined;
    },
    // OAuth 2.1 and the Security BCP (RFC 9700 §2.1.2): the code flow only, no implicit or hybrid.
    responseTypes: ['code'],
    // PKCE (S256 is the only method oidc-provider 9 knows) is required of public clients; a confidential
    // client that sends a challenge is held to it.
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    // Secrets are stored hashed (see Client.prototype.compareClientSecret below), so nothing may use one
    // as a key: no client_secret_jwt, no HS256 tokens.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    enabledJWA: {
      idTokenSigningAlgValues: [...SIGNING_ALGS],
      userinfoSigningAlgValues: [...SIGNING_ALGS],
      introspectionSigningAlgValues: [...SIGNING_ALGS],
      authorizationSigningAlgValues: [...SIGNING_ALGS],
    },
    features: {
      devInteractions: { enabled: false },
      // Not routed (oidc-routes.ts): authorization requests come as plain query strings.
      pushedAuthorizationRequests: { enabled: false },
      clientCredentials: { enabled: true },
      // A client reads and revokes its own tokens only: one enterprise's client never learns about another's.
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.body = oidcLogoutPage(casBase, ctx.oidc.client?.clientName, form);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = oidcLogoutDonePage(casBase);
        },
      },
    },
    // Refresh tokens are rotated at every use; a used one presented again revokes its grant (reuse detection).
    rotateRefreshToken: true,
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: deps.sessionSeconds,
      Grant: (ctx) => lifetime(ctx.oidc.client, 'portal_refresh_token_ttl', 14 * 86_400, 365 * 86_400),
      AccessToken: (_ctx, _token, client) => lifetime(client, 'portal_access_token_ttl', 3600, 86_400),
      ClientCredentials: 3600,
      IdToken: (_ctx, _token, client) => lifetime(client, 'portal_id_token_ttl', 3600, MAX_ID_TOKEN_SECONDS),
      RefreshToken: (_ctx, _token, client) => lifetime(client, 'portal_refresh_token_ttl', 14 * 86_400, 365 * 86_400),
    },
    // Browsers may call the token and userinfo endpoints only from a public client's own origins.
    clientBasedCORS: (ctx, origin, client) =>
      (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      (client.redirectUris ?? []).some((uri) => originOf(uri) === origin),
    interactions: { url: (_ctx, interaction) => `${OIDC_PREFIX}/interaction/${interaction.uid}` },
    cookies: {
      names: { session: 'oidc_session', interaction: 'oidc_interaction', resume: 'oidc_interaction_resume' },
      keys: deps.cookieKeys,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = oidcErrorPage(casBase, out.error, out.error_description);
    },
  };
}

/**
 * After a client's page, the redirect that follows its form may go to the client's registered addresses
 * (CSP form-action governs redirects after a form post): exactly those origins are added.
 */
function allowClientFormActions(ctx: KoaContextWithOIDC): void {
  const client = ctx.oidc?.client;
  const policy = ctx.response.get('content-security-policy');
  if (!client || !policy || !ctx.response.is('html')) return;
  const origins = new Set<string>();
  for (const uri of [...(client.redirectUris ?? []), ...(client.postLogoutRedirectUris ?? [])]) {
    const origin = originOf(uri);
    if (origin) origins.add(origin);
  }
  if (origins.size === 0) return;
  ctx.set('content-security-policy', policy.replace("form-action 'self'", `form-action 'self' ${[...origins].join(' ')}`));
}

function buildProvider(deps: ProviderDeps): Provider {
  const provider = new Provider(deps.issuer, configuration(deps));
  // The request's scheme and host are the ones Fastify trusted (TRUST_PROXY), passed as forwarded headers.
  provider.proxy = true;
  // Secrets are stored as hashes (RFC 6819 §5.1.4.1.3): the provider's documented extension point
  // for that is the client's compareClientSecret, given the hash in `client_secret`.
  provider.Client.prototype.compareClientSecret = function (this: Client, actual: string) {
    return clientSecretMatches(this.clientSecret ?? '', actual);
  };
  provider.use(async (ctx, next) => {
    await next();
    allowClientFormActions(ctx as KoaContextWithOIDC);
  });
  provider.on('server_error', (_ctx: unknown, err: unknown) => deps.log.error({ err }, 'OpenID provider error'));
  return provider;
}

type ProviderRequest = IncomingMessage & { originalUrl?: string };

/**
 * The OpenID provider (oidc-provider, OpenID Certified) as the portal runs it: state and clients in the
 * database, signing keys shared by every instance. An instance looks every `KEY_CHECK_MS` whether the
 * key set changed (a rotation on another instance or by the CLI) and then builds its provider again.
 */
export class OidcService {
  #provider: Provider | undefined;
  #handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  /** The version of the key set the provider was built with (SigningKeys.version). */
  #version = '';
  #building: Promise<Provider> | undefined;
  readonly #keyCheck;

  constructor(
    private readonly app: FastifyInstance,
    private readonly keys: SigningKeys,
    private readonly deps: Omit<ProviderDeps, 'jwks'>,
  ) {
    this.#keyCheck = app.caches.create<{ version: string }>('keys', {
      max: 1,
      ttl: KEY_CHECK_MS,
      load: async () => ({ version: await this.keys.version() }),
    });
  }

  get issuer(): string {
    return this.deps.issuer;
  }

  private async build(): Promise<Provider> {
    await this.keys.ensure();
    // The keys and their version from one read: compared later with the same version of the stored set.
    const { version, jwks } = await this.keys.keySet();
    const provider = buildProvider({ ...this.deps, jwks });
    this.#version = version;
    this.#provider = provider;
    // Koa composes its middleware on every callback(): once per provider.
    this.#handler = provider.callback();
    return provider;
  }

  /** The provider for the current key set (built again, once, when the set or its signing generation changed). */
  async provider(): Promise<Provider> {
    const current = await this.#keyCheck.get('version');
    if (this.#provider && (!current || current.version === this.#version)) return this.#provider;
    this.#building ??= this.build().finally(() => {
      this.#building = undefined;
    });
    return this.#building;
  }

  /**
   * Operator rotation: a new generation, published at once and signing after `KEY_ACTIVATION_MS`;
   * the replaced keys sign until then and stay published until what they signed expired.
   */
  async rotateKeys(): Promise<string[]> {
    const { kids } = await this.keys.rotate();
    // The cached version is the old set's: read it again now, not at the next key check.
    this.app.caches.clear('keys');
    await this.provider();
    return kids;
  }

  /** Hands a request under /oidc to the provider (Fastify has not read its body). */
  async handle(request: FastifyRequest, res: ServerResponse): Promise<void> {
    await this.provider();
    const handler = this.#handler;
    if (!handler) throw new Error('the OpenID provider is not built');
    const req: ProviderRequest = request.raw;
    // The provider answers with addresses on this scheme and host: PUBLIC_URL's, or the request's as
    // Fastify trusted them; what a client sent as forwarded headers is replaced.
    const origin = new URL(this.app.config.publicUrl ?? `${request.protocol}://${request.host}`);
    req.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = origin.host;
    req.headers['x-forwarded-for'] = request.ip;
    const url = req.url ?? OIDC_PREFIX;
    req.originalUrl = url;
    req.url = url.slice(OIDC_PREFIX.length) || '/';
    for (const [name, value] of Object.entries(OIDC_HEADERS)) res.setHeader(name, value);
    try {
      await handler(req, res);
    } finally {
      // The access log names the address as it was asked for.
      req.url = url;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    oidcService: OidcService;
  }
}

export default fp(
  async (app) => {
    const repository = app.oidcRepository;
    const box = new SecretBox(await app.systemRepository.sharedKey(OIDC_KEY_SECRET));
    const keys = new SigningKeys(repository, box);
    const base = publicSiteUrl(app.config);
    const service = new OidcService(app, keys, {
      issuer: `${base}${OIDC_PREFIX}`,
      // The central login's stylesheet and logo, on the pages' own origin.
      casBase: `${app.config.publicUrl ?? ''}/cas`,
      sessionSeconds: app.config.auth.sessionHours * 3600,
      // Signs the provider's cookies (session, interaction); shared so any instance reads them.
      cookieKeys: [(await app.systemRepository.sharedKey('oidc-cookie')).toString('base64url')],
      repository,
      clients: app.oidcClientRepository,
      accounts: app.accountRepository,
      outbound: app.outbound,
      log: app.log,
    });
    // The first start generates the keys; building now also fails the start, not a request, on a broken key set.
    await service.provider();
    app.decorate('oidcService', service);
    // Housekeeping every 10 minutes (no timer keeps the process alive).
    const purge = setInterval(
      () => void repository.purgeExpired(new Date().toISOString()).catch((err: unknown) => app.log.warn({ err }, 'OIDC purge failed')),
      600_000,
    );
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
  },
  { name: 'oidc-provider', dependencies: ['system-repository', 'account-repository', 'oidc-repository', 'oidc-client-repository'] },
);
