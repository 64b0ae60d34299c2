import type { TemplateItem } from '@portal/shared';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { StoredRecord, TemplateVersionInfo } from './handle-values.js';

/** Template versions kept in memory; they never change once written, so any instance may keep them. */
const TEMPLATE_CACHE_SIZE = 1000;

/** Reads template versions once and keeps them (immutable rows: nothing to invalidate). */
export class TemplateVersions {
  readonly #cache = new Map<string, TemplateVersionInfo>();
  readonly #loading = new Map<string, Promise<TemplateVersionInfo | undefined>>();

  constructor(private readonly db: Kysely<Database>) {}

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
 * Finds records by handle: a lookup in the unique index on `handle`. The statement is compiled once
 * (the public lookup is the node's hottest call; building it per request cost a tenth of its time).
 */
export function recordLookup(db: Kysely<Database>): (handle: string) => Promise<StoredRecord | undefined> {
  const { sql } = db
    .selectFrom('idf_record')
    .select(['handle', 'template_id', 'template_version', 'item_values', 'created_at', 'updated_at'])
    .where('handle', '=', '')
    .compile();
  return async (handle) => (await db.executeQuery<StoredRecord>(CompiledQuery.raw(sql, [handle]))).rows[0];
}

/** Whether this node holds `prefix` (its handles are never resolved upstream). */
export async function holdsPrefix(db: Kysely<Database>, prefix: string): Promise<boolean> {
  return (await db.selectFrom('idf_prefix').select('id').where('prefix', '=', prefix).executeTakeFirst()) !== undefined;
}
