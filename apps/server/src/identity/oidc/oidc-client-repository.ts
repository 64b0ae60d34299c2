import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database, OidcClientType } from '../../platform/db/schema.js';
import { containsText } from '../../platform/lib/text-search.js';
import type { ServiceApplication } from '../cas/cas-services.js';

/** An enabled OpenID Connect application (应用列表, protocol 'oidc') as the provider reads it. */
export interface OidcApplicationClient {
  id: number;
  enterpriseId: number;
  name: string;
  clientId: string;
  secretHash: string;
  clientType: OidcClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string;
  initiateLoginUri: string;
  scopes: string;
  accessTokenSeconds: number;
  idTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** An enabled 机器客户端 as the provider reads it. */
export interface MachineClient {
  id: number;
  enterpriseId: number;
  name: string;
  clientId: string;
  secretHash: string;
  scopes: string;
}

/** A 机器客户端 as its enterprise's console lists it. */
export interface MachineClientListed {
  id: number;
  name: string;
  clientId: string;
  scopes: string;
  status: 'enabled' | 'disabled';
  createdAt: string;
  updatedAt: string;
}

export interface NewMachineClient {
  enterpriseId: number;
  name: string;
  clientId: string;
  secretHash: string;
  scopes: string;
}

/** An address list column: a JSON array of strings, anything else as none. */
export function addressList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The clients the OpenID provider knows: OIDC applications of 应用列表 (sso_application rows with
 * protocol 'oidc') and enterprises' machine clients. Only enabled ones of an active enterprise are
 * answered: a disabled client, or every client of a disabled enterprise, is unknown to the provider at once.
 */
export class OidcClientRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findApplication(clientId: string): Promise<OidcApplicationClient | undefined> {
    return this.application(clientId, true);
  }

  /**
   * An application whatever its state or its enterprise's: an ended sign-on session still tells the
   * applications it signed in to (back-channel logout), also when the ending is their 停用 or the enterprise's.
   */
  async applicationForLogout(clientId: string): Promise<OidcApplicationClient | undefined> {
    return this.application(clientId, false);
  }

  private async application(clientId: string, enabledOnly: boolean): Promise<OidcApplicationClient | undefined> {
    let query = this.db
      .selectFrom('sso_application')
      .innerJoin('enterprise', 'enterprise.id', 'sso_application.enterprise_id')
      .select([
        'sso_application.id',
        'sso_application.enterprise_id',
        'sso_application.name',
        'oidc_client_id',
        'oidc_secret_hash',
        'oidc_client_type',
        'oidc_redirect_uris',
        'oidc_post_logout_uris',
        'oidc_backchannel_logout_uri',
        'oidc_initiate_login_uri',
        'oidc_scopes',
        'oidc_access_token_seconds',
        'oidc_id_token_seconds',
        'oidc_refresh_token_seconds',
      ])
      .where('oidc_client_id', '=', clientId)
      .where('sso_application.protocol', '=', 'oidc');
    if (enabledOnly) query = query.where('sso_application.status', '=', 'enabled').where('enterprise.status', '=', 'active');
    const row = await query.executeTakeFirst();
    if (!row?.oidc_client_id) return undefined;
    return {
      id: row.id,
      enterpriseId: row.enterprise_id,
      name: row.name,
      clientId: row.oidc_client_id,
      secretHash: row.oidc_secret_hash,
      clientType: row.oidc_client_type,
      redirectUris: addressList(row.oidc_redirect_uris),
      postLogoutRedirectUris: addressList(row.oidc_post_logout_uris),
      backchannelLogoutUri: row.oidc_backchannel_logout_uri,
      initiateLoginUri: row.oidc_initiate_login_uri,
      scopes: row.oidc_scopes,
      accessTokenSeconds: row.oidc_access_token_seconds,
      idTokenSeconds: row.oidc_id_token_seconds,
      refreshTokenSeconds: row.oidc_refresh_token_seconds,
    };
  }

