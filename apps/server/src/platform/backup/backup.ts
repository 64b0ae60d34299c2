import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { create } from 'tar';
import { createDatabase, type DatabaseOptions } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { PortalSqliteDialect } from '../db/sqlite-dialect.js';
import { createBackupRepository } from './backup-repository.js';
import { BackupError, describeFile, FORMAT, FORMAT_VERSION, filesUnder, MANIFEST, type Manifest, ROOTS } from './manifest.js';
import { libpqConnection, postgresTool, runTool } from './postgres-tools.js';

/** What a backup copies: the database and the two file folders (ServerConfig's names). */
export interface BackupSource {
  database: DatabaseOptions;
  filesDir: string;
  privateFilesDir: string;
  /** PG_BIN_DIR: where PostgreSQL's client programs are, when not where postgresTool looks. */
  pgBinDir?: string | undefined;
}

/** `--extension` (the extensions the schema's indexes use) arrived in pg_dump 14. */
const PG_DUMP_MIN_MAJOR = 14;

/** A name pg_dump's `--schema`/`--extension` take literally (a pattern otherwise: case folded, `*` and `?` wild). */
const literal = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `portal-backup-20261129T031500Z.tar.gz` (UTC), with `-2`, `-3`… when one of that second exists. */
function archiveName(dir: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const name = path.join(dir, `portal-backup-${stamp}${n === 1 ? '' : `-${n}`}.tar.gz`);
    if (!fs.existsSync(name)) return name;
  }
}

/** SQLite: VACUUM INTO, then the copy made a file of its own (no WAL) and its migrations read from it. */
async function copySqlite(source: DatabaseOptions, target: string): Promise<Manifest['database']> {
  if (!fs.existsSync(source.sqliteFile)) throw new BackupError(`no database at ${source.sqliteFile} (SQLITE_FILE)`);
  const database = await createDatabase(source);
  try {
    await createBackupRepository(database.db, 'sqlite').copySqliteTo(target);
  } finally {
    await database.destroy();
  }
  const copy = new Kysely<Database>({ dialect: new PortalSqliteDialect(new SQLite(target, { fileMustExist: true })) });
  try {
    const repository = createBackupRepository(copy, 'sqlite');
    await repository.selfContained();
    const migrations = await repository.appliedMigrations();
    return { dialect: 'sqlite', file: 'database/portal.sqlite', migrations };
  } finally {
    await copy.destroy();
  }
}

/**
 * PostgreSQL: `pg_dump --format=custom` of the portal's schema (the connection's search_path) and the
 * extensions it uses, in one snapshot (pg_dump reads in a single repeatable-read transaction while the
 * portal keeps writing). The custom format is compressed and lets pg_restore pick entries; owners and
 * grants are left out at restore time (`--no-owner --no-privileges`), so the restored objects belong to the
 * role the new install connects as. `--lock-wait-timeout` stops a backup stuck behind a migration.
 */
