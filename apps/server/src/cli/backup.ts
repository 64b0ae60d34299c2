import { parseArgs } from 'node:util';
import { createBackup } from '../platform/backup/backup.js';
import { BackupError } from '../platform/backup/manifest.js';
import { loadConfig } from '../platform/config.js';
import { redactUrl } from '../platform/db/database.js';

// `npm run backup [-- DIR]`: one archive of the database, FILES_DIR and PRIVATE_FILES_DIR in DIR
// (BACKUP_DIR by default), taken while the portal serves (README, "Backup and restore").
const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const config = loadConfig();
try {
  const { file, manifest } = await createBackup(
    {
      database: { databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile },
      filesDir: config.filesDir,
      privateFilesDir: config.privateFilesDir,
      pgBinDir: config.pgBinDir,
    },
    positionals[0] ?? config.backupDir,
  );
  const from = config.databaseUrl ? redactUrl(config.databaseUrl) : config.sqliteFile;
  const files = manifest.files.filter((f) => !f.path.startsWith('database/')).length;
  console.log(`backup written: ${file} (${from}, ${manifest.database.migrations.length} migrations, ${files} files)`);
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(`backup failed: ${err.message}`);
  process.exitCode = 1;
}
