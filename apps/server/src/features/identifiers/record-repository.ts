import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { chinaTime } from '../../lib/china-time.js';
import { parseItemValues, type StoredRecord, type TemplateVersionInfo } from './handle-values.js';

declare module 'fastify' {
  interface FastifyInstance {
    recordRepository: RecordRepository;
  }
}

export type RecordRepository = ReturnType<typeof createRecordRepository>;

/** A record as the console shows it. */
export const toRecord = (r: {
  id: number;
  handle: string;
  prefix: string;
  template_id: number;
  template_name: string;
  template_version: number;
  item_values: string;
  created_at: string;
  updated_at: string;
}) => ({
  id: r.id,
  handle: r.handle,
  prefix: r.prefix,
  suffix: r.handle.slice(r.prefix.length + 1),
  templateId: r.template_id,
  templateName: r.template_name,
  templateVersion: r.template_version,
  values: Object.fromEntries(parseItemValues(r.item_values).map(([, type, value]) => [type, value])),
  createdAt: chinaTime(new Date(r.created_at)),
  updatedAt: chinaTime(new Date(r.updated_at)),
});

export interface RecordPageQuery {
  /** The prefixes to list; undefined: all. */
  prefixIds?: number[] | undefined;
  templateId?: number | undefined;
  /** Handle ranges: records whose handle starts with one of these. */
  startsWith?: string[] | undefined;
  offset: number;
  limit: number;
}

/** A record a CSV import writes: its handle and item values (JSON of `ItemValue[]`). */
export interface NewRecord {
  handle: string;
  itemValues: string;
}

/** Rows the export reads at a time. */
const EXPORT_PAGE_ROWS = 1000;

/** Identifier records. */
export function createRecordRepository(db: Kysely<Database>) {
  const joined = () =>
    db
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .innerJoin('idf_template', 'idf_template.id', 'idf_record.template_id');

  return {
    /** The public resolution's lookup: one search of the unique index on `handle`. */
    byHandle: (handle: string): Promise<(StoredRecord & { prefix_id: number }) | undefined> =>
      db
        .selectFrom('idf_record')
        .select(['handle', 'prefix_id', 'template_id', 'template_version', 'item_values', 'created_at', 'updated_at'])
        .where('handle', '=', handle)
        .executeTakeFirst(),

    /**
     * Adds lookups counted per prefix to the China date `day` (工作台); prefixes deleted meanwhile
     * are skipped, so one can never hold up the others' counts.
     */
    async addLookups(batch: ReadonlyMap<number, number>, day: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const ids = [...batch.keys()];
        const held = await trx.selectFrom('idf_prefix').select('id').where('id', 'in', ids).execute();
        for (const { id } of held) {
          await trx
            .insertInto('idf_lookup_day')
            .values({ prefix_id: id, day, lookups: batch.get(id) ?? 0 })
            .onConflict((oc) =>
              oc
                .columns(['prefix_id', 'day'])
                .doUpdateSet((eb) => ({ lookups: eb('idf_lookup_day.lookups', '+', eb.ref('excluded.lookups')) })),
            )
            .execute();
        }
      });
    },

    /** A record with its prefix, the prefix's enterprise and its template's name. */
    byId: (id: number) =>
      joined()
        .selectAll('idf_record')
        .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id', 'idf_template.name as template_name'])
        .where('idf_record.id', '=', id)
        .executeTakeFirst(),

    /** A page of records, newest first, and how many match. */
    async page(q: RecordPageQuery) {
      let query = joined();
      if (q.prefixIds) query = query.where('idf_record.prefix_id', 'in', q.prefixIds);
      if (q.templateId !== undefined) query = query.where('idf_record.template_id', '=', q.templateId);
      const ranges = q.startsWith;
      if (ranges) {
        // Index ranges of `handle`, no scan.
        query = query.where((eb) =>
          eb.or(ranges.map((from) => eb.and([eb('idf_record.handle', '>=', from), eb('idf_record.handle', '<', `${from}\uffff`)]))),
        );
      }
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        query
          .selectAll('idf_record')
          .select(['idf_prefix.prefix', 'idf_template.name as template_name'])
          .orderBy('idf_record.id', 'desc')
          .offset(q.offset)
          .limit(q.limit)
          .execute(),
      ]);
      return { total: Number(count.n), rows: rows.map(toRecord) };
    },

    /** A new record; answers its id. Writes take the caller's transaction as `trx` (with its audit row). */
    async create(values: { handle: string; prefixId: number; template: TemplateVersionInfo; itemValues: string }, trx = db) {
      const now = new Date().toISOString();
      const { id } = await trx
        .insertInto('idf_record')
        .values({
          handle: values.handle,
          prefix_id: values.prefixId,
          template_id: values.template.templateId,
          template_version: values.template.version,
          item_values: values.itemValues,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /** New values of a record, checked against `template`, which the record moves to. */
    async update(id: number, values: { template: TemplateVersionInfo; itemValues: string }, trx = db) {
      await trx
        .updateTable('idf_record')
        .set({
          template_id: values.template.templateId,
          template_version: values.template.version,
          item_values: values.itemValues,
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id: number, trx = db) {
      await trx.deleteFrom('idf_record').where('id', '=', id).execute();
    },

    /**
     * Writes records of one prefix and template in one statement (all or nothing), skipping handles
     * that exist; answers the handles written.
     */
    async insertNew(target: { prefixId: number; template: TemplateVersionInfo }, records: readonly NewRecord[], trx = db) {
      const now = new Date().toISOString();
      const inserted = await trx
        .insertInto('idf_record')
        .values(
          records.map((r) => ({
            handle: r.handle,
            prefix_id: target.prefixId,
            template_id: target.template.templateId,
            template_version: target.template.version,
            item_values: r.itemValues,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) => oc.column('handle').doNothing())
        .returning('handle')
        .execute();
      return inserted.map((r) => r.handle);
    },

    /** Every record of a template in id order, read a page at a time. */
    async *ofTemplate(templateId: number) {
      let after = 0;
      for (;;) {
        const page = await db
          .selectFrom('idf_record')
          .select(['id', 'handle', 'item_values'])
          .where('template_id', '=', templateId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(EXPORT_PAGE_ROWS)
          .execute();
        yield* page;
        if (page.length < EXPORT_PAGE_ROWS) return;
        after = page[page.length - 1]!.id;
      }
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('recordRepository', createRecordRepository(app.database.db));
  },
  { name: 'record-repository' },
);
