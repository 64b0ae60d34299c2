import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../platform/db/schema.js';

/**
 * The test clock of 密码已过期 for a running server's SQLite file: an account's password is dated
 * `days` days back, as if it had been chosen then (nothing in the product can age a password).
 */
export async function agePassword(sqliteFile: string, username: string, days: number): Promise<void> {
  const sqlite = new SQLite(sqliteFile);
  // The server writes the same file; a write of its own waits instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const at = new Date(Date.now() - days * 86_400_000).toISOString();
    const moved = await db.updateTable('account').set({ password_changed_at: at }).where('username', '=', username).executeTakeFirst();
    if (moved.numUpdatedRows !== 1n) throw new Error(`no account ${username}`);
  } finally {
    await db.destroy();
  }
}
