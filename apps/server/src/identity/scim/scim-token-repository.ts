import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';

export interface ScimTokenRecord {
  id: number;
  enterprise_id: number;
  name: string;
  hint: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

const COLUMNS = ['id', 'enterprise_id', 'name', 'hint', 'created_by', 'created_at', 'last_used_at', 'last_used_ip'] as const;

/** SCIM 同步's tokens: an enterprise's, by the SHA-256 of the token. */
export class ScimTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(enterpriseId: number, db: Kysely<Database> = this.db): Promise<ScimTokenRecord[]> {
    return db.selectFrom('scim_token').select(COLUMNS).where('enterprise_id', '=', enterpriseId).orderBy('id', 'desc').execute();
  }

  byId(trx: Kysely<Database>, enterpriseId: number, id: number): Promise<ScimTokenRecord | undefined> {
    return trx.selectFrom('scim_token').select(COLUMNS).where('enterprise_id', '=', enterpriseId).where('id', '=', id).executeTakeFirst();
  }

  async insert(
    trx: Kysely<Database>,
    row: { enterpriseId: number; name: string; tokenHash: string; hint: string; createdBy: string },
  ): Promise<number> {
    const { id } = await trx
      .insertInto('scim_token')
      .values({
        enterprise_id: row.enterpriseId,
        name: row.name,
        token_hash: row.tokenHash,
        hint: row.hint,
        created_by: row.createdBy,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /**
   * The last row each of these audit actors (a token's `SCIM <name>`) wrote in the enterprise's 操作日志
   * since its token was made, by actor: what its client last changed.
   */
  async lastChanges(
    enterpriseId: number,
    actors: { actor: string; since: string }[],
  ): Promise<Map<string, { action: string; target: string; at: string }>> {
    const found = new Map<string, { action: string; target: string; at: string }>();
    for (const { actor, since } of actors) {
      const row = await this.db
        .selectFrom('audit_log')
        .select(['action', 'target', 'created_at'])
        .where('enterprise_id', '=', enterpriseId)
        .where('username', '=', actor)
        // Not before the token was made: a revoked token of the same name is another client, and the read stays bounded.
        .where('created_at', '>=', since)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row) found.set(actor, { action: row.action, target: row.target, at: row.created_at });
    }
    return found;
  }

  async delete(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.deleteFrom('scim_token').where('id', '=', id).execute();
  }

  /** The token with this hash whose enterprise is active. */
  byHash(tokenHash: string): Promise<ScimTokenRecord | undefined> {
    return this.db
      .selectFrom('scim_token')
      .innerJoin('enterprise', 'enterprise.id', 'scim_token.enterprise_id')
      .select(COLUMNS.map((c) => `scim_token.${c}` as const))
      .where('scim_token.token_hash', '=', tokenHash)
      .where('enterprise.status', '=', 'active')
      .executeTakeFirst();
  }

  /** Records a use, at most once a minute per token (a sync run makes many calls; one write each would be waste). */
  async touch(id: number, ip: string, now: Date): Promise<void> {
    const stale = new Date(now.getTime() - 60_000).toISOString();
    await this.db
      .updateTable('scim_token')
      .set({ last_used_at: now.toISOString(), last_used_ip: ip.slice(0, 64) })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', stale)]))
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scimTokenRepository: ScimTokenRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('scimTokenRepository', new ScimTokenRepository(app.database.db));
  },
  { name: 'scim-token-repository' },
);
