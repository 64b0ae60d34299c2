import { sql } from 'kysely';
import type { PortalMigration } from './helpers.js';

/**
 * Repairs integer columns that hold something other than an integer. Before the input guard
 * (plugins/input-guard.ts), SQLite stored values such as "Infinity" that a number schema had accepted;
 * a nullable column gets NULL, a required one 0. PostgreSQL's integer columns never held such values.
 */
export const finiteIntegersMigration: PortalMigration = {
  async up(db, dialect) {
    if (dialect !== 'sqlite') return;
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and sql not like '%VIRTUAL%'`.execute(
      db,
    );
    for (const { name: table } of tables.rows) {
      const columns = await sql<{
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }>`select name, type, "notnull", pk from pragma_table_info(${table})`.execute(db);
      for (const column of columns.rows) {
        if (column.pk || !/INT/i.test(column.type)) continue;
        const replacement = column.notnull ? sql`0` : sql`null`;
        await sql`update ${sql.table(table)} set ${sql.ref(column.name)} = ${replacement} where typeof(${sql.ref(column.name)}) not in ('integer', 'null')`.execute(
          db,
        );
      }
    }
  },
  async down() {
    // The values it replaced were unusable; nothing to restore.
  },
};