async function dumpPostgres(
  source: DatabaseOptions & { databaseUrl: string },
  binDir: string | undefined,
  target: string,
): Promise<Manifest['database']> {
  const database = await createDatabase(source);
  try {
    const repository = createBackupRepository(database.db, 'postgres');
    const info = await repository.postgresInfo();
    if (!info.schema) throw new BackupError('the connection has no schema to back up (DATABASE_URL search_path)');
    const pgDump = await postgresTool('pg_dump', info.serverMajor, binDir);
    if (pgDump.major < Math.max(info.serverMajor, PG_DUMP_MIN_MAJOR)) {
      throw new BackupError(
        `${pgDump.command} is version ${pgDump.version}; the server is PostgreSQL ${info.serverVersion}: install the client programs of version ${Math.max(info.serverMajor, PG_DUMP_MIN_MAJOR)} or later (Debian: postgresql-client-${info.serverMajor})`,
      );
    }
    const before = await repository.appliedMigrations();
    const { url, env } = libpqConnection(source.databaseUrl);
    await runTool(
      pgDump,
      [
        '--format=custom',
        `--schema=${literal(info.schema)}`,
        ...info.extensions.map((e) => `--extension=${literal(e)}`),
        '--lock-wait-timeout=60s',
        `--file=${target}`,
        `--dbname=${url}`,
      ],
      env,
    );
    // Migrations take the lock pg_dump waits for; one that ran just before the dump's snapshot would not be listed.
    const after = await repository.appliedMigrations();
    if (after.join() !== before.join()) throw new BackupError('migrations ran during the backup: run it again');
    return {
      dialect: 'postgres',
      file: 'database/portal.pgdump',
      migrations: after,
      schema: info.schema,
      extensions: info.extensions,
      serverVersion: info.serverVersion,
      pgDumpVersion: pgDump.version,
    };
  } finally {
    await database.destroy();
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    fs.linkSync(source, target);
  } catch (err) {
    if (!['EXDEV', 'EPERM', 'EMLINK'].includes(String((err as NodeJS.ErrnoException).code))) throw err;
    fs.copyFileSync(source, target);
  }
}

/**
 * Puts `from`'s files under `to`: hard links where they share a file system (uploads are written once
 * and never changed) and the file has no other name, copies otherwise. A file gone meanwhile was an upload whose write failed and was undone.
 */
function gatherFiles(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const relative of filesUnder(from)) {
    const source = path.join(from, ...relative.split('/'));
    const target = path.join(to, ...relative.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      // A file with other names (a folder de-duplicated with hard links) is copied: two names of one
      // inode would go into the archive as a tar Link entry, which restore refuses.
      if (fs.statSync(source).nlink > 1) fs.copyFileSync(source, target);
      else linkOrCopy(source, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Writes one archive (tar.gz, mode 600: it holds password hashes and the shared secrets) to `outputDir`
 * while the portal keeps serving: the database's consistent copy first, then the uploaded and private
 * files. A file is written before the row naming it commits and is never changed or removed after,
 * so every file the copy's rows name is on disk by then; files of writes after the copy come along
 * unnamed and do no harm. A manifest lists each file's size and SHA-256; the archive appears under its
 * name only once complete.
 */
export async function createBackup(
  source: BackupSource,
  outputDir: string,
  now = new Date(),
): Promise<{ file: string; manifest: Manifest }> {
  // Inside FILES_DIR an archive would be served under /files (and copied into the next one).
  for (const root of [source.filesDir, source.privateFilesDir]) {
    const relative = path.relative(path.resolve(root), path.resolve(outputDir));
    if (!relative.startsWith('..') && !path.isAbsolute(relative))
      throw new BackupError(`${outputDir} is inside ${root}: write backups outside FILES_DIR and PRIVATE_FILES_DIR`);
  }
  fs.mkdirSync(outputDir, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(outputDir, '.portal-backup-'));
  try {
    fs.mkdirSync(path.join(staging, 'database'));
    const { databaseUrl } = source.database;
    const database = databaseUrl
      ? await dumpPostgres({ ...source.database, databaseUrl }, source.pgBinDir, path.join(staging, 'database', 'portal.pgdump'))
      : await copySqlite(source.database, path.join(staging, 'database', 'portal.sqlite'));
    gatherFiles(source.filesDir, path.join(staging, 'files'));
    gatherFiles(source.privateFilesDir, path.join(staging, 'private'));
    const files = [];
    for (const relative of filesUnder(staging)) files.push(await describeFile(staging, relative));
    const manifest: Manifest = { format: FORMAT, version: FORMAT_VERSION, createdAt: now.toISOString(), database, files };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const file = archiveName(outputDir, now);
    const partial = path.join(staging, 'archive.partial');
    await create({ gzip: true, file: partial, cwd: staging, portable: true }, [MANIFEST, ...ROOTS]);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, file);
    return { file, manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
