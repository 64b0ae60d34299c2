import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import Provider, {
  errors,
  interactionPolicy,
  type Account,
  type AccessToken,
  type AuthorizationCode,
  type Client,
  type Configuration,
  type Grant,
  type Interaction,
  type InteractionResults,
  type KoaContextWithOIDC,
  type RefreshToken,
} from 'oidc-provider';
import { publicSiteUrl } from '../../platform/config.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { PortalMetrics } from '../../platform/lib/metrics.js';
import type { OutboundGuard } from '../../platform/lib/outbound.js';
import { API_HEADERS } from '../../platform/plugins/security.js';
import type { AccountRepository } from '../accounts/account-repository.js';
import type { LogoutMessage } from '../cas/cas-services.js';
import type { CasTicketRepository, IssuedTicket } from '../cas/cas-ticket-repository.js';
import type { TicketStore } from '../cas/cas-tickets.js';
import type { ApplicationAccess } from '../cas/cas-validation-service.js';
import type { LoginLogRepository } from '../login-log/login-log-repository.js';
import { clientSecretMatches, SECRET_GENERATION_CLAIM, secretGeneration } from './client-secret.js';
import { outboundFetch } from './outbound-fetch.js';
import { applicationMetadata, oidcAdapter, PORTAL_CLIENT_METADATA, type PortalClientMetadata } from './oidc-adapter.js';
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

/**
 * A client's metadata. The provider's Client#metadata() builds a new snake_case copy on every call, and
 * a sign-in asks for it at each token's lifetime; a Client instance is made once per set of stored
 * properties (its cache is keyed by their digest), so its metadata is too.
 */
const metadataOfClient = new WeakMap<Client, Partial<PortalClientMetadata>>();
function metadataOf(client: Client): Partial<PortalClientMetadata> {
  let metadata = metadataOfClient.get(client);
  if (!metadata) {
    metadata = client.metadata() as Partial<PortalClientMetadata>;
    metadataOfClient.set(client, metadata);
  }
  return metadata;
}

/** Seconds from a client's metadata (its token lifetime), or the default; never more than `max`. */
function lifetime(client: Client | undefined, name: (typeof PORTAL_CLIENT_METADATA)[number], fallback: number, max: number): number {
  const value = client ? metadataOf(client)[name] : undefined;
  return typeof value === 'number' && value > 0 ? Math.min(value, max) : fallback;
}

/** A web origin of an absolute address, if it has one. */
function originOf(address: string): string | undefined {
  const origin = URL.parse(address)?.origin;
  return origin && origin !== 'null' ? origin : undefined;
}

/** Who signed out at a relying party's request (RP-Initiated Logout): the browser, and the client that asked. */
export interface SignOutClient {
  ip: string;
  userAgent: string;
  origin: string;
  clientId: string | undefined;
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
  /** 应用授权 and the account's groups and roles (sso-apps' repository). */
  access: Pick<ApplicationAccess, 'mayUse' | 'groupsAndRoles'>;
  loginLog: LoginLogRepository;
  tickets: CasTicketRepository;
  /** The SSO sessions (prompt=none signs in with the live one behind the provider session). */
  sso: TicketStore;
  outbound: OutboundGuard;
  log: FastifyBaseLogger;
  metrics: PortalMetrics;
  /**
   * RP-initiated logout ended a provider session: the SSO sessions that signed it in end too, and the
   * other applications they signed in to hear of it (oidc-sign-in.ts).
   */
  endSignIns: (sessionUid: string, client: SignOutClient) => Promise<void>;
}

/** What a sign-in through the central login (oidc-sign-in.ts) submits as the interaction's result. */
export interface PortalInteractionResult {
  /** The spent service ticket of the callback: the sign-in's link to its SSO session. */
  ticket: string;
}

/** A mainland number as E.164 (OIDC Core §5.1 phone_number); any other form as it was entered. */
function e164(phone: string): string {
  return /^1\d{10}$/.test(phone) ? `+86${phone}` : phone;
}

/** 应用授权 refused a sign-in or token: 登录日志's 无权访问应用, naming the application. */
async function logNotAuthorized(deps: ProviderDeps, ctx: KoaContextWithOIDC, accountId: number, application: { id: number; name: string }) {
  const profile = await deps.accounts.profile(accountId);
  await deps.loginLog.record(deps.log, {
    accountId,
    username: profile?.username ?? '',
    enterpriseId: profile?.enterpriseId ?? null,
    name: profile?.name ?? '',
    result: 'failure',
    reason: 'not-authorized',
    applicationId: application.id,
    applicationName: application.name,
    ip: ctx.ip,
    userAgent: ctx.get('user-agent'),
  });
}

