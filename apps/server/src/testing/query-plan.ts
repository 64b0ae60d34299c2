import { type CompiledQuery as Compiled, CompiledQuery, type Kysely, sql } from 'kysely';
import type { DialectName } from '../platform/db/database.js';
import type { Database } from '../platform/db/schema.js';

/**
 * The plan the database chooses for `compiled`, one line per step: SQLite's `EXPLAIN QUERY PLAN`, or
 * PostgreSQL's `EXPLAIN` with sequential scans turned off — a test's tables are tiny, so a scan would be
 * cheapest there; forbidding it shows the plan the indexes give a large table.
 */
export async function queryPlan(db: Kysely<Database>, dialect: DialectName, compiled: Compiled): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
