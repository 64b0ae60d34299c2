import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * 标识统计: daily rollups of the public resolution's lookups, written by every instance
 * from counts it keeps in memory (never a write per request). Rows are keyed by the prefix's text, so
 * a lookup of a handle this node does not hold, or cannot parse (prefix ''), still counts for the node.
 * Nothing about the client is kept beyond the province its address maps to.
 */
export const identifierAnalyticsMigration: PortalMigration = {
  async up(db) {
    // Lookups per China date, prefix, channel (web|qr|api|upstream), region (province, 内网, 未知) and
    // outcome (found|not_found|malformed).
    await db.schema
      .createTable('idf_lookup_rollup')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(128)', (c) => c.notNull())
      .addColumn('channel', 'varchar(16)', (c) => c.notNull())
      .addColumn('region', 'varchar(32)', (c) => c.notNull())
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('lookups', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_lookup_rollup_pk', ['prefix', 'day', 'channel', 'region', 'outcome'])
      .execute();
    await db.schema.createIndex('idf_lookup_rollup_day').on('idf_lookup_rollup').columns(['day', 'prefix']).execute();

    // The most looked-up handles per day: found ones (top identifiers) and failed ones (mistyped handles).
    await db.schema
      .createTable('idf_lookup_handle')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(128)', (c) => c.notNull())
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('handle', 'varchar(255)', (c) => c.notNull())
      .addColumn('lookups', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_lookup_handle_pk', ['prefix', 'day', 'outcome', 'handle'])
      .execute();
    await db.schema.createIndex('idf_lookup_handle_day').on('idf_lookup_handle').columns(['day', 'prefix']).execute();

    // Values of the template items marked 计入统计 (e.g. 产品型号) among found lookups, per day.
    await db.schema
      .createTable('idf_lookup_value')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(128)', (c) => c.notNull())
      .addColumn('item', 'varchar(64)', (c) => c.notNull())
      .addColumn('value', 'varchar(255)', (c) => c.notNull())
      .addColumn('lookups', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_lookup_value_pk', ['prefix', 'day', 'item', 'value'])
      .execute();
    await db.schema.createIndex('idf_lookup_value_day').on('idf_lookup_value').columns(['day', 'prefix']).execute();

    // 工作台's per-day counts (migration 0009) become found web lookups of unknown region.
    await sql`
      insert into idf_lookup_rollup (day, prefix, channel, region, outcome, lookups)
      select d.day, p.prefix, 'web', '未知', 'found', d.lookups
      from idf_lookup_day d join idf_prefix p on p.id = d.prefix_id
    `.execute(db);
    await db.schema.dropTable('idf_lookup_day').execute();
  },
  async down(db) {
    await db.schema
      .createTable('idf_lookup_day')
      .addColumn('prefix_id', 'integer', (c) => c.notNull().references('idf_prefix.id').onDelete('cascade'))
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('lookups', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('idf_lookup_day_pk', ['prefix_id', 'day'])
      .execute();
    await sql`
      insert into idf_lookup_day (prefix_id, day, lookups)
      select p.id, r.day, sum(r.lookups)
      from idf_lookup_rollup r join idf_prefix p on p.prefix = r.prefix
      where r.outcome = 'found'
      group by p.id, r.day
    `.execute(db);
    await db.schema.dropTable('idf_lookup_value').execute();
    await db.schema.dropTable('idf_lookup_handle').execute();
    await db.schema.dropTable('idf_lookup_rollup').execute();
  },
};
