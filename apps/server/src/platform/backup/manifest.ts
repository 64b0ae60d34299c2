import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

/** A backup or restore that cannot go on: its message is for the operator, and nothing was changed. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export const MANIFEST = 'manifest.json';
export const FORMAT = 'engineering-e-plus-backup';
/** The archive's layout version: a restore refuses one it does not know. */
export const FORMAT_VERSION = 1;
/** The folders of an archive: the database copy, FILES_DIR and PRIVATE_FILES_DIR. */
export const ROOTS = ['database', 'files', 'private'] as const;

const FileEntry = Type.Object({
  path: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

export const Manifest = Type.Object({
  format: Type.Literal(FORMAT),
  version: Type.Integer(),
  createdAt: Type.String(),
  database: Type.Object({
    dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    /** The database copy inside the archive: `database/portal.sqlite` or `database/portal.pgdump`. */
    file: Type.String(),
    /** The migrations applied to the copy: a restore migrates what is missing and refuses names it does not know. */
    migrations: Type.Array(Type.String()),
    /** PostgreSQL: the schema dumped, the extensions dumped with it, and the versions of the server and of pg_dump. */
    schema: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Array(Type.String())),
    serverVersion: Type.Optional(Type.String()),
    pgDumpVersion: Type.Optional(Type.String()),
  }),
  /** Every file of the archive but the manifest, with its size and SHA-256. */
  files: Type.Array(FileEntry),
});
export type Manifest = Static<typeof Manifest>;
export type FileEntry = Static<typeof FileEntry>;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every regular file under `dir` (none when it is missing), as paths relative to it with `/`. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The size and SHA-256 of `relative` under `root`. */
export async function describeFile(root: string, relative: string): Promise<FileEntry> {
  const file = path.join(root, ...relative.split('/'));
  return { path: relative, bytes: fs.statSync(file).size, sha256: await sha256File(file) };
}

/**
 * The manifest of an unpacked archive, once every file it lists is there with its size and SHA-256
 * and nothing else is: a damaged, cut-off or altered archive is refused before anything is restored.
 */
export async function verifiedManifest(dir: string): Promise<Manifest> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    throw new BackupError(`not a portal backup: ${MANIFEST} is missing or unreadable`);
  }
  if (!Value.Check(Manifest, parsed)) throw new BackupError(`not a portal backup: ${MANIFEST} is not one this version reads`);
  const manifest = parsed;
  if (manifest.version !== FORMAT_VERSION)
    throw new BackupError(`backup format ${manifest.version} is not one this version reads (${FORMAT_VERSION})`);
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const present = filesUnder(dir).filter((f) => f !== MANIFEST);
  const onDisk = new Set(present);
  const extra = present.filter((f) => !listed.has(f));
  if (extra.length) throw new BackupError(`archive holds files its manifest does not list: ${extra.slice(0, 5).join(', ')}`);
  for (const entry of manifest.files) {
    if (!onDisk.has(entry.path)) throw new BackupError(`archive is incomplete: ${entry.path} is missing`);
    const actual = await describeFile(dir, entry.path);
    if (actual.bytes !== entry.bytes || actual.sha256 !== entry.sha256)
      throw new BackupError(`archive is damaged: ${entry.path} does not match its checksum`);
  }
  if (!listed.has(manifest.database.file) || !manifest.database.file.startsWith('database/'))
    throw new BackupError('archive holds no database copy');
  return manifest;
}
