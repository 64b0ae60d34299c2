import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * What the retention job prunes: a table and the indexed column whose value below a cutoff makes a
 * row go (migration 0028 and earlier ones index each). 登录日志 and 操作日志 are archived first, by each
 * enterprise's retention (platform/audit/audit-archive.ts).
 */
const TARGETS = {
  /** Expired SSO sessions (在线会话); their service tickets go with them (on delete cascade). */
  ssoSessions: { table: 'cas_tgt', column: 'expires_at' },
  /** Expired portal sessions. */
  portalSessions: { table: 'portal_session', column: 'expires_at' },
  /** The OpenID provider's expired codes, sessions, grants, tokens and interactions (null: kept until destroyed). */
  oidcModels: { table: 'oidc_model', column: 'expires_at' },
  /** SMS codes, long spent or expired (they count sends for a day). */
  smsCodes: { table: 'sms_code', column: 'created_at' },
  /** Wrong-password counts with no failure for long; a running lock stays (see `prune`). */
  loginFailures: { table: 'login_failure', column: 'last_failed_at' },
  /** 标识统计's per-handle counts of old days (`yyyy-MM-dd`); the daily rollups stay. */
  lookupHandles: { table: 'idf_lookup_handle', column: 'day' },
  /** Ended windows of the rate limits (epoch ms). */
  rateLimits: { table: 'rate_limit_hit', column: 'expires_at' },
  /** A SAML source's request and assertion IDs past their lifetime (a replay then fails on time anyway). */
  samlSourceMessages: { table: 'saml_source_message', column: 'expires_at' },
  /** Federated sign-ins' NameIDs past their SSO session's longest life. */
  samlSourceSessions: { table: 'saml_source_session', column: 'expires_at' },
} as const;

export type RetentionTarget = keyof typeof TARGETS;
export const RETENTION_TARGETS = Object.keys(TARGETS) as RetentionTarget[];

/** The retention job's SQL: its lease, and deletes in bounded batches. */
export class RetentionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Deletes at most `limit` rows of `target` whose column is below `cutoff`, in one short statement
   * that finds them by the column's index and deletes them by their physical row id (SQLite's rowid,
   * PostgreSQL's ctid: no second index lookup, and a row changed meanwhile is left for the next run);
   * answers how many went.
   */
  async prune(target: RetentionTarget, cutoff: string | number, limit: number, now: Date): Promise<number> {
    const result = await this.pruneStatement(target, cutoff, limit, now).execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** The statement `prune` sends (plan tests read its plan). */
  pruneStatement(target: RetentionTarget, cutoff: string | number, limit: number, now: Date) {
    const { table, column } = TARGETS[target];
    // A lock still running at `now` is kept, however old its last failure.
    const lockEnded = target === 'loginFailures' ? sql`and (locked_until is null or locked_until < ${now.toISOString()})` : sql``;
    // Oldest first, in the index's order: the index scan stops after `limit` rows however long the backlog.
    const rows = sql`from ${sql.table(table)} where ${sql.ref(column)} < ${cutoff} ${lockEnded} order by ${sql.ref(column)} limit ${limit}`;
    return this.dialect === 'postgres'
      ? sql`delete from ${sql.table(table)} where ctid = any(array(select ctid ${rows}))`
      : sql`delete from ${sql.table(table)} where rowid in (select rowid ${rows})`;
  }

  /**
   * Claims the task's run due at `now` (its start has come, no live lease) in one conditional UPDATE
   * that takes the lease and moves its next start on: of several instances, exactly one wins.
   */
  async claim(name: string, holder: string, now: Date, leaseMs: number, nextRunAt: Date): Promise<boolean> {
    const iso = now.toISOString();
    const result = await this.db
      .updateTable('scheduled_task')
      .set({
        lease_holder: holder,
        lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        next_run_at: nextRunAt.toISOString(),
      })
      .where('name', '=', name)
      .where('next_run_at', '<=', iso)
      .where((eb) => eb.or([eb('lease_holder', 'is', null), eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', iso)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db
      .updateTable('scheduled_task')
      .set({ lease_holder: null, lease_expires_at: null })
      .where('name', '=', name)
      .where('lease_holder', '=', holder)
      .execute();
  }
}