/** prompt=none's sign-in through the live SSO session behind the provider session (see ssoSignIn). */
interface SsoSignIn {
  tgtId: string;
  /** 应用授权 admits the account to the client's application. */
  allowed: boolean;
}
const ssoSignIns = new WeakMap<object, SsoSignIn>();

/**
 * `prompt=none` (OIDC Core §3.1.2.1): no page may be shown, and the provider cannot see the TGC (its
 * path is /cas). The provider session's latest sign-in names its SSO session: if that is still live
 * (its idle clock touched, as an SSO ticket does) and of the same account, it signs in again without
 * the browser visiting the CAS; 应用授权 is asked as for a ticket. Anything else: login_required.
 */
async function ssoSignIn(ctx: KoaContextWithOIDC, deps: ProviderDeps): Promise<SsoSignIn | undefined> {
  const { oidc } = ctx;
  const accountId = oidc.account?.accountId;
  if (!oidc.prompts.has('none') || oidc.result || !accountId || !oidc.session?.uid || !oidc.client) return undefined;
  const tgt = await deps.sso.liveTgtOfOidcSession(oidc.session.uid);
  if (!tgt || String(tgt.accountId) !== accountId) return undefined;
  const applicationId = metadataOf(oidc.client).portal_application_id;
  let allowed = true;
  if (applicationId !== undefined && !(await deps.access.mayUse(tgt.accountId, applicationId))) {
    allowed = false;
    await logNotAuthorized(deps, ctx, tgt.accountId, { id: applicationId, name: oidc.client.clientName ?? '' });
  }
  const signIn = { tgtId: tgt.id, allowed };
  ssoSignIns.set(ctx, signIn);
  return signIn;
}

/**
 * The application of a token's client. At /token and /me the provider has just read the client that
 * presents the token, with the same query (enabled, of an active enterprise): its metadata names the
 * application, so it is not read again; another client's is read.
 */
async function applicationOfToken(
  deps: ProviderDeps,
  ctx: KoaContextWithOIDC,
  clientId: string,
): Promise<{ id: number; name: string } | undefined> {
  const client = ctx.oidc.client;
  if (client?.clientId === clientId) {
    const id = metadataOf(client).portal_application_id;
    // A machine client has no application: 应用授权 does not apply.
    return id === undefined ? undefined : { id, name: client.clientName ?? '' };
  }
  return deps.clients.findApplication(clientId);
}

/**
 * The account a token names: its claims per scope (OIDC Core §5.4), `groups` and `roles` read only
 * when asked for. Unknown or unusable accounts are none.
 *
 * With a token (a code or refresh token at /token, an access token at /me) 应用授权 is asked again: a
 * right revoked since the sign-in ends the grant with every token under it, lands in 登录日志 as
 * not-authorized, and the provider answers invalid_grant or invalid_token. Without one (the
 * authorization request) the central login's ticket has asked already.
 */
async function findAccount(
  deps: ProviderDeps,
  ctx: KoaContextWithOIDC,
  sub: string,
  token: AuthorizationCode | AccessToken | RefreshToken | { clientId?: string; grantId?: string } | undefined,
): Promise<Account | undefined> {
  if (!/^[1-9]\d{0,9}$/.test(sub)) return undefined;
  const accountId = Number(sub);
  // The claims name no roles (those are read below, when asked for): the profile without them.
  const profile = await deps.accounts.person(accountId);
  if (!profile?.usable) return undefined;
  // A refresh lives as long as the SSO session that signed it in (Keycloak's SSO Session Idle and Max):
  // after an idle or absolute timeout it is refused and spent. offline_access outlives the timeouts
  // (OIDC Core §11; the grant, which both may share, stays); an explicit end (logout, 强制下线, 停用…) ends both.
  if (token instanceof ctx.oidc.provider.RefreshToken && token.grantId && !token.scopes.has('offline_access')) {
    if (!(await deps.sso.liveTgtOfOidcGrant(token.grantId))) {
      await token.destroy();
      return undefined;
    }
  }
  if (token?.clientId) {
    const application = await applicationOfToken(deps, ctx, token.clientId);
    if (application && !(await deps.access.mayUse(accountId, application.id))) {
      if (token.grantId) await deps.repository.destroyGrant(token.grantId);
      await logNotAuthorized(deps, ctx, accountId, application);
      return undefined;
    }
  }
  return {
    accountId: sub,
    claims: async (_use, scope) => {
      const scopes = new Set(scope.split(' '));
      const memberships = scopes.has('groups') || scopes.has('roles') ? await deps.access.groupsAndRoles(accountId) : undefined;
      return {
        sub,
        name: profile.name,
        preferred_username: profile.username,
        ...(profile.email ? { email: profile.email } : {}),
        ...(profile.phone ? { phone_number: e164(profile.phone) } : {}),
        ...(profile.enterpriseId ? { enterprise_id: String(profile.enterpriseId), enterprise_name: profile.enterpriseName } : {}),
        ...(profile.number ? { employee_number: profile.number } : {}),
        ...(memberships ? { groups: memberships.groups, roles: memberships.roles } : {}),
      };
    },
  };
}

