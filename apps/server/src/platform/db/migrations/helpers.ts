import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../database.js';

export interface PortalMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
  down(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/** An auto-increment integer primary key on both engines (SQLite rowid alias, PostgreSQL identity). */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
