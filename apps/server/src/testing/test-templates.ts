import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createDatabase, type DatabaseHandle, type DialectName } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { seedDemoData } from '../seed/index.js';
import { adminQuery } from './pg-admin.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by testing/global-setup.ts: where this run keeps its templates, and the tag of its PostgreSQL schemas. */
    portalTestTemplates: { dir: string; tag: string };
  }
}

/**
 * Migrating and seeding cost far more than copying the result, so each Vitest worker builds its
 * templates once per run, seeded and only migrated, and every test database starts as a copy of
 * one: on SQLite a file copy (the template is checkpointed and closed, nothing left in a WAL); on
 * PostgreSQL a new schema filled by one script (the template schema's DDL from pg_dump, its rows
 * copied with INSERT … SELECT, its sequences set). A schema rather than CREATE DATABASE … TEMPLATE:
 * creating and dropping a database checkpoints the whole server, a schema is cheap to drop. Files the
 * seed wrote under PRIVATE_FILES_DIR are copied with it.
 */
export interface Template {
  sqliteFile?: string;
  /** Fills a new PostgreSQL schema with the template's tables and rows. */
  pgScript?: (schema: string) => string;
  privateDir: string;
}

export function testRun(): { dir: string; tag: string } {
  const provided = inject('portalTestTemplates');
  if (!provided) throw new Error('test databases need the server project globalSetup (apps/server/src/testing/global-setup.ts)');
  return provided;
}

/** One Vitest worker runs one file at a time: its templates are its own, so building them needs no lock. */
const worker = () => process.env.VITEST_POOL_ID ?? '0';

async function fill(database: DatabaseHandle, seed: boolean, privateDir: string) {
  try {
    await migrateToLatest(database.db, database.dialect);
    if (seed) await seedDemoData(database.db, { privateFilesDir: privateDir });
    if (database.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  } finally {
    await database.destroy();
  }
}

const built = new Map<string, Promise<Template>>();

/** This worker's template for `dialect`, built on first use. */
export function template(dialect: DialectName, seed: boolean): Promise<Template> {
  const key = `${dialect}-${seed ? 'seeded' : 'migrated'}`;
  let pending = built.get(key);
  if (!pending) {
    pending = dialect === 'sqlite' ? sqliteTemplate(seed, `${key}-${worker()}`) : postgresTemplate(seed, `${key}-${worker()}`);
    built.set(key, pending);
    pending.catch(() => built.delete(key));
  }
  return pending;
}

async function sqliteTemplate(seed: boolean, name: string): Promise<Template> {
  const { dir } = testRun();
  const final = path.join(dir, name);
  const template = { sqliteFile: path.join(final, 'portal.sqlite'), privateDir: path.join(final, 'private') };
  // Built by an earlier file of this worker.
  if (fs.existsSync(final)) return template;
  const building = fs.mkdtempSync(path.join(dir, 'building-'));
  await fill(await createDatabase({ sqliteFile: path.join(building, 'portal.sqlite') }), seed, path.join(building, 'private'));
  fs.renameSync(building, final);
  return template;
}

const SCHEMA = '{{schema}}';

interface PostgresClone {
  /** The template schema's DDL before and after its rows, with SCHEMA for its name. */
  pre: string;
  post: string;
  /** Each table with its stored (not generated) columns, quoted. */
  tables: { table: string; columns: string[] }[];
  sequences: { sequence: string; value: string }[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** pg_dump's DDL for `schema`, without psql commands and comments, its name replaced by SCHEMA. */
async function dump(url: string, schema: string, section: 'pre-data' | 'post-data'): Promise<string> {
  // The password goes by the environment, not the command line other processes can read.
  const address = new URL(url);
  const password = decodeURIComponent(address.password);
  address.password = '';
  const { stdout } = await promisify(execFile)(
    'pg_dump',
    ['--schema-only', `--section=${section}`, '--no-owner', '-n', schema, address.toString()],
    { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } },
  );
  return stdout
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
    .join('\n')
    .replace(new RegExp(`\\b${schema}\\b`, 'g'), SCHEMA);
}

async function postgresTemplate(seed: boolean, name: string): Promise<Template> {
  const { dir, tag } = testRun();
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `tpl_${tag}_${name.replace(/\W/g, '_')}`;
  const final = path.join(dir, name);
  const script = path.join(final, 'clone.json');
  if (!fs.existsSync(script)) {
    const building = fs.mkdtempSync(path.join(dir, 'building-'));
    await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await fill(await createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema }), seed, path.join(building, 'private'));
    const columns = await adminQuery(
      url,
      `SELECT c.relname AS table, array_agg(quote_ident(a.attname) ORDER BY a.attnum) AS columns
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        GROUP BY c.relname`,
      [schema],
    );
    const sequences = await adminQuery(
      url,
      'SELECT sequencename AS sequence, last_value::text AS value FROM pg_sequences WHERE schemaname = $1 AND last_value IS NOT NULL',
      [schema],
    );
    const clone: PostgresClone = {
      pre: await dump(url, schema, 'pre-data'),
      post: await dump(url, schema, 'post-data'),
      tables: columns.rows as PostgresClone['tables'],
      sequences: sequences.rows as PostgresClone['sequences'],
    };
    fs.writeFileSync(path.join(building, 'clone.json'), JSON.stringify(clone));
    fs.renameSync(building, final);
  }
  const clone = JSON.parse(fs.readFileSync(script, 'utf8')) as PostgresClone;
  return {
    privateDir: path.join(final, 'private'),
    pgScript: (target) => {
      const into = (sqlText: string) => sqlText.replaceAll(SCHEMA, target);
      const rows = clone.tables.map(({ table, columns }) => {
        const list = columns.join(', ');
        return `INSERT INTO ${target}.${quote(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM ${schema}.${quote(table)};`;
      });
      const sequences = clone.sequences.map(
        ({ sequence, value }) => `SELECT pg_catalog.setval('${target}.${quote(sequence)}', ${value}, true);`,
      );
      return [into(clone.pre), ...rows, ...sequences, into(clone.post)].join('\n');
    },
  };
}
