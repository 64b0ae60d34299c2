import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { create, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { certificationClient, pdf, png } from '../../../organisation/certification/__tests__/certification-test-client.js';
import { adminQuery, dropSchema } from '../../../testing/pg-admin.js';
import { callerFor, createTestApp, createTestDatabase, type TestApp, testDialects } from '../../../testing/test-app.js';
import { loadConfig, REPO_ROOT } from '../../config.js';
import { createDatabase, type DatabaseOptions, type DialectName } from '../../db/database.js';
import { MIGRATION_NAMES, PortalMigrationProvider } from '../../db/migrate.js';
import { type BackupSource, createBackup } from '../backup.js';
import { restoreBackup } from '../restore.js';

const CLI_DIR = path.join(REPO_ROOT, 'apps/server/src/cli');

/** `npm run backup` / `npm run restore` as an operator runs them: another process, configured by the environment. */
function cli(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', path.join(CLI_DIR, `${name}.ts`), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** An install's configuration in `dir` (and, on PostgreSQL, in `schema`), as the CLI's environment and as options. */
function install(dialect: DialectName, dir: string, schema: string | undefined) {
  const url = process.env.TEST_DATABASE_URL;
  // A search_path in the URL is how an operator puts the portal in a schema other than public.
  const databaseUrl =
    dialect === 'postgres' && url && schema
      ? `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
      : '';
  const env = {
    DATABASE_URL: databaseUrl,
    SQLITE_FILE: path.join(dir, 'portal.sqlite'),
    FILES_DIR: path.join(dir, 'files'),
    PRIVATE_FILES_DIR: path.join(dir, 'private'),
  };
  const database: DatabaseOptions = {
    databaseUrl: databaseUrl || undefined,
    sqliteFile: env.SQLITE_FILE,
    ...(schema ? { pgSchema: schema } : {}),
  };
  const target: BackupSource = { database, filesDir: env.FILES_DIR, privateFilesDir: env.PRIVATE_FILES_DIR };
  return { env, target };
}

const currentSchema = async (t: { database: { dialect: DialectName; db: TestApp['database']['db'] } }) =>
  t.database.dialect === 'postgres'
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db)).rows[0]!.schema
    : undefined;

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `portal-${name}-`));

interface Written {
  upload: { path: string; bytes: Buffer };
  material: { id: number; bytes: Buffer };
}

describe.each(testDialects())('backup and restore on %s', (dialect) => {
  const dirs: string[] = [];
  const schemas: string[] = [];
  const dir = (name: string) => {
    const made = tempDir(name);
    dirs.push(made);
    return made;
  };
  afterAll(async () => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    const url = process.env.TEST_DATABASE_URL;
    if (url) for (const schema of schemas) await dropSchema(url, schema);
  });

  let archive: string;
  let restored: ReturnType<typeof install>;
  let before: Written[];
  let all: Written[];
  let during: number;

  beforeAll(async () => {
    const t: TestApp = await createTestApp(dialect);
    let closed = false;
    try {
      const schema = await currentSchema(t);
      const source = install(dialect, path.dirname(t.config.sqliteFile), schema);
      // Uploads (FILES_DIR, uploaded_file) by an operator and certification materials (PRIVATE_FILES_DIR,
      // private_file) of an enterprise that may apply, each through its service, one after the other until stopped.
      const operator = await callerFor(t, 'admin');
      const applicant = await certificationClient(t).registerEnterprise('苏州备份测试', 'beifen', '13912345601');
      const enterpriseAdmin = await callerFor(t, 'beifen');
      const acknowledged: Written[] = [];
      let stop = false;
      let started!: () => void;
      const fiveWritten = new Promise<void>((resolve) => (started = resolve));
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          const image = Buffer.concat([png(), randomBytes(32)]);
          const material = pdf(700 + i);
          const uploaded = await t.app.uploadService.storeImage(operator, image);
          const stored = await t.app.certificationService.storeMaterial(enterpriseAdmin, applicant.enterpriseId, () =>
            Promise.resolve({ purpose: 'licence', file: { bytes: material, filename: `营业执照${i}.pdf` } }),
          );
          acknowledged.push({ upload: { path: uploaded, bytes: image }, material: { id: stored.id, bytes: material } });
          if (acknowledged.length === 5) started();
        }
      })();
      // A writer that fails ends the wait with its error.
      await Promise.race([fiveWritten, writer]);
      before = [...acknowledged];
      const outDir = dir('backups');
      const backup = await cli('backup', [outDir], source.env).finally(() => (stop = true));
      during = acknowledged.length - before.length;
      await writer;
      all = [...acknowledged];
      expect(backup.out).toMatch(/^backup written: /);
      expect(backup.code).toBe(0);
      const archives = fs.readdirSync(outDir);
      expect(archives).toEqual([expect.stringMatching(/^portal-backup-\d{8}T\d{6}Z\.tar\.gz$/)]);
      archive = path.join(outDir, archives[0]!);

      // The old machine is gone: its database, schema and folders.
      await t.close();
      closed = true;
      if (schema) {
        await adminQuery(process.env.TEST_DATABASE_URL!, `CREATE SCHEMA "${schema}"`);
        schemas.push(schema);
      }
      restored = install(dialect, dir('restored'), schema);
    } finally {
      if (!closed) await t.close();
    }
  }, 120_000);

  /** The restored install, served: its files under /files and its database. */
  async function served<T>(use: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
    const config = loadConfig({
      PORT: '80',
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(restored.env.FILES_DIR, '..', 'no-web'),
      SYNC_SCHEDULER: '0',
      ...restored.env,
    });
    const database = await createDatabase(restored.target.database);
    const app = await buildApp({ config, database, logger: false });
    try {
      return await use(app);
    } finally {
      await app.close();
      await database.destroy();
    }
  }

  it('restores into an empty install every row and file acknowledged before the backup began, while writes went on', async () => {
    expect(during).toBeGreaterThan(0);
    const restore = await cli('restore', [archive], restored.env);
    expect(restore.out).toMatch(/^restored .* no migrations needed/);
    expect(restore.code).toBe(0);

    await served(async (app) => {
      const db = app.database.db;
      const uploads = new Map((await db.selectFrom('uploaded_file').select(['path', 'bytes']).execute()).map((r) => [r.path, r.bytes]));
      const materials = new Map(
        (await db.selectFrom('private_file').select(['id', 'storage_key', 'bytes']).execute()).map((r) => [r.id, r]),
      );
      const audited = new Set(
        (await db.selectFrom('audit_log').select('target').where('action', '=', 'file.upload').execute()).map((r) => r.target),
      );
      for (const { upload, material } of before) {
        expect(Number(uploads.get(upload.path)), upload.path).toBe(upload.bytes.length);
        expect(audited.has(upload.path), upload.path).toBe(true);
        const served = await app.inject({ url: `/files${upload.path}` });
        expect(served.statusCode, upload.path).toBe(200);
        expect(served.rawPayload.equals(upload.bytes), upload.path).toBe(true);
        const row = materials.get(material.id);
        expect(Number(row?.bytes), `material ${material.id}`).toBe(material.bytes.length);
        expect(fs.readFileSync(path.join(restored.env.PRIVATE_FILES_DIR, row!.storage_key)).equals(material.bytes)).toBe(true);
      }
      // Writes during the backup may be in it or not, but a row in it always has its file.
      for (const { upload, material } of all) {
        if (uploads.has(upload.path))
          expect(fs.readFileSync(path.join(restored.env.FILES_DIR, upload.path)).equals(upload.bytes)).toBe(true);
        const row = materials.get(material.id);
        if (row) expect(fs.readFileSync(path.join(restored.env.PRIVATE_FILES_DIR, row.storage_key)).equals(material.bytes)).toBe(true);
      }
      // The seeded accounts came along: a demo administrator is still who the upload rows name.
      const admin = await db.selectFrom('account').select('id').where('username', '=', 'admin').executeTakeFirst();
      expect(admin).toBeDefined();
    });
  }, 60_000);

  it('refuses a target that is not empty, replaces it with --force, and refuses a damaged archive, changing nothing', async () => {
    const uploads = async () => {
      const database = await createDatabase(restored.target.database);
      try {
        return await database.db.selectFrom('uploaded_file').select('path').execute();
      } finally {
        await database.destroy();
      }
    };
    const held = (await uploads()).length;
    // Something the restored install wrote since: kept by every refusal, gone after --force.
    const extra = path.join(restored.env.FILES_DIR, 'uploads', 'not-in-the-backup.png');
    fs.writeFileSync(extra, png());

    await expect(restoreBackup(archive, restored.target)).rejects.toThrow(/^the target is not empty: the database \(\d+ tables/);

    // A damaged archive: one uploaded file altered after the manifest was written.
    const unpacked = dir('damaged');
    await extract({ file: archive, cwd: unpacked });
    const altered = path.join(unpacked, 'files', before[0]!.upload.path);
    fs.writeFileSync(altered, Buffer.concat([fs.readFileSync(altered), Buffer.from('x')]));
    const damaged = path.join(unpacked, 'damaged.tar.gz');
    await create({ gzip: true, file: damaged, cwd: unpacked }, fs.readdirSync(unpacked));
    await expect(restoreBackup(damaged, restored.target, { force: true })).rejects.toThrow(
      `archive is damaged: files${before[0]!.upload.path} does not match its checksum`,
    );
    expect(fs.existsSync(extra)).toBe(true);

    await restoreBackup(archive, restored.target, { force: true });
    expect(fs.existsSync(extra)).toBe(false);
    expect((await uploads()).length).toBe(held);
  }, 60_000);

  it('migrates a backup of an older version after restoring it, and refuses one of a newer version', async () => {
    const older = await createTestDatabase(dialect, {}, { seed: false });
    const schema = await currentSchema(older);
    const source = install(dialect, path.dirname(older.config.sqliteFile), schema);
    const newest = MIGRATION_NAMES.at(-1)!;
    let dropped = false;
    try {
      // The database as the version before the newest migration left it.
      const migrator = new Migrator({
        db: older.database.db,
        provider: new PortalMigrationProvider(dialect),
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
      // A files folder de-duplicated with hard links: both names come back.
      const shared = Buffer.from('one file, two names');
      fs.mkdirSync(path.join(source.target.filesDir, 'dedup'), { recursive: true });
      fs.writeFileSync(path.join(source.target.filesDir, 'dedup', 'a.txt'), shared);
      fs.linkSync(path.join(source.target.filesDir, 'dedup', 'a.txt'), path.join(source.target.filesDir, 'dedup', 'b.txt'));
      const { file } = await createBackup(source.target, dir('older'));
      // Never where the portal serves files from.
      const served = path.join(source.target.filesDir, 'backups');
      await expect(createBackup(source.target, served)).rejects.toThrow(`${served} is inside ${source.target.filesDir}`);
      expect(fs.existsSync(served)).toBe(false);

      await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(
        older.database.db,
      );
      const { file: newer } = await createBackup(source.target, dir('newer'));
      await older.drop();
      dropped = true;
      // Restored into a schema of the same name, which the restore's connection creates empty.
      if (schema) schemas.push(schema);

      const target = install(dialect, dir('upgraded'), schema).target;
      await expect(restoreBackup(newer, target)).rejects.toThrow(
        'the backup comes from a newer version of the portal (migrations 9999-from-a-newer-version)',
      );
      const result = await restoreBackup(file, target);
      expect(result.migrated).toEqual([newest]);
      for (const name of ['a.txt', 'b.txt']) expect(fs.readFileSync(path.join(target.filesDir, 'dedup', name))).toEqual(shared);
      const upgraded = await createDatabase(target.database);
      try {
        const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(upgraded.db);
        expect(rows.map((r) => r.name)).toEqual(MIGRATION_NAMES);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (!dropped) await older.drop();
    }
  }, 60_000);
});

describe.each(testDialects().filter((d) => d === 'postgres'))('a backup on %s with a pg_dump older than the server', (dialect) => {
  it('is refused, naming the client version to install, and writes no archive', async () => {
    const db = await createTestDatabase(dialect, {}, { seed: false });
    const bin = tempDir('pg-bin');
    const out = tempDir('backups');
    try {
      // What an old client package answers (PG_BIN_DIR points at it).
      fs.writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n', { mode: 0o755 });
      const source = install(dialect, path.dirname(db.config.sqliteFile), await currentSchema(db)).target;
      await expect(createBackup({ ...source, pgBinDir: bin }, out)).rejects.toThrow(
        /pg_dump is version 9\.6\.24; the server is PostgreSQL [\d.]+.*: install the client programs of version \d+ or later \(Debian: postgresql-client-\d+\)$/,
      );
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      await db.drop();
      fs.rmSync(bin, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