/**
 * The grant of a sign-in: enterprise applications are the enterprise's own (first party), and the
 * administrator's 应用授权 is the consent, so a sign-in through the central login grants the scopes
 * asked for that the client holds (the provider's checkScope refused any other), as does prompt=none
 * through a live SSO session that 应用授权 admits. Nothing is written before that: a request about to
 * go to the central login gets no grant. A grant of another account or client is never answered (the
 * provider takes that for a server error).
 */
async function loadExistingGrant(ctx: KoaContextWithOIDC, deps: ProviderDeps): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const accountId = oidc.account?.accountId;
  const { client, session } = oidc;
  if (!accountId || !client || !session) return undefined;
  const grantId = session.grantIdFor(client.clientId);
  let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
  if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
  if (oidc.result?.login) {
    // Each sign-in through the central login is one of its own: a new grant and a new sid, so neither a
    // refresh token of an earlier SSO session nor a late back-channel logout for it (whose sid names one
    // OP session, Back-Channel Logout 1.0 §2.4) can reach this one.
    session.sidFor(client.clientId, randomBytes(16).toString('base64url'));
    grant = undefined;
  } else if (!(await ssoSignIn(ctx, deps))?.allowed) return grant;
  grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });
  const held = new Set((client.scope ?? '').split(' '));
  grant.addOIDCScope([...oidc.requestParamOIDCScopes].filter((scope) => held.has(scope)).join(' '));
  if (oidc.requestParamClaims.size > 0) grant.addOIDCClaims([...oidc.requestParamClaims]);
  await grant.save();
  return grant;
}

/**
 * The provider's prompts with one check more: every authorization request signs in through the
 * central login (its SSO session, lockout, two-factor, 应用授权), never on the provider's own session
 * alone, which would outlive a logout, 强制下线 or an idle timeout of the SSO session. Without an
 * account the consent checks have no grant to read, so that asks for the login too.
 */
