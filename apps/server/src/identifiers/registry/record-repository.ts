import fp from 'fastify-plugin';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { parseItemValues, type StoredRecord, type TemplateVersionInfo } from './handle-values.js';
import type { Scope } from './identifier-admin-context.js';

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

/** The records the list's filters stand for (the list, its export and its labels). */
export interface RecordFilter {
  /** The prefixes to list; undefined: all. */
  prefixIds?: number[] | undefined;
  templateId?: number | undefined;
  /** Handle ranges: records whose handle starts with one of these. */
  startsWith?: string[] | undefined;
}

export interface RecordPageQuery extends RecordFilter {
  offset: number;
  limit: number;
}

/** What a label prints of a record. */
export interface LabelRecord {
  id: number;
  handle: string;
  template_id: number;
  template_version: number;
  item_values: string;
}

/** A record a CSV import writes: its handle and item values (JSON of `ItemValue[]`). */
export interface NewRecord {
  handle: string;
  itemValues: string;
}

/** A record an import or a migration rewrites, as read before the write. */
export interface ExistingRecord {
  id: number;
  handle: string;
  template_id: number;
  template_version: number;
  item_values: string;
  updated_at: string;
}

/** New values of a record, written only if it is still as read (`updatedAt`). */
export interface ValuesReplacement {
  id: number;
  updatedAt: string;
  itemValues: string;
}

/** Which of a template's records a bulk read takes: handle ranges (a search) and versions. */
export interface TemplateRecordFilter {
  /** Records whose handle starts with one of these. */
  startsWith?: readonly string[] | undefined;
  /** Records at versions below this one. */
  belowVersion?: number | undefined;
  /** Records at this version. */
  version?: number | undefined;
}

/** Rows the export and a migration read at a time. */
const EXPORT_PAGE_ROWS = 1000;
/** Records per bulk update statement (4 parameters a record, within both engines' limits). */
const REPLACE_BATCH_ROWS = 500;

/** Identifier records. */
export function createRecordRepository(db: Kysely<Database>) {
  const joined = () =>
    db
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .innerJoin('idf_template', 'idf_template.id', 'idf_record.template_id');

  /** `handle` within one of the ranges (index ranges of the unique index, no scan). */
  const inRanges = (eb: ExpressionBuilder<Database, 'idf_record'>, ranges: readonly string[]) =>
    eb.or(ranges.map((from) => eb.and([eb('idf_record.handle', '>=', from), eb('idf_record.handle', '<', `${from}\uffff`)])));
  const filtered = (q: RecordFilter) => {
    let query = joined();
    if (q.prefixIds) query = query.where('idf_record.prefix_id', 'in', q.prefixIds);
    if (q.templateId !== undefined) query = query.where('idf_record.template_id', '=', q.templateId);
    const ranges = q.startsWith;
    if (ranges) query = query.where((eb) => inRanges(eb, ranges));
    return query;
  };
  const labelColumns = [
    'idf_record.id',
    'idf_record.handle',
    'idf_record.template_id',
    'idf_record.template_version',
    'idf_record.item_values',
  ] as const;

  return {
    /** The public resolution's lookup: one search of the unique index on `handle`. */
    byHandle: (handle: string): Promise<(StoredRecord & { prefix_id: number }) | undefined> =>
      db
        .selectFrom('idf_record')
        .select(['handle', 'prefix_id', 'template_id', 'template_version', 'item_values', 'created_at', 'updated_at'])
        .where('handle', '=', handle)
        .executeTakeFirst(),

    /** A record with its prefix, the prefix's enterprise and its template's name. */
    byId: (id: number) =>
      joined()
        .selectAll('idf_record')
        .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id', 'idf_template.name as template_name'])
        .where('idf_record.id', '=', id)
        .executeTakeFirst(),

    /** A page of records, newest first, and how many match. */
    async page(q: RecordPageQuery) {
      const query = filtered(q);
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

    /** Up to `limit` records of the filter for labels, in handle order (the order they are printed). */
    labelRecords: (filter: RecordFilter, limit: number): Promise<LabelRecord[]> =>
      filtered(filter).select(labelColumns).orderBy('idf_record.handle').limit(limit).execute(),

    /** Those of the records `ids` the scope sees, for labels, in handle order. */
    labelRecordsByIds(ids: readonly number[], scope: Scope): Promise<LabelRecord[]> {
      let query = joined().where('idf_record.id', 'in', ids);
      if (!scope.all) query = query.where('idf_prefix.enterprise_id', '=', scope.enterpriseId ?? -1);
      return query.select(labelColumns).orderBy('idf_record.handle').execute();
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

    /** The records of a template that `filter` takes, in id order, read a page at a time (in `trx` when given). */
    async *ofTemplate(templateId: number, filter: TemplateRecordFilter = {}, trx = db): AsyncGenerator<ExistingRecord> {
      let after = 0;
      for (;;) {
        let query = trx
          .selectFrom('idf_record')
          .select(['id', 'handle', 'template_id', 'template_version', 'item_values', 'updated_at'])
          .where('template_id', '=', templateId)
          .where('id', '>', after);
        const { startsWith, belowVersion, version } = filter;
        if (startsWith) query = query.where((eb) => inRanges(eb, startsWith));
        if (belowVersion !== undefined) query = query.where('template_version', '<', belowVersion);
        if (version !== undefined) query = query.where('template_version', '=', version);
        const page = await query.orderBy('id').limit(EXPORT_PAGE_ROWS).execute();
        yield* page;
        if (page.length < EXPORT_PAGE_ROWS) return;
        after = page[page.length - 1]!.id;
      }
    },

    /** The records of these handles. */
    existing: (handles: readonly string[], trx = db): Promise<ExistingRecord[]> =>
      handles.length === 0
        ? Promise.resolve([])
        : trx
            .selectFrom('idf_record')
            .select(['id', 'handle', 'template_id', 'template_version', 'item_values', 'updated_at'])
            .where('handle', 'in', [...handles])
            .execute(),

    /**
     * Writes new values of records (and moves them to `version` when given), each only if it is still
     * as read: its `updated_at` unchanged. A few statements for any number of records; answers how
     * many were written, so the caller can tell that one changed meanwhile.
     */
    async replaceValues(rows: readonly ValuesReplacement[], version: number | undefined, trx = db): Promise<number> {
      const now = new Date().toISOString();
      let written = 0;
      for (let i = 0; i < rows.length; i += REPLACE_BATCH_ROWS) {
        const part = rows.slice(i, i + REPLACE_BATCH_ROWS);
        const byId = <T>(value: (row: ValuesReplacement) => T) =>
          sql<T>`case id ${sql.join(
            part.map((row) => sql`when ${row.id} then ${value(row)}`),
            sql` `,
          )} end`;
        const result = await trx
          .updateTable('idf_record')
          .set({
            item_values: byId((row) => row.itemValues),
            updated_at: now,
            ...(version !== undefined ? { template_version: version } : {}),
          })
          .where(
            'id',
            'in',
            part.map((row) => row.id),
          )
          .where(
            'updated_at',
            '=',
            byId((row) => row.updatedAt),
          )
          .executeTakeFirst();
        written += Number(result.numUpdatedRows);
      }
      return written;
    },
  };
}

export default fp(
  async (app) => {
    app.decorate('recordRepository', createRecordRepository(app.database.db));
  },
  { name: 'record-repository' },
);
