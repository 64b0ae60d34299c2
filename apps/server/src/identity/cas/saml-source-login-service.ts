import { createHmac, timingSafeEqual } from 'node:crypto';
import { type SamlSpEndpoints, samlSpEndpoints } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { publicSiteUrl } from '../../platform/config.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { LoadedSource } from '../auth-sources/directory.js';
import {
  type IdpLogout,
  SAML_SP_REQUEST_SECONDS,
  SamlSpRefusal,
  type SpSigningKey,
  checkLogoutRequest,
  logoutRequestUrl,
  spMetadata,
} from '../auth-sources/saml/saml-sp.js';
import { SamlSourceRepository } from '../auth-sources/saml/saml-source-repository.js';
import { samlKind } from '../federation/saml-kind.js';
import { SAML_KEY_SECRET, SamlKeys } from '../saml/saml-keys.js';
import type { LoginClient } from './cas-login-service.js';

export type SamlSource = LoadedSource & { type: 'saml' };

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** The longest a federated sign-in is kept for single logout: a day past the longest SSO session anyone may hold. */
const SESSION_KEEP_MS = 24 * 3_600_000;

/**
 * The portal as the service provider of an enterprise's own SAML 2.0 identity provider (a 认证源 of type
 * SAML 2.0; the sign-in itself is the federated sign-in's, federation/saml-kind.ts): the key our messages
 * are signed with (the portal's SAML key, the identity provider's own: identity/saml/saml-keys.ts), our
 * addresses and metadata per source, and single logout both ways.
 */
export class SamlSourceLogin {
  readonly repository: SamlSourceRepository;
  private readonly keys: SamlKeys;

  constructor(
    private readonly app: FastifyInstance,
    box: SecretBox,
    private readonly stateKey: Buffer,
  ) {
    this.repository = new SamlSourceRepository(app.database.db);
    this.keys = new SamlKeys(app.samlRepository, box, new URL(publicSiteUrl(app.config)).host);
  }

  async ensureKey(): Promise<void> {
    await this.keys.ensure();
  }

  /** The key our requests are signed with and every certificate the SP metadata publishes. */
  async signingKey(): Promise<{ key: SpSigningKey; published: string[] }> {
    const set = await this.keys.keySet();
    return { key: set.signing, published: set.published };
  }

  /** Our addresses for a source (PUBLIC_URL first, as the entity ID must never change with the Host a request used). */
  endpoints(sourceId: number, portalBase: string): SamlSpEndpoints {
    return samlSpEndpoints(this.app.config.publicUrl ?? portalBase, sourceId);
  }

  /** A SAML source while it and its enterprise are enabled. */
  async enabledSource(sourceId: number): Promise<SamlSource | undefined> {
    const source = await this.app.authSourceRepository.loadAny(sourceId);
    if (!source || source.type !== 'saml' || !source.enabled) return undefined;
    if (!(await this.repository.enterpriseActive(source.enterpriseId))) return undefined;
    return source;
  }

  /** Any SAML source by id (its metadata is public, enabled or not; 测试连接 runs before it is enabled). */
  async anySource(sourceId: number): Promise<SamlSource | undefined> {
    const source = await this.app.authSourceRepository.loadAny(sourceId);
    return source?.type === 'saml' ? source : undefined;
  }

  async metadata(source: SamlSource, portalBase: string): Promise<string> {
    const { key, published } = await this.signingKey();
    return spMetadata(source.config, this.endpoints(source.id, portalBase), key, published);
  }

  // ------------------------------------------------------------------------------ sealed values

  private mac(text: string): string {
    return createHmac('sha256', this.stateKey).update(`saml-source|${text}`).digest('base64url');
  }

