import type { TemplateItem } from '@portal/shared';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { StoredRecord, TemplateVersionInfo } from './handle-values.js';

/** Template versions kept in memory; they never change once written, so any instance may keep them. */
const TEMPLATE_CACHE_SIZE = 1000;

/** Reads template versions once and keeps them (immutable rows: nothing to invalidate). */
export class TemplateVersions {
  readonly #cache = new Map<string, TemplateVersionInfo>();
  readonly #loading = new Map<string, Promise<TemplateVersionInfo | undefined>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** A version already read, without waiting (the resolution's common case). */
  cached(templateId: number, version: number): TemplateVersionInfo | undefined {
    return this.#cache.get(`${templateId}:${version}`);
  }

  get(templateId: number, version: number): Promise<TemplateVersionInfo | undefined> {
    const key = `${templateId}:${version}`;
    const hit = this.#cache.get(key);
    if (hit) return Promise.resolve(hit);
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#load(templateId, version).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  async #load(templateId: number, version: number): Promise<TemplateVersionInfo | undefined> {
    const row = await this.db
      .selectFrom('idf_template_version')
      .select(['name', 'items'])
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) return undefined;
    const info = { templateId, version, name: row.name, items: JSON.parse(row.items) as TemplateItem[] };
    if (this.#cache.size >= TEMPLATE_CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(`${templateId}:${version}`, info);
    return info;
  }
}

/**
 * Finds records by handle: a lookup in the unique index on `handle`, the public resolution's only
 * query. On SQLite it runs synchronously on the read-only connection (`rowReader`): through Kysely
 * and the shared connection it cost 9 of the lookup's 15 µs. On PostgreSQL the compiled statement
 * goes through Kysely (built once; building it per request cost a tenth of the request).
 */
export function recordLookup(database: DatabaseHandle): (handle: string) => StoredRecord | undefined | Promise<StoredRecord | undefined> {
  const { db } = database;
  // The item values as their UTF-8 bytes: the answers copy them (answer-bytes.ts).
  const itemValuesBytes =
    database.dialect === 'sqlite' ? sql<Buffer>`cast(item_values as blob)` : sql<Buffer>`convert_to(item_values, 'UTF8')`;
  const { sql: query } = db
    .selectFrom('idf_record')
    .select(['handle', 'template_id', 'template_version', itemValuesBytes.as('item_values'), 'created_at', 'updated_at'])
    .where('handle', '=', '')
    .compile();
  const read = database.rowReader?.<StoredRecord>(query);
  if (read) return (handle) => read([handle]);
  return async (handle) => (await db.executeQuery<StoredRecord>(CompiledQuery.raw(query, [handle]))).rows[0];
}

/** Whether this node holds `prefix` (its handles are never resolved upstream). */
export async function holdsPrefix(db: Kysely<Database>, prefix: string): Promise<boolean> {
  return (await db.selectFrom('idf_prefix').select('id').where('prefix', '=', prefix).executeTakeFirst()) !== undefined;
}
