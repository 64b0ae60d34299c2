import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { escapeLike } from '../../platform/lib/text-search.js';

/** A stored model instance: its payload (JSON) and when it was consumed, if it was. */
export interface StoredModel {
  payload: string;
  consumedAt: string | null;
}

/** The lookups stored beside a payload (the adapter interface's findByUid, findByUserCode, revokeByGrantId). */
export interface ModelKeys {
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  /** null: until destroyed. */
  expiresAt: string | null;
}

/** A signing key as stored: the public JWK in the clear, the private one sealed. */
export interface StoredSigningKey {
  generation: number;
  alg: string;
  kid: string;
  publicJwk: string;
  sealedPrivateJwk: string;
  createdAt: string;
  retireAt: string | null;
}

/**
 * The OpenID provider's state (oidc_model) and signing keys (oidc_signing_key). A row past its
 * expires_at is never answered (the provider may still ask for it) and is purged by the housekeeping.
 */
export class OidcRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async upsert(kind: string, id: string, payload: string, keys: ModelKeys): Promise<void> {
    const values = {
      payload,
      grant_id: keys.grantId,
      uid: keys.uid,
      user_code: keys.userCode,
      expires_at: keys.expiresAt,
      // Saved again, a model starts over, as the provider's reference adapter does.
      consumed_at: null,
    };
    await this.db
      .insertInto('oidc_model')
      .values({ kind, id, ...values })
      .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(values))
      .execute();
  }

  private live(now: string) {
    return this.db
      .selectFrom('oidc_model')
      .select(['payload', 'consumed_at as consumedAt'])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }

  find(kind: string, id: string, now: string): Promise<StoredModel | undefined> {
    return this.live(now).where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  }

  findByUid(kind: string, uid: string, now: string): Promise<StoredModel | undefined> {
    return this.live(now).where('kind', '=', kind).where('uid', '=', uid).executeTakeFirst();
  }

  findByUserCode(kind: string, userCode: string, now: string): Promise<StoredModel | undefined> {
    return this.live(now).where('kind', '=', kind).where('user_code', '=', userCode).executeTakeFirst();
  }

  /**
   * Marks a model used (codes, refresh tokens), once only: answers false when it was used already
   * (or is gone), so of two uses at the same moment, on any instances, one wins.
   */
  async consume(kind: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oidc_model')
      .set({ consumed_at: now })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The grant a model belongs to, whatever its state (used, expired). */
  async grantIdOf(kind: string, id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('oidc_model').select('grant_id').where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
    return row?.grant_id ?? undefined;
  }

  /** Drops a grant and everything issued under it (codes, access and refresh tokens), of every kind. */
  async destroyGrant(grantId: string): Promise<void> {
    await this.db
      .deleteFrom('oidc_model')
      .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('kind', '=', 'Grant'), eb('id', '=', grantId)])]))
      .execute();
  }

  /**
   * Drops grants and the tokens issued under them, inside the caller's transaction (an SSO session's
   * end). An authorization request waiting for a new sign-in may name the grant too: it stays, and
   * its sign-in gets a new grant.
   */
  async destroyGrants(trx: Kysely<Database>, grantIds: readonly string[]): Promise<void> {
    if (grantIds.length === 0) return;
    await trx
      .deleteFrom('oidc_model')
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', 'in', ['AuthorizationCode', 'AccessToken', 'RefreshToken']), eb('grant_id', 'in', grantIds)]),
          eb.and([eb('kind', '=', 'Grant'), eb('id', 'in', grantIds)]),
        ]),
      )
      .execute();
  }

  /**
   * Drops a client's client_credentials tokens, inside the caller's transaction (a machine client's
   * 停用, 删除 or 重置密钥): they carry no grant, so they are found by the client id in their payload,
   * which the provider writes as compact JSON.
   */
  async destroyClientCredentials(trx: Kysely<Database>, clientId: string): Promise<void> {
    const pattern = `%${escapeLike(JSON.stringify({ clientId }).slice(1, -1))}%`;
    await trx
      .deleteFrom('oidc_model')
      .where('kind', '=', 'ClientCredentials')
      .where(sql<boolean>`payload like ${pattern} escape '\\'`)
      .execute();
  }

  /** Drops a provider session by its uid (the one 接入自检 signed in without a browser). */
  async destroySession(uid: string): Promise<void> {
    await this.db.deleteFrom('oidc_model').where('kind', '=', 'Session').where('uid', '=', uid).execute();
  }

  async destroy(kind: string, id: string): Promise<void> {
    await this.db.deleteFrom('oidc_model').where('kind', '=', kind).where('id', '=', id).execute();
  }

  async revokeByGrantId(kind: string, grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_model').where('grant_id', '=', grantId).where('kind', '=', kind).execute();
  }

  /** The keys still published (not retired at `now`), the newest generation first. */
  publishedKeys(now: string): Promise<StoredSigningKey[]> {
    return this.db
      .selectFrom('oidc_signing_key')
      .select([
        'generation',
        'alg',
        'kid',
        'public_jwk as publicJwk',
        'private_jwk as sealedPrivateJwk',
        'created_at as createdAt',
        'retire_at as retireAt',
      ])
      .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', now)]))
      .orderBy('generation', 'desc')
      .orderBy('alg')
      .execute();
  }

  async latestGeneration(): Promise<number> {
    const row = await this.db
      .selectFrom('oidc_signing_key')
      .select((eb) => eb.fn.max('generation').as('generation'))
      .executeTakeFirst();
    return Number(row?.generation ?? 0);
  }

  /**
   * Adds a generation of keys; a key of the same generation and algorithm added at the same moment by
   * another instance wins and this one is dropped (both then read what was stored).
   */
  async addKeys(keys: readonly Omit<StoredSigningKey, 'createdAt' | 'retireAt'>[], now: string): Promise<void> {
    for (const key of keys) {
      await this.db
        .insertInto('oidc_signing_key')
        .values({
          generation: key.generation,
          alg: key.alg,
          kid: key.kid,
          public_jwk: key.publicJwk,
          private_jwk: key.sealedPrivateJwk,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['generation', 'alg']).doNothing())
        .execute();
    }
  }

  /** Keys of generations before `generation` stop being published at `retireAt` (those already retiring keep their time). */
  async retireBefore(generation: number, retireAt: string): Promise<void> {
    await this.db
      .updateTable('oidc_signing_key')
      .set({ retire_at: retireAt })
      .where('generation', '<', generation)
      .where('retire_at', 'is', null)
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    oidcRepository: OidcRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('oidcRepository', new OidcRepository(app.database.db));
  },
  { name: 'oidc-repository' },
);
