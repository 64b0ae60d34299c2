import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** The SQL backups and restores need: what a database holds, its copy (SQLite), its schema (PostgreSQL). */
export function createBackupRepository(db: Kysely<Database>, dialect: DialectName) {
  return {
    /** The migrations applied to this database, in order (Kysely's bookkeeping table; none on an empty database). */
    async appliedMigrations(): Promise<string[]> {
      if ((await this.tableCount()) === 0) return [];
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      return rows.map((r) => r.name);
    },

    /** Tables and views in the portal's part of the database: 0 on a fresh install. */
    async tableCount(): Promise<number> {
      const { rows } =
        dialect === 'sqlite'
          ? await sql<{
              n: number;
            }>`select count(*) as n from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%'`.execute(db)
          : await sql<{ n: string }>`select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f')`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * SQLite: a consistent copy of the whole database into `file` (VACUUM INTO reads in one read
     * transaction, so in WAL mode the portal keeps writing meanwhile; the copy is compact and needs no WAL).
     */
    async copySqliteTo(file: string): Promise<void> {
      await sql`vacuum into ${file}`.execute(db);
    },

    /** SQLite: the copy as a file of its own, in rollback-journal mode (no -wal or -shm files beside it). */
    async selfContained(): Promise<void> {
      await sql`pragma journal_mode = delete`.execute(db);
    },

    /** PostgreSQL: the schema the portal's tables live in (the connection's search_path), and the server's version. */
    async postgresInfo(): Promise<{ schema: string | null; serverVersion: string; serverMajor: number; extensions: string[] }> {
      const { rows } = await sql<{ schema: string | null; version: string; num: string }>`select current_schema() as schema,
          current_setting('server_version') as version, current_setting('server_version_num') as num`.execute(db);
      const row = rows[0]!;
      // Extensions live outside the schema (pg_trgm's operator classes are used by the article search indexes).
      const ext = await sql<{ name: string }>`select extname as name from pg_extension where extname <> 'plpgsql' order by extname`.execute(
        db,
      );
      return {
        schema: row.schema,
        serverVersion: row.version,
        serverMajor: Math.floor(Number(row.num) / 10_000),
        extensions: ext.rows.map((r) => r.name),
      };
    },
  };
}

export type BackupRepository = ReturnType<typeof createBackupRepository>;
