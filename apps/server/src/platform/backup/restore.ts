import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extract } from 'tar';
import { createDatabase, type DatabaseHandle } from '../db/database.js';
import { MIGRATION_NAMES, migrateToLatest } from '../db/migrate.js';
import type { BackupSource } from './backup.js';
import { createBackupRepository } from './backup-repository.js';
import { BackupError, filesUnder, MANIFEST, type Manifest, ROOTS, verifiedManifest } from './manifest.js';
import { libpqConnection, postgresTool, runTool } from './postgres-tools.js';

export interface RestoreResult {
  manifest: Manifest;
  /** Migrations run after the restore: those of versions newer than the backup's. */
  migrated: string[];
  files: number;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Unpacks `archive` into `dir`: only regular files and folders under the archive's own names (no links, no other paths). */
async function unpack(archive: string, dir: string): Promise<void> {
  const refused: string[] = [];
  try {
    await extract({
      file: archive,
      cwd: dir,
      strict: true,
      preserveOwner: false,
      filter: (entryPath, entry) => {
        const top = entryPath.replace(/^\.\//, '').split('/')[0] ?? '';
        const type = 'type' in entry ? entry.type : undefined;
        const allowed = (type === 'File' || type === 'Directory') && (top === MANIFEST || (ROOTS as readonly string[]).includes(top));
        if (!allowed) refused.push(entryPath);
        return allowed;
      },
    });
  } catch (err) {
    throw new BackupError(`not a readable portal backup: ${(err as Error).message}`);
  }
  if (refused.length) throw new BackupError(`not a portal backup: it holds ${refused.slice(0, 5).join(', ')}`);
}

/** What the target already holds; restoring over it needs --force. */
async function contentsOf(database: DatabaseHandle | undefined, target: BackupSource): Promise<string[]> {
  const held: string[] = [];
  const tables = database ? await createBackupRepository(database.db, database.dialect).tableCount() : 0;
  if (database && tables > 0) held.push(`the database (${tables} tables, ${database.describe})`);
  for (const dir of [target.filesDir, target.privateFilesDir]) {
    const count = filesUnder(dir).length;
    if (count > 0) held.push(`${dir} (${count} files)`);
  }
  return held;
}

/** The SQLite copy in place of the target's file (and its WAL, which belonged to the old one). */
function restoreSqlite(copy: string, sqliteFile: string): void {
  fs.mkdirSync(path.dirname(sqliteFile), { recursive: true });
  const incoming = `${sqliteFile}.restoring`;
  fs.copyFileSync(copy, incoming);
  for (const leftover of [`${sqliteFile}-wal`, `${sqliteFile}-shm`]) fs.rmSync(leftover, { force: true });
  fs.renameSync(incoming, sqliteFile);
}

/**
 * PostgreSQL: pg_restore writes the dump as one SQL script (owners, grants and comments left out; the
 * schema's CREATE left out too, since the target's schema exists), and psql runs it in a single
 * transaction with ON_ERROR_STOP, after dropping and creating the schema when `replace`: the target
 * is either the backup's state or untouched.
 */
async function restorePostgres(
  manifest: Manifest,
  dump: string,
  work: string,
  target: BackupSource,
  into: { schema: string; serverMajor: number },
  replace: boolean,
) {
  const { schema } = into;
  // pg_restore reads archives of its own version and older ones.
  const dumpedBy = Number(/^\d+/.exec(manifest.database.pgDumpVersion ?? '')?.[0] ?? 0);
  const serverMajor = Math.max(into.serverMajor, dumpedBy);
  const pgRestore = await postgresTool('pg_restore', serverMajor, target.pgBinDir);
  if (pgRestore.major < dumpedBy) {
    throw new BackupError(
      `${pgRestore.command} is version ${pgRestore.version}; the backup was written by pg_dump ${manifest.database.pgDumpVersion}: install the client programs of version ${dumpedBy} or later`,
    );
  }
  const psql = await postgresTool('psql', serverMajor, target.pgBinDir);
  const list = (await runTool(pgRestore, ['--list', dump], process.env))
    .split('\n')
    .filter((line) => !/^\d+; \d+ \d+ SCHEMA - /.test(line) || line.split(' ')[5] !== schema);
  const listFile = path.join(work, 'restore.list');
  const script = path.join(work, 'restore.sql');
  fs.writeFileSync(listFile, list.join('\n'));
  await runTool(
    pgRestore,
    ['--no-owner', '--no-privileges', '--no-comments', `--use-list=${listFile}`, `--file=${script}`, dump],
    process.env,
  );
  const { url, env } = libpqConnection(target.database.databaseUrl!);
  const prelude = replace ? ['-c', `DROP SCHEMA ${quoteIdent(schema)} CASCADE`, '-c', `CREATE SCHEMA ${quoteIdent(schema)}`] : [];
  await runTool(psql, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', ...prelude, '-f', script, `--dbname=${url}`], env);
}

/** The files of `from` under `to`, which is emptied first when `replace`. */
function restoreFiles(from: string, to: string, replace: boolean, mode: number): void {
  if (replace && fs.existsSync(to))
    for (const entry of fs.readdirSync(to)) fs.rmSync(path.join(to, entry), { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true, mode });
  if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true });
}

/**
 * Brings an install (its database, FILES_DIR and PRIVATE_FILES_DIR) to the state of `archive`. Before
 * anything changes the archive is checked against its manifest's checksums, its database must be of
 * the target's kind (and on PostgreSQL of the same schema name), its migrations known to this version,
 * and the target empty unless `force`. Migrations the backup predates run afterwards.
 * The portal must not be running on the target meanwhile.
 */
export async function restoreBackup(archive: string, target: BackupSource, options: { force?: boolean } = {}): Promise<RestoreResult> {
  if (!fs.existsSync(archive) || !fs.statSync(archive).isFile()) throw new BackupError(`no backup at ${archive}`);
  // The target first: refusing an install that is not empty needs no unpacking. A SQLite file that
  // is not there yet is not opened (that would create it).
  const dialect = target.database.databaseUrl ? 'postgres' : 'sqlite';
  const database = dialect === 'sqlite' && !fs.existsSync(target.database.sqliteFile) ? undefined : await createDatabase(target.database);
  let schema: string | undefined;
  let serverMajor = 0;
  try {
    if (database?.dialect === 'postgres') {
      const info = await createBackupRepository(database.db, 'postgres').postgresInfo();
      schema = info.schema ?? undefined;
      serverMajor = info.serverMajor;
      if (!schema) throw new BackupError('the schema DATABASE_URL names (search_path) does not exist: create it first');
    }
    const held = await contentsOf(database, target);
    if (held.length && !options.force)
      throw new BackupError(
        `the target is not empty: ${held.join('; ')}. Restore into a fresh install, or pass --force to replace what it holds`,
      );
  } finally {
    await database?.destroy();
  }

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restore-'));
  try {
    const unpacked = path.join(work, 'archive');
    fs.mkdirSync(unpacked);
    await unpack(archive, unpacked);
    const manifest = await verifiedManifest(unpacked);
    const known = new Set(MIGRATION_NAMES);
    const newer = manifest.database.migrations.filter((m) => !known.has(m));
    if (newer.length) {
      throw new BackupError(
        `the backup comes from a newer version of the portal (migrations ${newer.join(', ')}): restore it with that version or a later one`,
      );
    }
    if (manifest.database.dialect !== dialect) {
      const names = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
      throw new BackupError(`the backup is of a ${names[manifest.database.dialect]} database; this install uses ${names[dialect]}`);
    }
    if (schema !== manifest.database.schema)
      throw new BackupError(
        `the backup holds schema ${manifest.database.schema}; DATABASE_URL works in ${schema}: restore into a schema of that name`,
      );

    const dump = path.join(unpacked, ...manifest.database.file.split('/'));
    if (dialect === 'postgres') await restorePostgres(manifest, dump, work, target, { schema: schema!, serverMajor }, !!options.force);
    else restoreSqlite(dump, target.database.sqliteFile);
    restoreFiles(path.join(unpacked, 'files'), target.filesDir, !!options.force, 0o755);
    restoreFiles(path.join(unpacked, 'private'), target.privateFilesDir, !!options.force, 0o700);

    const restored = await createDatabase(target.database);
    try {
      const migrated = await migrateToLatest(restored.db, restored.dialect);
      const files = manifest.files.filter((f) => !f.path.startsWith('database/')).length;
      return { manifest, migrated, files };
    } finally {
      await restored.destroy();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
