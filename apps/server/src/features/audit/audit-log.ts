import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Actions the audit log records (the console's 操作日志 shows their Chinese names). */
export const AuditAction = {
  Login: 'login',
  LoginFailed: 'login-failed',
  Logout: 'logout',
  Register: 'register',
  PasswordChange: 'password-change',
} as const;
export type AuditActionCode = (typeof AuditAction)[keyof typeof AuditAction] | (string & {});

export interface AuditEntry {
  accountId: number | null;
  username: string;
  enterpriseId: number | null;
  action: AuditActionCode;
  target?: string;
  ip: string;
  outcome: 'success' | 'failure';
  detail?: string;
}

/** Records who did what, when, from where and how it ended. A failure to record is logged, never thrown. */
export async function recordAudit(db: Kysely<Database>, log: FastifyBaseLogger, entry: AuditEntry): Promise<void> {
  try {
    await db
      .insertInto('audit_log')
      .values({
        account_id: entry.accountId,
        username: entry.username.slice(0, 64),
        enterprise_id: entry.enterpriseId,
        action: entry.action,
        target: (entry.target ?? '').slice(0, 200),
        ip: entry.ip.slice(0, 64),
        outcome: entry.outcome,
        detail: (entry.detail ?? '').slice(0, 500),
        created_at: new Date().toISOString(),
      })
      .execute();
  } catch (err) {
    log.error({ err, action: entry.action }, 'audit log write failed');
  }
}

/** Records an action of the logged-in user who made `request` (console writes). */
export function auditRequest(
  db: Kysely<Database>,
  request: FastifyRequest,
  action: AuditActionCode,
  target: string,
  outcome: AuditEntry['outcome'] = 'success',
  detail?: string,
): Promise<void> {
  const p = request.principal;
  return recordAudit(db, request.log, {
    accountId: p?.accountId ?? null,
    username: p?.profile.username ?? '',
    enterpriseId: p?.profile.enterpriseId ?? null,
    action,
    target,
    ip: request.ip,
    outcome,
    ...(detail === undefined ? {} : { detail }),
  });
}
