import {
  type AuthSourceType,
  Role,
  SYNC_MAPPING_DEFAULTS,
  type SyncAction,
  type SyncChange,
  type SyncCounts,
  type SyncItemStatus,
  type SyncJob,
  type SyncLeaverRule,
  type SyncMapping,
  type SyncObjectKind,
  type SyncRunStatus,
  type SyncTrigger,
} from '@portal/shared';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { RunRow } from '../auth-sources/sync-run-summary.js';
import type { ItemValues, PersonValues, PlanAccount, PlanState, PlannedItem } from './sync-plan.js';

/** Values per `in (…)` list and rows per insert: well under both engines' parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A job as stored (times as ISO instants; the routes show them in China time). */
export interface JobRow extends Omit<SyncJob, 'lastRun'> {
  enterpriseId: number;
  sourceEnabled: boolean;
}

export interface JobValues {
  sourceId: number;
  name: string;
  mapping: SyncMapping;
  cron: string;
  leaverRule: SyncLeaverRule;
  enabled: boolean;
  nextRunAt: string | null;
}

/** A stored item: the planned one with its id and, once executed, its result. */
export interface ItemRow extends PlannedItem {
  id: number;
  status: SyncItemStatus;
}

export interface RunFilters {
  jobId?: number | undefined;
  status?: SyncRunStatus | undefined;
}

export interface ItemFilters {
  action?: SyncAction | undefined;
  status?: SyncItemStatus | undefined;
}

const parseMapping = (json: string): SyncMapping => ({ ...SYNC_MAPPING_DEFAULTS, ...(JSON.parse(json) as Partial<SyncMapping>) });

/**
 * 同步: sync jobs with their schedule and database lease, the runs of the 同步日志 with
 * their items, and the reads and small writes a sync needs beyond what 账号管理 and 账号组 offer.
 */
