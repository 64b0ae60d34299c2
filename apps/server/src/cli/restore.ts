import { parseArgs } from 'node:util';
import { BackupError } from '../platform/backup/manifest.js';
import { restoreBackup } from '../platform/backup/restore.js';
import { loadConfig } from '../platform/config.js';
import { redactUrl } from '../platform/db/database.js';

// `npm run restore -- FILE [--force]`: brings this install (DATABASE_URL or SQLITE_FILE, FILES_DIR,
// PRIVATE_FILES_DIR) to the state of a backup; refuses one that is not empty unless --force. Stop the
// portal first (README, "Backup and restore").
const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
const archive = positionals[0];
const config = loadConfig();
try {
  if (!archive || positionals.length > 1) throw new BackupError('usage: npm run restore -- FILE [--force]');
  const { manifest, migrated, files } = await restoreBackup(
    archive,
    {
      database: { databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile },
      filesDir: config.filesDir,
      privateFilesDir: config.privateFilesDir,
      pgBinDir: config.pgBinDir,
    },
    { force: values.force },
  );
  const into = config.databaseUrl ? redactUrl(config.databaseUrl) : config.sqliteFile;
  console.log(
    `restored ${archive} (taken ${manifest.createdAt}) into ${into} with ${files} files` +
      (migrated.length ? `; migrated: ${migrated.join(', ')}` : '; no migrations needed'),
  );
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(`restore failed: ${err.message}`);
  process.exitCode = 1;
}