function interactionPolicyOf(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  const { Check, Prompt } = interactionPolicy;
  const linked = (ctx: KoaContextWithOIDC) => ssoSignIns.get(ctx);
  policy
    .get('login')
    ?.checks.push(
      new Check('portal_sign_in', 'End-User authentication at the central login is required', 'login_required', (ctx) =>
        ctx.oidc.account && (ctx.oidc.result?.login || linked(ctx)) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  // prompt=none through the SSO session: an account 应用授权 does not admit gets access_denied, as CAS gateway gets no ticket.
  policy.add(
    new Prompt(
      { name: 'portal_access' },
      new Check('portal_not_authorized', 'the account may not use this application', 'access_denied', (ctx) =>
        linked(ctx)?.allowed === false ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
      ),
    ),
    1,
  );
  return policy;
}

function configuration(deps: ProviderDeps): Configuration {
  const { casBase } = deps;
  return {
    adapter: oidcAdapter(deps.repository, deps.clients),
    // Back-channel logout goes to addresses enterprises typed: through the outbound rules.
    fetch: outboundFetch(deps.outbound),
    jwks: { keys: deps.jwks },
    findAccount: (ctx, sub, token) => findAccount(deps, ctx, sub, token),
    loadExistingGrant: (ctx) => loadExistingGrant(ctx, deps),
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
        // The secret it was issued under: 重置密钥 ends the tokens of the old one (machine-tokens.ts).
        return { [SECRET_GENERATION_CLAIM]: secretGeneration(ctx.oidc.client?.clientSecret ?? '') };
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
      // A token of an account that lost 应用授权 is no longer active (RFC 7662 §2.2).
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId !== client.clientId) return false;
          const applicationId = metadataOf(client).portal_application_id;
          const { accountId } = token as { accountId?: string };
          return !accountId || applicationId === undefined || (await deps.access.mayUse(Number(accountId), applicationId));
        },
      },
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
    // Every sign-in of an application client gets a refresh token, as Keycloak's do: without
    // offline_access it lives only as long as its SSO session (findAccount), with it past the timeouts.
    issueRefreshToken: async (_ctx, client, source) => client.grantTypeAllowed('refresh_token') && source.scopes.has('openid'),
    ttl: {
      AuthorizationCode: 60,
      // The central login's steps (two-factor enrolment, 忘记密码 by SMS) can take longer than ten minutes.
      Interaction: 1800,
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
    interactions: { policy: interactionPolicyOf(), url: (_ctx, interaction) => `${OIDC_PREFIX}/interaction/${interaction.uid}` },
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

/**
 * A code issued at the end of a sign-in through the central login: its service ticket records what the
 * provider issued (client, sid, grant, session), which single logout and 在线会话 read. It runs before
 * the answer leaves: if it fails, no code does.
 */
async function linkSignIn(ctx: KoaContextWithOIDC, deps: ProviderDeps): Promise<void> {
  const { oidc } = ctx;
  const code = oidc?.entities.AuthorizationCode;
  const { client, session } = oidc ?? {};
  if (!code?.grantId || !client || !session) return;
  const link = { clientId: client.clientId, sid: session.sidFor(client.clientId) ?? '', grantId: code.grantId, sessionUid: session.uid };
  const ticket = (oidc?.result?.portal as Partial<PortalInteractionResult> | undefined)?.ticket;
  // An SSO session that ended between the ticket's validation and here took the ticket with it: the
  // code must not outlive it (no single logout would reach it), so its grant ends and the exchange fails.
  if (oidc?.route === 'resume' && typeof ticket === 'string' && !(await deps.tickets.linkOidc(ticket, link))) {
    await deps.repository.destroyGrant(code.grantId);
  }
  const sso = ssoSignIns.get(ctx);
  if (oidc?.route === 'authorization' && sso?.allowed) {
    const applicationId = metadataOf(client).portal_application_id ?? null;
    await deps.sso.recordSignIn(sso.tgtId, `${deps.issuer}/auth`, applicationId, link);
  }
}

/** After an end-session confirmation that signed out (OpenID Connect RP-Initiated Logout 1.0 §2): the SSO sessions behind it end. */
async function endSignIns(ctx: KoaContextWithOIDC, deps: ProviderDeps): Promise<void> {
  const { oidc } = ctx;
  if (oidc?.route !== 'end_session_confirm' || !oidc.params?.logout || ctx.status !== 303 || !oidc.session?.uid) return;
  // The relying party that asked (id_token_hint or client_id), which the confirmation set as the request's client.
  const clientId = oidc.client?.clientId;
  await deps.endSignIns(oidc.session.uid, { ip: ctx.ip, userAgent: ctx.get('user-agent'), origin: ctx.origin, clientId });
}

/**
 * The provider's own events (oidc-provider's documented event list) feed the metrics: an authorization
 * request answered is an OpenID Connect sign-in, a token request a grant checked, a saved model what was issued.
 */
function countProviderEvents(provider: Provider, metrics: PortalMetrics): void {
  provider.on('authorization.success', () => metrics.signIn('oidc', 'success'));
  provider.on('authorization.error', () => metrics.signIn('oidc', 'failure'));
  provider.on('grant.success', () => metrics.validated('oidc_grant', 'success'));
  provider.on('grant.error', () => metrics.validated('oidc_grant', 'failure'));
  provider.on('authorization_code.saved', () => metrics.issued('oidc_authorization_code'));
  provider.on('access_token.saved', () => metrics.issued('oidc_access_token'));
  provider.on('refresh_token.saved', () => metrics.issued('oidc_refresh_token'));
  provider.on('client_credentials.saved', () => metrics.issued('oidc_client_credentials'));
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
    await linkSignIn(ctx as KoaContextWithOIDC, deps);
    await endSignIns(ctx as KoaContextWithOIDC, deps);
    allowClientFormActions(ctx as KoaContextWithOIDC);
  });
  provider.on('server_error', (_ctx: unknown, err: unknown) => deps.log.error({ err }, 'OpenID provider error'));
  countProviderEvents(provider, deps.metrics);
  return provider;
}

type ProviderRequest = IncomingMessage & { originalUrl?: string };

