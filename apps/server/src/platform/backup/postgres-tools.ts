import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BackupError } from './manifest.js';

const run = promisify(execFile);

/** pg_dump, pg_restore and psql of PostgreSQL's client package, and their major version. */
export interface PostgresTool {
  command: string;
  major: number;
  version: string;
}

/**
 * The client program `name`: in `binDir` when given (PG_BIN_DIR), else Debian's
 * `/usr/lib/postgresql/<major>/bin` for the server's major version when that is installed (pg_dump
 * refuses a server newer than itself, and Debian's `/usr/bin/pg_dump` wrapper picks the newest client
 * installed, not the server's), else the one on PATH.
 */
export async function postgresTool(name: 'pg_dump' | 'pg_restore' | 'psql', serverMajor: number, binDir?: string): Promise<PostgresTool> {
  const versioned = path.join('/usr/lib/postgresql', String(serverMajor), 'bin', name);
  const command = binDir ? path.join(binDir, name) : fs.existsSync(versioned) ? versioned : name;
  let stdout: string;
  try {
    ({ stdout } = await run(command, ['--version']));
  } catch {
    throw new BackupError(`${name} not found: install PostgreSQL's client programs (Debian: postgresql-client-${serverMajor})`);
  }
  const match = /\(PostgreSQL\)\s+((\d+)[.\d]*)/.exec(stdout);
  if (!match) throw new BackupError(`${command} --version answered "${stdout.trim()}", not a PostgreSQL version`);
  return { command, version: match[1]!, major: Number(match[2]) };
}

/** The connection for libpq programs: the URL without its password, which goes by the environment (other users can read command lines). */
export function libpqConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const address = new URL(databaseUrl);
  const password = decodeURIComponent(address.password);
  address.password = '';
  return { url: address.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client program; a failure carries its own message (stderr), never the connection's password. */
export async function runTool(tool: PostgresTool, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(tool.command, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
    throw new BackupError(`${path.basename(tool.command)} failed: ${stderr || (err as Error).message}`);
  }
}