  private seal(claims: object): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  private unseal(value: string | undefined): Record<string, unknown> | undefined {
    const [payload = '', signature = ''] = (value ?? '').split('.');
    if (!payload || !same(signature, this.mac(payload))) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      return typeof claims.e === 'number' && claims.e * 1000 > Date.now() ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * An AuthnRequest on the HTTP-POST binding: the federated sign-in redirects to our own page, which
   * posts it; the page's address carries the request sealed (it is signed anyway, and short-lived).
   */
  postRequestUrl(source: SamlSource, fields: Record<string, string>, portalBase: string): string {
    const sealed = this.seal({ k: 'post', s: source.id, f: fields, e: Math.floor(Date.now() / 1000) + SAML_SP_REQUEST_SECONDS });
    return `${this.app.config.publicUrl ?? portalBase}/cas/login/saml/${source.id}/request?r=${encodeURIComponent(sealed)}`;
  }

  /** The AuthnRequest a post page sends, when its address is genuine, fresh and for this source. */
  postRequest(sealed: string, sourceId: number): Record<string, string> | undefined {
    const c = this.unseal(sealed);
    if (!c || c.k !== 'post' || c.s !== sourceId || !c.f || typeof c.f !== 'object') return undefined;
    return Object.fromEntries(
      Object.entries(c.f as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  }

  /** The federated sign-in this browser holds (its cookie, set after the sign-in), for 退出. */
  signedInSession(cookie: string | undefined): number | undefined {
    const c = this.unseal(cookie);
    return c && c.k === 'session' && typeof c.i === 'number' ? c.i : undefined;
  }

  /** A completed sign-in: the IdP's NameID and SessionIndex kept for single logout; answers the browser's cookie value. */
  async remember(
    source: SamlSource,
    person: { nameId: string; nameIdFormat: string; sessionIndex: string },
    accountId: number,
  ): Promise<string> {
    const policy = await this.app.securityPolicyRepository.ofEnterprise(source.enterpriseId);
    const expires = Date.now() + policy.sessionMaxHours * 3_600_000 + SESSION_KEEP_MS;
    const sessionId = await this.repository.signedIn({ sourceId: source.id, accountId, ...person }, new Date(expires));
    return this.seal({ k: 'session', i: sessionId, e: Math.floor(expires / 1000) });
  }

  // ----------------------------------------------------------------------------------------- logout

  /**
   * The IdP's LogoutRequest (signed): the sessions of the accounts it names end as an administrator's
   * 强制下线 ends them (portal sessions, SSO sessions, single logout to the applications); answers the
   * LogoutResponse address the browser goes back to.
   */
  async idpLogout(
    source: SamlSource,
    portalBase: string,
    message: { query?: Record<string, string>; originalQuery?: string; body?: Record<string, string> },
    client: LoginClient & { origin: string },
  ): Promise<{ kind: 'done'; redirect: string } | { kind: 'refused'; reason: string }> {
    let request: IdpLogout;
    try {
      const { key } = await this.signingKey();
      request = await checkLogoutRequest(source.config, this.endpoints(source.id, portalBase), key, message);
    } catch (err) {
      if (!(err instanceof SamlSpRefusal)) throw err;
      client.log.warn({ sourceId: source.id, reason: err.reason }, 'SAML source: LogoutRequest refused');
      return { kind: 'refused', reason: err.reason };
    }
    const accountIds = await this.repository.endSignIns(source.id, request.nameId, request.sessionIndex);
    if (accountIds.length) {
      const ended = await inEnterpriseTransaction(this.app.database.db, source.enterpriseId, (trx) =>
        this.app.ssoSessionService.end(trx, accountIds, { reason: 'federation-logout' }),
      );
      await this.app.ssoSessionService.notify({ origin: client.origin, log: client.log }, ended);
    }
    return { kind: 'done', redirect: await request.respond(true) };
  }

  /** 退出 of a browser signed in through a SAML source whose IdP has an SLO address: the signed LogoutRequest to send it with. */
  async upstreamLogout(sessionId: number | undefined, portalBase: string): Promise<string | undefined> {
    if (sessionId === undefined) return undefined;
    const session = await this.repository.session(sessionId);
    if (!session) return undefined;
    await this.repository.forget(session.id);
    const source = await this.enabledSource(session.sourceId);
    if (!source?.config.sloUrl) return undefined;
    const { key } = await this.signingKey();
    return logoutRequestUrl(source.config, this.endpoints(source.id, portalBase), key, session, '');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    samlSourceLoginService: SamlSourceLogin;
  }
}

export default fp(
  async (app) => {
    const box = new SecretBox(await app.systemRepository.sharedKey(SAML_KEY_SECRET));
    const login = new SamlSourceLogin(app, box, await app.systemRepository.sharedKey('cas-saml-source-sign-in'));
    await login.ensureKey();
    app.decorate('samlSourceLoginService', login);
    app.federationService.registerKind(samlKind(app));
  },
  {
    name: 'saml-source-login',
    dependencies: [
      'system-repository',
      'saml-repository',
      'auth-source-repository',
      'sso-sessions',
      'security-policy-repository',
      'federation-service',
    ],
  },
);
