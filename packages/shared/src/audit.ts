import type { Static } from 'typebox';
import type { AuditChainVerificationSchema } from './contracts/audit-chain.js';
import type { AuditActionSchema, AuditLogRowSchema } from './contracts/content.js';
/** The most rows one 操作日志 CSV export writes, newest first (the console warns before a larger export). */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;

export type AuditOutcome = 'success' | 'failure';

/** A row of `GET /web-api/console/v1/audit/page/list`. */
export type AuditLogRow = Static<typeof AuditLogRowSchema>;

/** `GET /web-api/console/v1/audit/actions`: an audited action's code and its Chinese name (the filter's options). */
export type AuditAction = Static<typeof AuditActionSchema>;

/** `GET /web-api/console/v1/audit/verify` and `/login-log/verify`: 校验完整性's result. */
export type AuditChainVerification = Static<typeof AuditChainVerificationSchema>;
