import type { TemplateItem } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import type { CacheRegistry } from '../../platform/lib/cache.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import type { TemplateVersionInfo } from './handle-values.js';
import type { Scope } from './identifier-admin-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    templateRepository: TemplateRepository;
  }
}

export type TemplateRepository = ReturnType<typeof createTemplateRepository>;

const parseItems = (json: string) => JSON.parse(json) as TemplateItem[];

/** Versioned metadata templates of the prefixes. */
export function createTemplateRepository(db: Kysely<Database>, caches: CacheRegistry) {
  // A version never changes once written (ids are never reused): any instance may keep it.
  const versions = caches.create<TemplateVersionInfo>('identifiers', {
    max: 1000,
    ttl: 0,
    async load(key) {
      const [templateId, version] = key.split(':').map(Number) as [number, number];
      const row = await db
        .selectFrom('idf_template_version')
        .select(['name', 'items'])
        .where('template_id', '=', templateId)
        .where('version', '=', version)
        .executeTakeFirst();
      return row && { templateId, version, name: row.name, items: parseItems(row.items) };
    },
  });

  /** Writes a version of a template (inside the transaction that creates or raises it). */
  const insertVersion = (
    trx: Kysely<Database>,
    values: { templateId: number; version: number; name: string; items: TemplateItem[]; createdBy: string; now: string },
  ) =>
    trx
      .insertInto('idf_template_version')
      .values({
        template_id: values.templateId,
        version: values.version,
        name: values.name,
        items: JSON.stringify(values.items),
        created_at: values.now,
        created_by: values.createdBy,
      })
      .execute();

  return {
    version: (templateId: number, version: number) => versions.get(`${templateId}:${version}`),

    /** A template with its prefix and the prefix's enterprise. */
    byId: (id: number) =>
      db
        .selectFrom('idf_template')
        .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
        .selectAll('idf_template')
        .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id'])
        .where('idf_template.id', '=', id)
        .executeTakeFirst(),

    /** The templates the scope sees at their latest version, with their record counts. */
    async list(scope: Scope, where: { prefix?: string | undefined; id?: number }) {
      let query = db
        .selectFrom('idf_template')
        .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
        .innerJoin('idf_template_version', (join) =>
          join
            .onRef('idf_template_version.template_id', '=', 'idf_template.id')
            .onRef('idf_template_version.version', '=', 'idf_template.version'),
        )
        .select((eb) => [
          'idf_template.id',
          'idf_prefix.prefix',
          'idf_template.name',
          'idf_template.version',
          'idf_template_version.items',
          'idf_template.created_at',
          'idf_template.updated_at',
          eb
            .selectFrom('idf_record')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('idf_record.template_id', '=', 'idf_template.id')
            .as('record_count'),
        ]);
      if (!scope.all) query = query.where('idf_prefix.enterprise_id', '=', scope.enterpriseId ?? -1);
      if (where.prefix !== undefined) query = query.where('idf_prefix.prefix', '=', where.prefix);
      if (where.id !== undefined) query = query.where('idf_template.id', '=', where.id);
      const rows = await query.orderBy('idf_prefix.prefix').orderBy('idf_template.id').execute();
      return rows.map((r) => ({
        id: r.id,
        prefix: r.prefix,
        name: r.name,
        version: r.version,
        items: parseItems(r.items),
        recordCount: Number(r.record_count ?? 0),
        createdAt: chinaTime(new Date(r.created_at)),
        updatedAt: chinaTime(new Date(r.updated_at)),
      }));
    },

    /** Every version of a template, newest first. */
    async versions(templateId: number) {
      const rows = await db
        .selectFrom('idf_template_version')
        .selectAll()
        .where('template_id', '=', templateId)
        .orderBy('version', 'desc')
        .execute();
      return rows.map((r) => ({
        templateId: r.template_id,
        version: r.version,
        name: r.name,
        items: parseItems(r.items),
        createdAt: chinaTime(new Date(r.created_at)),
        createdBy: r.created_by,
      }));
    },

    /** Version 1 of a new template; answers its id. Writes take the caller's transaction as `trx` (with its audit row). */
    create(values: { prefixId: number; name: string; items: TemplateItem[]; createdBy: string }, trx = db) {
      const now = new Date().toISOString();
      return inTransaction(trx, async (trx) => {
        const { id } = await trx
          .insertInto('idf_template')
          .values({ prefix_id: values.prefixId, name: values.name, version: 1, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertVersion(trx, { ...values, templateId: id, version: 1, now });
        return id;
      });
    },

    /** Saves a new version of a template; answers its number. */
    addVersion(templateId: number, values: { name: string; items: TemplateItem[]; createdBy: string }, trx = db) {
      const now = new Date().toISOString();
      return inTransaction(trx, async (trx) => {
        // The version is raised in the row itself, so two concurrent edits get two versions.
        const { version } = await trx
          .updateTable('idf_template')
          .set((eb) => ({ version: eb('version', '+', 1), name: values.name, updated_at: now }))
          .where('id', '=', templateId)
          .returning('version')
          .executeTakeFirstOrThrow();
        await insertVersion(trx, { ...values, templateId, version, now });
        return version;
      });
    },

    /** The items of every version of a template (an item's index is never given to another one). */
    async itemsEverUsed(templateId: number) {
      const rows = await db.selectFrom('idf_template_version').select('items').where('template_id', '=', templateId).execute();
      return rows.flatMap((r) => parseItems(r.items));
    },

    inUse: async (templateId: number) =>
      (await db.selectFrom('idf_record').select('id').where('template_id', '=', templateId).executeTakeFirst()) !== undefined,

    delete(templateId: number, trx = db) {
      return inTransaction(trx, async (trx) => {
        await trx.deleteFrom('idf_template_version').where('template_id', '=', templateId).execute();
        await trx.deleteFrom('idf_template').where('id', '=', templateId).execute();
      });
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('templateRepository', createTemplateRepository(app.database.db, app.caches));
  },
  { name: 'template-repository' },
);