/** A client's back-channel logout (oidc-provider's Client#backchannelLogout, not in its type declarations). */
interface LogoutNotice {
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

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
    // The first build comes before any key check: on a fresh database the check would otherwise read
    // the empty set of before `build` generated the keys, and rebuild the provider on every request
    // until it expired.
    if (this.#provider) {
      const current = await this.#keyCheck.get('version');
      if (!current || current.version === this.#version) return this.#provider;
    }
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

  /**
   * The request as the provider reads it: the provider answers with addresses on this scheme and host
   * (PUBLIC_URL's, or the request's as Fastify trusted them); what a client sent as forwarded headers is replaced.
   */
  private forwarded(request: FastifyRequest): ProviderRequest {
    const req: ProviderRequest = request.raw;
    const origin = new URL(this.app.config.publicUrl ?? `${request.protocol}://${request.host}`);
    req.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = origin.host;
    req.headers['x-forwarded-for'] = request.ip;
    return req;
  }

  /**
   * The authorization request waiting for this browser's sign-in (its interaction cookie names it);
   * undefined when it expired, the cookie is missing or the provider session it started in changed.
   */
  async interaction(request: FastifyRequest, res: ServerResponse): Promise<Interaction | undefined> {
    const provider = await this.provider();
    try {
      return await provider.interactionDetails(this.forwarded(request), res);
    } catch (err) {
      if (err instanceof errors.SessionNotFound) return undefined;
      throw err;
    }
  }

  /**
   * Completes the waiting authorization request (as `interaction` read it, from this browser's cookie)
   * with the sign-in's result; answers where the browser goes on. What the provider's interactionResult
   * does without merging an earlier submission, on the interaction in hand instead of a second read of it.
   */
  async finishInteraction(interaction: Interaction, result: InteractionResults): Promise<string> {
    interaction.result = result;
    await interaction.persist();
    return interaction.returnTo;
  }

  /** An authorization request by its uid (the CAS registry resolves its callback without the browser's cookie). */
  async findInteraction(uid: string): Promise<Interaction | undefined> {
    return (await this.provider()).Interaction.find(uid);
  }

  /**
   * The back-channel logouts (OpenID Connect Back-Channel Logout 1.0 §2.5) that ended sign-ins call for:
   * one per client and sid whose application has a back-channel logout address. Not the provider's
   * Client.find: an application disabled since, or of an enterprise disabled since, is told too.
   */
  async backchannelMessages(tickets: IssuedTicket[]): Promise<LogoutMessage[]> {
    const seen = new Set<string>();
    const messages: LogoutMessage[] = [];
    for (const ticket of tickets) {
      const { oidc } = ticket;
      if (!oidc || seen.has(`${oidc.clientId} ${oidc.sid}`)) continue;
      seen.add(`${oidc.clientId} ${oidc.sid}`);
      const application = await this.deps.clients.applicationForLogout(oidc.clientId);
      if (!application?.backchannelLogoutUri) continue;
      messages.push({
        protocol: 'oidc',
        target: application.backchannelLogoutUri,
        guarded: true,
        ticketId: null,
        clientId: oidc.clientId,
        sid: oidc.sid,
        applicationId: application.id,
        applicationName: application.name,
        accountId: oidc.accountId,
        tgtId: ticket.tgtId,
      });
    }
    return messages;
  }

  /** Sends one back-channel logout through the outbound rules; throws when it is not accepted (200 or 204). */
  async sendBackchannel(message: { clientId: string; sid: string; accountId: number }): Promise<void> {
    const provider = await this.provider();
    const application = await this.deps.clients.applicationForLogout(message.clientId);
    if (!application?.backchannelLogoutUri) throw new Error('该应用已不再配置后端登出地址');
    // The provider's Client takes its metadata in its constructor (models/client.js), as Client.find does.
    const ClientOf = provider.Client as unknown as new (metadata: PortalClientMetadata) => Client & LogoutNotice;
    await new ClientOf(applicationMetadata(application)).backchannelLogout(String(message.accountId), message.sid);
  }

  /** Hands a request under /oidc to the provider (Fastify has not read its body). */
  async handle(request: FastifyRequest, res: ServerResponse): Promise<void> {
    await this.provider();
    const handler = this.#handler;
    if (!handler) throw new Error('the OpenID provider is not built');
    const req = this.forwarded(request);
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
      access: app.ssoAppRepository,
      loginLog: app.loginLogRepository,
      tickets: app.casTicketRepository,
      sso: app.casTicketService,
      outbound: app.outbound,
      log: app.log,
      metrics: app.metrics,
      // Registered after the provider (oidc-sign-in.ts); read at the moment of a logout.
      endSignIns: (sessionUid, client) => app.oidcSignInService.endSignIns(sessionUid, client),
    });
    // The first start generates the keys; building now also fails the start, not a request, on a broken key set.
    await service.provider();
    app.decorate('oidcService', service);
    // What has expired goes with the retention job (platform/retention).
  },
  {
    name: 'oidc-provider',
    dependencies: [
      'system-repository',
      'account-repository',
      'oidc-repository',
      'oidc-client-repository',
      'sso-app-repository',
      'login-log-repository',
      'cas-ticket-repository',
      'cas-tickets',
    ],
  },
);
