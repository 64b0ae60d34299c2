import { appendLoginLog } from '../platform/audit/audit-chain-repository.js';
import { createDatabase } from '../platform/db/database.js';
import { inTransaction } from '../platform/db/transaction.js';

// Another process appending to an enterprise's 登录日志 chain on the same SQLite file (a second
// instance of the portal: `tsx chain-writer.ts FILE ENTERPRISE COUNT PREFIX`), each row in its own
// transaction as a sign-in writes it.
const [file, enterprise, count, prefix] = process.argv.slice(2);
const database = await createDatabase({ sqliteFile: file ?? '' });
try {
  for (let i = 0; i < Number(count); i++) {
    const row = {
      enterprise_id: Number(enterprise),
      username: `${prefix}-${i}`,
      result: 'success' as const,
      created_at: new Date().toISOString(),
    };
    await inTransaction(database.db, (trx) => appendLoginLog(trx, [row]));
  }
} finally {
  await database.destroy();
}