  /**
   * The application of a client id as the central login sees it, whatever its status (a disabled one
   * gets the login's 已停用 page, as a CAS application does); undefined for none.
   */
  async serviceApplicationOf(clientId: string): Promise<ServiceApplication | undefined> {
    const row = await this.db
      .selectFrom('sso_application')
      .select(['id', 'enterprise_id', 'name', 'status'])
      .where('oidc_client_id', '=', clientId)
      .where('protocol', '=', 'oidc')
      .executeTakeFirst();
    // An OIDC application's claims follow its scopes, and its logouts its own addresses: no CAS attributes or 注销地址.
    return row && { id: row.id, enterpriseId: row.enterprise_id, name: row.name, status: row.status, logoutUrl: '', attributes: [] };
  }

  async findMachineClient(clientId: string): Promise<MachineClient | undefined> {
    const row = await this.db
      .selectFrom('machine_client')
      .innerJoin('enterprise', 'enterprise.id', 'machine_client.enterprise_id')
      .select([
        'machine_client.id',
        'machine_client.enterprise_id as enterpriseId',
        'machine_client.name',
        'machine_client.client_id as clientId',
        'machine_client.secret_hash as secretHash',
        'machine_client.scopes',
      ])
      .where('machine_client.client_id', '=', clientId)
      .where('machine_client.status', '=', 'enabled')
      .where('enterprise.status', '=', 'active')
      .executeTakeFirst();
    return row;
  }

  /** Whether an application already has this client id (one set before the namespace table, or by a seed). */
  async applicationHasClientId(trx: Kysely<Database>, clientId: string): Promise<boolean> {
    const app = await trx.selectFrom('sso_application').select('id').where('oidc_client_id', '=', clientId).executeTakeFirst();
    return app !== undefined;
  }

  /**
   * Takes a client id in the one namespace of applications and machine clients, in the caller's
   * transaction; a taken id fails with a unique violation (an application that gets an OIDC client id
   * takes it here too).
   */
  async reserveClientId(trx: Kysely<Database>, clientId: string, kind: 'application' | 'machine'): Promise<void> {
    await trx.insertInto('oidc_client_id').values({ client_id: clientId, kind }).execute();
  }

  /** One page of an enterprise's machine clients, newest first; `keyword` is part of the name or client id. */
  async machineClientPage(enterpriseId: number, keyword: string, offset: number, limit: number) {
    let query = this.db.selectFrom('machine_client').where('enterprise_id', '=', enterpriseId);
    if (keyword) query = query.where((eb) => eb.or([containsText('name', keyword), containsText('client_id', keyword)]));
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select(['id', 'name', 'client_id as clientId', 'scopes', 'status', 'created_at as createdAt', 'updated_at as updatedAt'])
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return { total: Number(count.n), rows: rows satisfies MachineClientListed[] };
  }

  /** A machine client of the enterprise whatever its status; another enterprise's is none. */
  machineClientOf(trx: Kysely<Database>, enterpriseId: number, id: number): Promise<MachineClientListed | undefined> {
    return trx
      .selectFrom('machine_client')
      .select(['id', 'name', 'client_id as clientId', 'scopes', 'status', 'created_at as createdAt', 'updated_at as updatedAt'])
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
  }

  async updateMachineClient(
    trx: Kysely<Database>,
    id: number,
    changes: { name?: string; scopes?: string; secretHash?: string; status?: 'enabled' | 'disabled' },
    now: string,
  ): Promise<void> {
    await trx
      .updateTable('machine_client')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.scopes === undefined ? {} : { scopes: changes.scopes }),
        ...(changes.secretHash === undefined ? {} : { secret_hash: changes.secretHash }),
        ...(changes.status === undefined ? {} : { status: changes.status }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a machine client and frees its client id (the one namespace). */
  async deleteMachineClient(trx: Kysely<Database>, id: number, clientId: string): Promise<void> {
    await trx.deleteFrom('machine_client').where('id', '=', id).execute();
    await trx.deleteFrom('oidc_client_id').where('client_id', '=', clientId).where('kind', '=', 'machine').execute();
  }

  async insertMachineClient(trx: Kysely<Database>, client: NewMachineClient, now: string): Promise<number> {
    const row = await trx
      .insertInto('machine_client')
      .values({
        enterprise_id: client.enterpriseId,
        name: client.name,
        client_id: client.clientId,
        secret_hash: client.secretHash,
        scopes: client.scopes,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    oidcClientRepository: OidcClientRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('oidcClientRepository', new OidcClientRepository(app.database.db));
  },
  { name: 'oidc-client-repository' },
);
