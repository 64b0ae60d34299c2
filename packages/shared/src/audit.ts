/** The most rows one 操作日志 CSV export writes, newest first (the console warns before a larger export). */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

export type AuditOutcome = 'success' | 'failure';

/** A row of `GET /web-api/console/v1/audit/page/list`. */
export interface AuditLogRow {
  id: number;
  username: string;
  /** The account holder's name; empty when the account is gone or was never known. */
  name: string;
  enterpriseId: number | null;
  enterpriseName: string;
  action: string;
  actionName: string;
  target: string;
  ip: string;
  outcome: AuditOutcome;
  detail: string;
  /** China time `yyyy-MM-dd HH:mm:ss`. */
  createdAt: string;
}
