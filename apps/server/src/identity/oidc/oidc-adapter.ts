import { type Adapter, type AdapterFactory, type AdapterPayload, type ClientMetadata, errors } from 'oidc-provider';
import type { MachineClient, OidcApplicationClient, OidcClientRepository } from './oidc-client-repository.js';
import type { OidcRepository } from './oidc-repository.js';

/** Client metadata the portal adds (extraClientMetadata): whose client it is and its token lifetimes. */
export const PORTAL_CLIENT_METADATA = [
  'portal_enterprise_id',
  'portal_client_kind',
  'portal_application_id',
  'portal_access_token_ttl',
  'portal_id_token_ttl',
  'portal_refresh_token_ttl',
] as const;

export type PortalClientMetadata = ClientMetadata & {
  portal_enterprise_id: number;
  portal_client_kind: 'application' | 'machine';
  /** An application's row in 应用列表 (应用授权 is checked against it). */
  portal_application_id?: number;
  portal_access_token_ttl?: number;
  portal_id_token_ttl?: number;
  portal_refresh_token_ttl?: number;
};

/** What applications' ID tokens are signed with (JWKS keys of every algorithm are published). */
export const ID_TOKEN_SIGNING_ALG = 'RS256';

/**
 * An application's metadata as the provider reads it. `client_secret` holds the secret's hash: the
 * provider only compares it (Client.prototype.compareClientSecret, replaced in oidc-provider.ts), and
 * the algorithms that would use it as a key (HS256 tokens, client_secret_jwt) are not enabled.
 */
export function applicationMetadata(app: OidcApplicationClient): PortalClientMetadata {
  const confidential = app.clientType === 'confidential';
  return {
    client_id: app.clientId,
    ...(confidential ? { client_secret: app.secretHash } : {}),
    client_name: app.name,
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: app.redirectUris,
    post_logout_redirect_uris: app.postLogoutRedirectUris,
    ...(app.backchannelLogoutUri ? { backchannel_logout_uri: app.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
    ...(app.initiateLoginUri ? { initiate_login_uri: app.initiateLoginUri } : {}),
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    id_token_signed_response_alg: ID_TOKEN_SIGNING_ALG,
    // Every ID token says when the SSO session's login was (auth_time), as Keycloak's do.
    require_auth_time: true,
    scope: app.scopes,
    portal_enterprise_id: app.enterpriseId,
    portal_client_kind: 'application',
    portal_application_id: app.id,
    portal_access_token_ttl: app.accessTokenSeconds,
    portal_id_token_ttl: app.idTokenSeconds,
    portal_refresh_token_ttl: app.refreshTokenSeconds,
  };
}

/** A machine client's metadata: client_credentials only, with the secret's hash (see applicationMetadata). */
export function machineMetadata(client: MachineClient): PortalClientMetadata {
  return {
    client_id: client.clientId,
    client_secret: client.secretHash,
    client_name: client.name,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: client.scopes,
    portal_enterprise_id: client.enterpriseId,
    portal_client_kind: 'machine',
  };
}

/**
 * Whether a value a client sent can be an id the provider stored (client ids, codes, tokens, uids):
 * printable ASCII of a sane length. Fastify never parses /oidc bodies, so this is where a NUL or other
 * control character is stopped before it reaches the database (PostgreSQL refuses NUL in text); such
 * an id is simply unknown, which the provider answers with its OAuth error.
 */
export function plausibleId(id: unknown): id is string {
  return typeof id === 'string' && /^[\x21-\x7e]{1,255}$/.test(id);
}

/** The provider's clients: read from 应用列表 and 机器客户端, never written through the provider. */
class ClientAdapter implements Adapter {
  constructor(private readonly clients: OidcClientRepository) {}

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!plausibleId(id)) return undefined;
    const app = await this.clients.findApplication(id);
    if (app) return applicationMetadata(app);
    const machine = await this.clients.findMachineClient(id);
    return machine ? machineMetadata(machine) : undefined;
  }

  // Dynamic registration is off: the provider never writes clients.
  async upsert(): Promise<void> {}
  async findByUid(): Promise<undefined> {}
  async findByUserCode(): Promise<undefined> {}
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

/** Seconds since the epoch, as the provider writes times. */
function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** One model's rows in oidc_model (the provider's adapter interface mapped onto OidcRepository). */
class ModelAdapter implements Adapter {
  constructor(
    private readonly kind: string,
    private readonly repository: OidcRepository,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = Date.now();
    await this.repository.upsert(this.kind, id, JSON.stringify(payload), {
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: this.kind === 'Session' && typeof payload.uid === 'string' ? payload.uid : null,
      userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
      expiresAt: typeof expiresIn === 'number' ? new Date(now + expiresIn * 1000).toISOString() : null,
    });
  }

  private async answer(found: Promise<{ payload: string; consumedAt: string | null } | undefined>): Promise<AdapterPayload | undefined> {
    const row = await found;
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: epochSeconds(row.consumedAt) } : payload;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!plausibleId(id)) return undefined;
    return this.answer(this.repository.find(this.kind, id, new Date().toISOString()));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!plausibleId(uid)) return undefined;
    return this.answer(this.repository.findByUid(this.kind, uid, new Date().toISOString()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (!plausibleId(userCode)) return undefined;
    return this.answer(this.repository.findByUserCode(this.kind, userCode, new Date().toISOString()));
  }

  async consume(id: string): Promise<void> {
    // The provider checks `consumed` on what it read, then consumes: two requests with one code or refresh
    // token at the same moment both pass that check, and only the one whose update marks it goes on
    // (RFC 9700 §4.14: a code is used once). The other gets invalid_grant, and since a code or refresh
    // token used twice may be stolen, its grant and every token issued under it are revoked
    // (RFC 6749 §4.1.2, RFC 9700 §4.14.2), as the provider does when it sees the reuse itself.
    if (!(await this.repository.consume(this.kind, id, new Date().toISOString()))) {
      const grantId = await this.repository.grantIdOf(this.kind, id);
      if (grantId) await this.repository.destroyGrant(grantId);
      throw new errors.InvalidGrant(`${this.kind} already consumed`);
    }
  }

  destroy(id: string): Promise<void> {
    return this.repository.destroy(this.kind, id);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.repository.revokeByGrantId(this.kind, grantId);
  }
}

/** The provider's adapter factory: clients from the portal's tables, everything else in oidc_model. */
export function oidcAdapter(repository: OidcRepository, clients: OidcClientRepository): AdapterFactory {
  const clientAdapter = new ClientAdapter(clients);
  return (name) => (name === 'Client' ? clientAdapter : new ModelAdapter(name, repository));
}
