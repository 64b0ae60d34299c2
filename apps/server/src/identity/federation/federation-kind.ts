import type { AuthSourceTestStep, FederatedSourceType, FederationMapping, OidcSourceConfig } from '@portal/shared';
import type { LoadedSource } from '../auth-sources/directory.js';

/**
 * A federated source as the server uses it: a 认证源 whose people sign in at the enterprise's own
 * provider (OpenID Connect; SAML plugs in the same way), with its secret opened.
 */
export type FederatedSource = LoadedSource & { type: FederatedSourceType };

/** What every federated kind's settings hold besides the protocol's own: see OidcSourceConfig. */
export type FederationSettings = Pick<OidcSourceConfig, 'domains' | 'jit' | 'groupIds' | 'enforce'> & { mapping: FederationMapping };

/** A verified identity from the provider: signature, issuer, audience, nonce and expiry already checked by the kind. */
export interface ExternalIdentity {
  /** Stable at the provider, never reassigned (OIDC `sub`; SAML a persistent NameID): what accounts are linked by. */
  subject: string;
  /** Every claim or attribute received (测试连接 shows them; the mapping reads them). */
  claims: Record<string, unknown>;
  /** The provider vouches that the email belongs to the person (OIDC `email_verified`). */
  emailVerified: boolean;
  /** The provider's session (OIDC `sid`, SAML's SessionIndex), when it names one. */
  sessionId?: string;
  /** How the provider names the subject (SAML's NameID Format), for single logout. */
  subjectFormat?: string;
}

/** The redirect to the provider, and what checking its answer needs later (kept server-side with the state). */
export interface FederationStart {
  url: string;
  pending: Record<string, string>;
}

/** The provider's answer as it reached the callback. */
export interface FederationAnswer {
  /** The callback's query (GET) or form fields (POST). */
  params: Record<string, string>;
  /** The callback's full address as the provider sent the browser to it. */
  currentUrl: URL;
  redirectUri: string;
  /** What `start` asked to keep. */
  pending: Record<string, string>;
  /** The state this sign-in was started with (already matched against the row and this browser). */
  state: string;
}

/**
 * A provider's answer that signs no one in, in Chinese for the page (`身份令牌签名无效`); `reason`
 * names it for the server's log, never with a token or secret in it.
 */
export class FederationError extends Error {
  override readonly name = 'FederationError';
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * A protocol the federation layer drives (federation-service.ts holds the rules every kind shares:
 * state, subject matching, JIT, refusals, the login steps after it).
 */
export interface FederationKind {
  readonly type: FederatedSourceType;
  /**
   * How the provider comes back: a GET redirect (OIDC's query response) or a cross-site POST (SAML's
   * HTTP-POST binding), which decides the binding cookie's SameSite.
   */
  readonly callbackMethod: 'GET' | 'POST';
  /**
   * The provider's address to send the browser to, carrying `state`. `renew`: the person must sign in
   * afresh at the provider (CAS renew, an application's prompt=login or ForceAuthn), not reuse its session.
   * Throws FederationError.
   */
  start(source: FederatedSource, redirectUri: string, state: string, options?: { renew: boolean }): Promise<FederationStart>;
  /** The verified identity in the provider's answer. Throws FederationError. */
  finish(source: FederatedSource, answer: FederationAnswer): Promise<ExternalIdentity>;
  /** 测试连接's server-side steps (discovery, keys), each with what went wrong. */
  test(source: FederatedSource): Promise<AuthSourceTestStep[]>;
  /**
   * Single logout (optional): remembers the provider's session of a completed sign-in; answers what the
   * browser keeps (a cookie under /cas) so its 退出 can tell the provider.
   */
  remember?(source: FederatedSource, identity: ExternalIdentity, accountId: number): Promise<string | undefined>;
  /**
   * The provider's own word that a person's session there ended (OIDC Back-Channel Logout's
   * logout_token), verified: whose it was. Throws FederationError for anything not genuine.
   */
  logout?(source: FederatedSource, params: Record<string, string>): Promise<{ subject?: string; sessionId?: string }>;
}

/** The kind's settings shared by every federated type. */
export const federationSettings = (source: FederatedSource): FederationSettings => source.config;
