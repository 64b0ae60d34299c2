import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { storable } from './audit-chain.js';
import { appendAuditLog } from './audit-chain-repository.js';
import type { AuditEntry } from './audit-log.js';

const auditRow = (entry: AuditEntry) => ({
  account_id: entry.accountId,
  username: storable(entry.username, 64),
  enterprise_id: entry.enterpriseId,
  action: entry.action,
  target: storable(entry.target ?? '', 200),
  ip: storable(entry.ip, 64),
  outcome: entry.outcome,
  detail: storable(entry.detail ?? '', 500),
  request_id: storable(entry.requestId ?? '', 64),
  created_at: new Date().toISOString(),
});

/**
 * The one insert every audit row goes through, into its enterprise's hash chain; `db` may be the
 * transaction of the write it records (the chain's head then stays locked until that commits).
 */
export async function insertAuditEntry(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await inTransaction(db, (trx) => appendAuditLog(trx, [auditRow(entry)]));
}