export class SyncRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ---------------------------------------------------------------------------------------- jobs

  private jobs() {
    return this.db
      .selectFrom('sync_job')
      .innerJoin('auth_source', 'auth_source.id', 'sync_job.source_id')
      .select([
        'sync_job.id',
        'sync_job.enterprise_id',
        'sync_job.source_id',
        'auth_source.name as source_name',
        'auth_source.type as source_type',
        'auth_source.status as source_status',
        'sync_job.name',
        'sync_job.mapping',
        'sync_job.cron',
        'sync_job.leaver_rule',
        'sync_job.status',
        'sync_job.next_run_at',
        'sync_job.updated_at',
      ]);
  }

  private static job(r: {
    id: number;
    enterprise_id: number;
    source_id: number;
    source_name: string;
    source_type: AuthSourceType;
    source_status: string;
    name: string;
    mapping: string;
    cron: string;
    leaver_rule: SyncLeaverRule;
    status: string;
    next_run_at: string | null;
    updated_at: string;
  }): JobRow {
    return {
      id: r.id,
      enterpriseId: r.enterprise_id,
      sourceId: r.source_id,
      sourceName: r.source_name,
      sourceType: r.source_type,
      sourceEnabled: r.source_status === 'enabled',
      name: r.name,
      mapping: parseMapping(r.mapping),
      cron: r.cron,
      leaverRule: r.leaver_rule,
      enabled: r.status === 'enabled',
      nextRunAt: r.next_run_at,
      updatedAt: r.updated_at,
    };
  }

  /** The enterprise's jobs, as created. */
  async listJobs(enterpriseId: number): Promise<JobRow[]> {
    const rows = await this.jobs().where('sync_job.enterprise_id', '=', enterpriseId).orderBy('sync_job.id').execute();
    return rows.map(SyncRepository.job);
  }

  /** A job of the enterprise, or undefined (another enterprise's included). */
  async job(enterpriseId: number, id: number): Promise<JobRow | undefined> {
    const row = await this.jobs().where('sync_job.id', '=', id).where('sync_job.enterprise_id', '=', enterpriseId).executeTakeFirst();
    return row ? SyncRepository.job(row) : undefined;
  }

  async jobAny(id: number): Promise<JobRow | undefined> {
    const row = await this.jobs().where('sync_job.id', '=', id).executeTakeFirst();
    return row ? SyncRepository.job(row) : undefined;
  }

  async jobNameTaken(enterpriseId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('sync_job').select('id').where('enterprise_id', '=', enterpriseId).where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  private static jobColumns(values: JobValues, now: string) {
    return {
      source_id: values.sourceId,
      name: values.name,
      mapping: JSON.stringify(values.mapping),
      cron: values.cron,
      leaver_rule: values.leaverRule,
      status: values.enabled ? ('enabled' as const) : ('disabled' as const),
      next_run_at: values.nextRunAt,
      updated_at: now,
    };
  }

  async createJob(trx: Kysely<Database>, enterpriseId: number, values: JobValues): Promise<number> {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('sync_job')
      .values({ enterprise_id: enterpriseId, ...SyncRepository.jobColumns(values, now), created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** Saving a job also expires its previews: they were computed under the old settings. */
  async updateJob(trx: Kysely<Database>, id: number, values: JobValues): Promise<void> {
    await trx.updateTable('sync_job').set(SyncRepository.jobColumns(values, new Date().toISOString())).where('id', '=', id).execute();
    await this.expirePreviews(trx, id);
  }

  /** A job's previews awaiting 执行 become 预览已过期 (their settings changed, or another run is changing the accounts). */
  async expirePreviews(db: Kysely<Database>, jobId: number): Promise<void> {
    await db
      .updateTable('sync_run')
      .set({ status: 'expired', finished_at: new Date().toISOString() })
      .where('job_id', '=', jobId)
      .where('status', '=', 'preview')
      .execute();
  }

  /** Its runs and their items go with it (foreign keys cascade). */
  async deleteJob(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.deleteFrom('sync_job').where('id', '=', id).execute();
  }

  /** The latest run of each job that is not a pending or expired preview. */
  async lastRuns(jobIds: readonly number[]): Promise<Map<number, RunRow>> {
    const found = new Map<number, RunRow>();
    for (const ids of chunks(jobIds)) {
      const latest = this.db
        .selectFrom('sync_run')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('job_id', 'in', ids)
        .where('status', 'not in', ['preview', 'expired'])
        .groupBy('job_id');
      const rows = await this.runs().where('sync_run.id', 'in', latest).execute();
      for (const r of rows) found.set(r.job_id, SyncRepository.run(r));
    }
    return found;
  }

  // ---------------------------------------------------------------------------------------- lease

  /**
   * Takes a job's lease when nobody holds it or the holder's ran out (a crashed instance): one
   * conditional UPDATE, so of several instances exactly one wins. Answers whether this one did.
   */
  async acquireLease(jobId: number, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const iso = now.toISOString();
    const result = await this.db
      .updateTable('sync_job')
      .set({ lease_holder: holder, lease_expires_at: new Date(now.getTime() + ttlMs).toISOString() })
      .where('id', '=', jobId)
      .where((eb) => eb.or([eb('lease_holder', 'is', null), eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', iso)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Extends a held lease; false when it was lost (it ran out and another instance took it). */
  async renewLease(jobId: number, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sync_job')
      .set({ lease_expires_at: new Date(now.getTime() + ttlMs).toISOString() })
      .where('id', '=', jobId)
      .where('lease_holder', '=', holder)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async releaseLease(jobId: number, holder: string): Promise<void> {
    await this.db
      .updateTable('sync_job')
      .set({ lease_holder: null, lease_expires_at: null })
      .where('id', '=', jobId)
      .where('lease_holder', '=', holder)
      .execute();
  }

  /** Scheduled jobs whose start has come: enabled, on an enabled source, and not held by a live lease. */
  async dueJobs(now: Date): Promise<{ id: number; cron: string; nextRunAt: string }[]> {
    const iso = now.toISOString();
    const rows = await this.db
      .selectFrom('sync_job')
      .innerJoin('auth_source', 'auth_source.id', 'sync_job.source_id')
      .select(['sync_job.id', 'sync_job.cron', 'sync_job.next_run_at'])
      .where('sync_job.status', '=', 'enabled')
      .where('sync_job.cron', '!=', '')
      .where('sync_job.next_run_at', 'is not', null)
      .where('sync_job.next_run_at', '<=', iso)
      .where('auth_source.status', '=', 'enabled')
      .where((eb) =>
        eb.or([
          eb('sync_job.lease_holder', 'is', null),
          eb('sync_job.lease_expires_at', 'is', null),
          eb('sync_job.lease_expires_at', '<', iso),
        ]),
      )
      .orderBy('sync_job.next_run_at')
      .execute();
    return rows.flatMap((r) => (r.next_run_at ? [{ id: r.id, cron: r.cron, nextRunAt: r.next_run_at }] : []));
  }

  /**
   * Claims a due job for this instance: takes the lease and moves next_run_at on in the same
   * conditional UPDATE, which only matches while the start seen is still the job's next one, so
   * two instances ticking together never both run it.
   */
  async claimDue(
    jobId: number,
    seenNextRunAt: string,
    holder: string,
    now: Date,
    ttlMs: number,
    nextRunAt: string | null,
  ): Promise<boolean> {
    const iso = now.toISOString();
    const result = await this.db
      .updateTable('sync_job')
      .set({ lease_holder: holder, lease_expires_at: new Date(now.getTime() + ttlMs).toISOString(), next_run_at: nextRunAt })
      .where('id', '=', jobId)
      .where('next_run_at', '=', seenNextRunAt)
      .where((eb) => eb.or([eb('lease_holder', 'is', null), eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', iso)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // ---------------------------------------------------------------------------------------- runs

  private runs() {
    return this.db
      .selectFrom('sync_run')
      .innerJoin('sync_job', 'sync_job.id', 'sync_run.job_id')
      .leftJoin('account', 'account.id', 'sync_run.operator_id')
      .select([
        'sync_run.id',
        'sync_run.job_id',
        'sync_job.name as job_name',
        'sync_run.enterprise_id',
        'sync_run.status',
        'sync_run.origin',
        'sync_run.fingerprint',
        'sync_run.count_create',
        'sync_run.count_update',
        'sync_run.count_disable',
        'sync_run.count_move',
        'sync_run.count_failed',
        'sync_run.error',
        'account.name as operator',
        'sync_run.created_at',
        'sync_run.finished_at',
      ]);
  }

  private static run(r: {
    id: number;
    job_id: number;
    job_name: string;
    enterprise_id: number;
    status: SyncRunStatus;
    origin: SyncTrigger;
    fingerprint: string;
    count_create: number;
    count_update: number;
    count_disable: number;
    count_move: number;
    count_failed: number;
    error: string;
    operator: string | null;
    created_at: string;
    finished_at: string | null;
  }): RunRow {
    return {
      id: r.id,
      jobId: r.job_id,
      jobName: r.job_name,
      enterpriseId: r.enterprise_id,
      status: r.status,
      origin: r.origin,
      fingerprint: r.fingerprint,
      counts: {
        create: Number(r.count_create),
        update: Number(r.count_update),
        disable: Number(r.count_disable),
        move: Number(r.count_move),
        failed: Number(r.count_failed),
      },
      error: r.error,
      operator: r.operator ?? '',
      createdAt: r.created_at,
      finishedAt: r.finished_at,
    };
  }

  /** A run of the enterprise's jobs, or undefined. */
  async run(enterpriseId: number, id: number): Promise<RunRow | undefined> {
    const row = await this.runs().where('sync_run.id', '=', id).where('sync_run.enterprise_id', '=', enterpriseId).executeTakeFirst();
    return row ? SyncRepository.run(row) : undefined;
  }

  /** Runs by id, whatever their enterprise (认证源's 最近同步 names runs of the caller's own sources). */
  async runsByIds(ids: readonly number[]): Promise<RunRow[]> {
    if (ids.length === 0) return [];
    return (await this.runs().where('sync_run.id', 'in', ids).execute()).map(SyncRepository.run);
  }

  /** The 同步日志: newest first. */
  async runPage(enterpriseId: number, filters: RunFilters, offset: number, limit: number): Promise<{ total: number; rows: RunRow[] }> {
    let query = this.runs().where('sync_run.enterprise_id', '=', enterpriseId);
    if (filters.jobId !== undefined) query = query.where('sync_run.job_id', '=', filters.jobId);
    if (filters.status !== undefined) query = query.where('sync_run.status', '=', filters.status);
    const [count, rows] = await Promise.all([
      query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('sync_run.id', 'desc').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: rows.map(SyncRepository.run) };
  }

  /** A new run with its planned items; `failed` items carry the reason they cannot succeed. */
  async createRun(
    trx: Kysely<Database>,
    run: {
      jobId: number;
      enterpriseId: number;
      status: SyncRunStatus;
      origin: SyncTrigger;
      fingerprint: string;
      counts: SyncCounts;
      error?: string;
      operatorId: number | null;
      finished?: boolean;
    },
    items: readonly PlannedItem[],
  ): Promise<number> {
    const now = new Date().toISOString();
    const { id } = await trx
      .insertInto('sync_run')
      .values({
        job_id: run.jobId,
        enterprise_id: run.enterpriseId,
        status: run.status,
        origin: run.origin,
        fingerprint: run.fingerprint,
        count_create: run.counts.create,
        count_update: run.counts.update,
        count_disable: run.counts.disable,
        count_move: run.counts.move,
        count_failed: run.counts.failed,
        error: (run.error ?? '').slice(0, 1000),
        operator_id: run.operatorId,
        created_at: now,
        finished_at: run.finished ? now : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const batch of chunks(items, 100)) {
      await trx
        .insertInto('sync_run_item')
        .values(
          batch.map((item) => ({
            run_id: id,
            kind: item.kind,
            action: item.action,
            external_id: item.externalId.slice(0, 200),
            name: item.name.slice(0, 100),
            username: item.username.slice(0, 64),
            target_id: item.targetId,
            detail: JSON.stringify({ changes: item.changes, values: item.values }),
            status: 'planned' as const,
            error: item.error.slice(0, 500),
          })),
        )
        .execute();
    }
    return id;
  }

  /** Moves a run from one status to another only if it still has the first; answers whether it did. */
  async moveRun(runId: number, from: SyncRunStatus, to: SyncRunStatus, finished = false): Promise<boolean> {
    const result = await this.db
      .updateTable('sync_run')
      .set({ status: to, ...(finished ? { finished_at: new Date().toISOString() } : {}) })
      .where('id', '=', runId)
      .where('status', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends a run: its status, counts and error; in the final transaction with its audit row. */
  async finishRun(trx: Kysely<Database>, runId: number, status: SyncRunStatus, counts: SyncCounts, error = ''): Promise<void> {
    await trx
      .updateTable('sync_run')
      .set({
        status,
        count_create: counts.create,
        count_update: counts.update,
        count_disable: counts.disable,
        count_move: counts.move,
        count_failed: counts.failed,
        error: error.slice(0, 1000),
        finished_at: new Date().toISOString(),
      })
      .where('id', '=', runId)
      .execute();
  }

  /** Records the counts so far (each batch's transaction: the log never shows more than was committed). */
  async setCounts(trx: Kysely<Database>, runId: number, counts: SyncCounts): Promise<void> {
    await trx
      .updateTable('sync_run')
      .set({
        count_create: counts.create,
        count_update: counts.update,
        count_disable: counts.disable,
        count_move: counts.move,
        count_failed: counts.failed,
      })
      .where('id', '=', runId)
      .execute();
  }

  /**
   * Runs of a job still marked 执行中 once its lease is ours: their instance stopped mid-way (what it
   * committed stays, item by item); they are closed as failed rather than left running forever.
   */
  async failAbandonedRuns(jobId: number, error: string): Promise<void> {
    await this.db
      .updateTable('sync_run')
      .set({ status: 'failed', error, finished_at: new Date().toISOString() })
      .where('job_id', '=', jobId)
      .where('status', '=', 'running')
      .execute();
  }

  private static item(r: {
    id: number;
    kind: SyncObjectKind;
    action: SyncAction;
    external_id: string;
    name: string;
    username: string;
    target_id: number | null;
    detail: string;
    status: SyncItemStatus;
    error: string;
  }): ItemRow {
    const detail = JSON.parse(r.detail) as { changes: SyncChange[]; values: ItemValues };
    return {
      id: r.id,
      kind: r.kind,
      action: r.action,
      externalId: r.external_id,
      name: r.name,
      username: r.username,
      targetId: r.target_id,
      changes: detail.changes,
      values: detail.values,
      status: r.status,
      error: r.error,
    };
  }

  private items(runId: number) {
    return this.db
      .selectFrom('sync_run_item')
      .select(['id', 'kind', 'action', 'external_id', 'name', 'username', 'target_id', 'detail', 'status', 'error'])
      .where('run_id', '=', runId);
  }

  /** One page of a run's items in plan order. */
  async itemPage(runId: number, filters: ItemFilters, offset: number, limit: number): Promise<{ total: number; rows: ItemRow[] }> {
    let query = this.items(runId);
    if (filters.action !== undefined) query = query.where('action', '=', filters.action);
    if (filters.status !== undefined) query = query.where('status', '=', filters.status);
    const [count, rows] = await Promise.all([
      query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      query.orderBy('id').offset(offset).limit(limit).execute(),
    ]);
    return { total: Number(count.n), rows: rows.map(SyncRepository.item) };
  }

  /** Every item of a run still to apply, in plan order. */
  async plannedItems(runId: number): Promise<ItemRow[]> {
    const rows = await this.items(runId).where('status', '=', 'planned').orderBy('id').execute();
    return rows.map(SyncRepository.item);
  }

  async markItem(trx: Kysely<Database>, itemId: number, status: SyncItemStatus, error: string, targetId: number | null): Promise<void> {
    await trx
      .updateTable('sync_run_item')
      .set({ status, error: error.slice(0, 500), target_id: targetId })
      .where('id', '=', itemId)
      .execute();
  }

  // ---------------------------------------------------------------------------------------- plan state

  /**
   * What a directory may not take over by phone or name (sync-plan.ts, PlanAccount.adoptable): accounts
   * linked to another source or holding a role beyond 普通员工 (their own or a group's), and groups that
   * grant roles.
   */
  private async notAdoptable(enterpriseId: number, sourceId: number): Promise<{ accounts: Set<number>; groups: Set<number> }> {
    const [linkedElsewhere, roleHolders, roleGroups] = await Promise.all([
      this.db
        .selectFrom('account_identity')
        .innerJoin('account', 'account.id', 'account_identity.account_id')
        .select('account_identity.account_id as id')
        .where('account.enterprise_id', '=', enterpriseId)
        .where('account_identity.source_id', '!=', sourceId)
        .execute(),
      this.db
        .selectFrom('account_role')
        .innerJoin('account', 'account.id', 'account_role.account_id')
        .innerJoin('role', 'role.id', 'account_role.role_id')
        .select('account_role.account_id as id')
        .where('account.enterprise_id', '=', enterpriseId)
        .where('role.code', '!=', Role.EnterpriseStaff)
        .execute(),
      this.db
        .selectFrom('account_group_role')
        .innerJoin('account_group', 'account_group.id', 'account_group_role.group_id')
        .select('account_group_role.group_id as id')
        .where('account_group.enterprise_id', '=', enterpriseId)
        .execute(),
    ]);
    const groups = new Set(roleGroups.map((r) => r.id));
    const accounts = new Set([...linkedElsewhere, ...roleHolders].map((r) => r.id));
    for (const ids of chunks([...groups])) {
      const members = await this.db.selectFrom('account_group_member').select('account_id').where('group_id', 'in', ids).execute();
      for (const m of members) accounts.add(m.account_id);
    }
    return { accounts, groups };
  }

  /**
   * The enterprise's side of a sync with a source (sync-plan.ts, PlanState), for the usernames and
   * phones the directory asks for.
   */
  async planState(enterpriseId: number, sourceId: number, wanted: { usernames: string[]; phones: string[] }): Promise<PlanState> {
    const [identityRows, accountRows, groupRows, groupLinkRows] = await Promise.all([
      this.db.selectFrom('account_identity').select(['external_id', 'account_id', 'dn']).where('source_id', '=', sourceId).execute(),
      this.db
        .selectFrom('account')
        .select(['id', 'username', 'name', 'phone', 'email', 'status'])
        .where('enterprise_id', '=', enterpriseId)
        .where('status', 'in', ['active', 'disabled'])
        .execute(),
      this.db.selectFrom('account_group').select(['id', 'name']).where('enterprise_id', '=', enterpriseId).execute(),
      this.db.selectFrom('group_identity').select(['group_id', 'source_id', 'external_id']).execute(),
    ]);
    const guarded = await this.notAdoptable(enterpriseId, sourceId);
    const accounts = new Map<number, PlanAccount>(
      accountRows.map((a) => [
        a.id,
        { ...a, status: a.status === 'active' ? ('active' as const) : ('disabled' as const), adoptable: !guarded.accounts.has(a.id) },
      ]),
    );
    const groupsById = new Map(groupRows.map((g) => [g.id, g.name]));
    const groupLinks = new Map<string, { id: number; name: string }>();
    const linkedGroupIds = new Set<number>();
    for (const link of groupLinkRows) {
      linkedGroupIds.add(link.group_id);
      const name = groupsById.get(link.group_id);
      if (link.source_id === sourceId && name !== undefined) groupLinks.set(link.external_id, { id: link.group_id, name });
    }
    const sourceGroupIds = [...groupLinks.values()].map((g) => g.id);
    const memberships = new Map<number, Set<number>>();
    for (const ids of chunks(sourceGroupIds)) {
      const rows = await this.db
        .selectFrom('account_group_member')
        .select(['group_id', 'account_id'])
        .where('group_id', 'in', ids)
        .execute();
      for (const r of rows) {
        const held = memberships.get(r.account_id) ?? new Set<number>();
        held.add(r.group_id);
        memberships.set(r.account_id, held);
      }
    }
    const usernameHolders = new Map<string, number>();
    for (const names of chunks([...new Set(wanted.usernames)])) {
      const rows = await this.db.selectFrom('account').select(['id', 'username']).where('username', 'in', names).execute();
      for (const r of rows) usernameHolders.set(r.username, r.id);
    }
    const phoneHolders = new Map<string, number>();
    for (const phones of chunks([...new Set(wanted.phones)].filter(Boolean))) {
      const rows = await this.db.selectFrom('account').select(['id', 'phone']).where('phone', 'in', phones).execute();
      for (const r of rows) phoneHolders.set(r.phone, r.id);
    }
    const identities = new Map(identityRows.map((r) => [r.external_id, { accountId: r.account_id, dn: r.dn }]));
    const disabledLinked = identityRows.map((r) => r.account_id).filter((id) => accounts.get(id)?.status === 'disabled');
    return {
      identities,
      accounts,
      usernameHolders,
      phoneHolders,
      groupLinks,
      unlinkedGroups: new Map(groupRows.filter((g) => !linkedGroupIds.has(g.id) && !guarded.groups.has(g.id)).map((g) => [g.name, g.id])),
      groupNames: new Map(groupRows.map((g) => [g.name, g.id])),
      memberships,
      syncDisabled: await this.disabledBySync(sourceId, disabledLinked),
    };
  }

  /**
   * Those of some disabled accounts whose latest applied sync item (any job of the source) was a
   * 停用: leavers, whom the directory listing them as active again re-enables. An account an
   * administrator disabled is left as it is.
   */
  private async disabledBySync(sourceId: number, accountIds: readonly number[]): Promise<Set<number>> {
    const latest = new Map<number, { id: number; action: SyncAction }>();
    for (const ids of chunks(accountIds)) {
      const rows = await this.db
        .selectFrom('sync_run_item')
        .innerJoin('sync_run', 'sync_run.id', 'sync_run_item.run_id')
        .innerJoin('sync_job', 'sync_job.id', 'sync_run.job_id')
        .select(['sync_run_item.id', 'sync_run_item.target_id', 'sync_run_item.action'])
        .where('sync_job.source_id', '=', sourceId)
        .where('sync_run_item.kind', '=', 'user')
        .where('sync_run_item.status', '=', 'succeeded')
        .where('sync_run_item.target_id', 'in', ids)
        .execute();
      for (const r of rows) {
        if (r.target_id === null) continue;
        const seen = latest.get(r.target_id);
        if (!seen || seen.id < r.id) latest.set(r.target_id, { id: r.id, action: r.action });
      }
    }
    return new Set([...latest].filter(([, item]) => item.action === 'disable').map(([id]) => id));
  }

  // ---------------------------------------------------------------------------------------- apply

  async roleId(code: string): Promise<number> {
    const row = await this.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', code)
      .where('enterprise_id', 'is', null)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The source's 账号组 by external id (executing resolves people's groups with it). */
  async groupLinks(sourceId: number): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('group_identity').select(['external_id', 'group_id']).where('source_id', '=', sourceId).execute();
    return new Map(rows.map((r) => [r.external_id, r.group_id]));
  }

  /**
   * A synced person's fields on their account (the username too: the directory decides it), while
   * the account is still the enterprise's and not deleted.
   */
  async updateAccount(trx: Kysely<Database>, enterpriseId: number, id: number, set: Partial<PersonValues>): Promise<boolean> {
    const result = await trx
      .updateTable('account')
      .set({ ...set, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('enterprise_id', '=', enterpriseId)
      .where('status', 'in', ['active', 'disabled'])
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A synced account signs in through its source; its local password is random and unknown, so there is nothing to change at first login. */
  /** A random password nobody knows, replacing the local one of an account a directory adopted. */
  async replacePassword(trx: Kysely<Database>, id: number, passwordHash: string): Promise<void> {
    const now = new Date().toISOString();
    await trx
      .updateTable('account')
      .set({ password_hash: passwordHash, must_change_password: 0, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async clearMustChangePassword(trx: Kysely<Database>, id: number): Promise<void> {
    await trx.updateTable('account').set({ must_change_password: 0 }).where('id', '=', id).execute();
  }

  async linkGroup(trx: Kysely<Database>, groupId: number, sourceId: number, externalId: string): Promise<void> {
    await trx
      .insertInto('group_identity')
      .values({ group_id: groupId, source_id: sourceId, external_id: externalId, created_at: new Date().toISOString() })
      .execute();
  }

  /** Renames a 账号组 of the enterprise (its description and roles stay). */
  async renameGroup(trx: Kysely<Database>, enterpriseId: number, groupId: number, name: string): Promise<boolean> {
    const result = await trx
      .updateTable('account_group')
      .set({ name })
      .where('id', '=', groupId)
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Those of `groupIds` the account is a member of. */
  async memberOf(trx: Kysely<Database>, accountId: number, groupIds: readonly number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await trx
      .selectFrom('account_group_member')
      .select('group_id')
      .where('account_id', '=', accountId)
      .where('group_id', 'in', groupIds)
      .execute();
    return rows.map((r) => r.group_id);
  }

  /**
   * Runs `work` so that its failure undoes only its own writes (SQL savepoints, on both engines):
   * one person the database refuses does not undo the rest of the batch.
   */
  async savepoint<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T> {
    await sql`savepoint sync_item`.execute(trx);
    try {
      const result = await work();
      await sql`release savepoint sync_item`.execute(trx);
      return result;
    } catch (err) {
      await sql`rollback to savepoint sync_item`.execute(trx);
      await sql`release savepoint sync_item`.execute(trx);
      throw err;
    }
  }
}
