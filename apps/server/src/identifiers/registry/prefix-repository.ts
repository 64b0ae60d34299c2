import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import type { Scope } from './identifier-admin-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    prefixRepository: PrefixRepository;
  }
}

export type PrefixRepository = ReturnType<typeof createPrefixRepository>;

/** Identifier prefixes and the enterprises they are assigned to. */
export function createPrefixRepository(db: Kysely<Database>) {
  const byPrefix = (prefix: string) => db.selectFrom('idf_prefix').selectAll().where('prefix', '=', prefix).executeTakeFirst();
  const has = async (table: 'idf_template' | 'idf_record', prefixId: number) =>
    (await db.selectFrom(table).select('id').where('prefix_id', '=', prefixId).executeTakeFirst()) !== undefined;

  return {
    byPrefix,

    /** Whether this node holds `prefix` (its handles are never resolved upstream). */
    holds: async (prefix: string) => (await byPrefix(prefix)) !== undefined,

    /** The prefixes the scope sees, with their template and record counts, in prefix order. */
    async list(scope: Scope, where: { prefix?: string | undefined; enterpriseId?: number | undefined } = {}) {
      let query = db
        .selectFrom('idf_prefix')
        .innerJoin('enterprise', 'enterprise.id', 'idf_prefix.enterprise_id')
        .select((eb) => [
          'idf_prefix.id',
          'idf_prefix.prefix',
          'idf_prefix.name',
          'idf_prefix.enterprise_id',
          'enterprise.name as enterprise_name',
          'idf_prefix.created_at',
          'idf_prefix.updated_at',
          eb
            .selectFrom('idf_template')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('idf_template.prefix_id', '=', 'idf_prefix.id')
            .as('template_count'),
          eb
            .selectFrom('idf_record')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('idf_record.prefix_id', '=', 'idf_prefix.id')
            .as('record_count'),
        ]);
      if (!scope.all) query = query.where('idf_prefix.enterprise_id', '=', scope.enterpriseId ?? -1);
      if (where.enterpriseId !== undefined) query = query.where('idf_prefix.enterprise_id', '=', where.enterpriseId);
      if (where.prefix !== undefined) query = query.where('idf_prefix.prefix', '=', where.prefix);
      const rows = await query.orderBy('idf_prefix.prefix').execute();
      return rows.map((r) => ({
        id: r.id,
        prefix: r.prefix,
        name: r.name,
        enterpriseId: r.enterprise_id,
        enterpriseName: r.enterprise_name,
        templateCount: Number(r.template_count ?? 0),
        recordCount: Number(r.record_count ?? 0),
        createdAt: chinaTime(new Date(r.created_at)),
        updatedAt: chinaTime(new Date(r.updated_at)),
      }));
    },

    /** Ids and names of the prefixes the scope sees. */
    visible(scope: Scope) {
      let query = db.selectFrom('idf_prefix').select(['id', 'prefix']);
      if (!scope.all) query = query.where('enterprise_id', '=', scope.enterpriseId ?? -1);
      return query.execute();
    },

    async enterprises() {
      const rows = await db.selectFrom('enterprise').select(['id', 'name', 'certification_status']).orderBy('id').execute();
      return rows.map((r) => ({ id: r.id, name: r.name, certificationStatus: r.certification_status }));
    },

    /** The enterprise's certification status, or undefined when there is no such enterprise. */
    certificationOf: async (id: number) =>
      (await db.selectFrom('enterprise').select('certification_status').where('id', '=', id).executeTakeFirst())?.certification_status,

    /** Writes take the caller's transaction as `trx` (with its audit row). */
    async create(values: { prefix: string; name: string; enterpriseId: number }, trx = db) {
      const now = new Date().toISOString();
      await trx
        .insertInto('idf_prefix')
        .values({ prefix: values.prefix, name: values.name, enterprise_id: values.enterpriseId, created_at: now, updated_at: now })
        .execute();
    },

    async update(id: number, values: { name: string; enterpriseId: number }, trx = db) {
      await trx
        .updateTable('idf_prefix')
        .set({ name: values.name, enterprise_id: values.enterpriseId, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    hasTemplates: (prefixId: number) => has('idf_template', prefixId),
    hasRecords: (prefixId: number) => has('idf_record', prefixId),

    async delete(id: number, trx = db) {
      await trx.deleteFrom('idf_prefix').where('id', '=', id).execute();
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('prefixRepository', createPrefixRepository(app.database.db));
  },
  { name: 'prefix-repository' },
);
