import type { SyncCounts, SyncRunStatus, SyncRunSummary, SyncTrigger } from '@portal/shared';
import { chinaTime } from '../../platform/lib/china-time.js';

/**
 * A sync run as 同步日志 and 认证源's 最近同步 both show it (the shared SyncRunSummarySchema). It sits
 * here, below directory-sync, so that the source list can show its last run without the two areas
 * importing each other.
 */

export interface RunRow {
  id: number;
  jobId: number;
  jobName: string;
  enterpriseId: number;
  status: SyncRunStatus;
  origin: SyncTrigger;
  fingerprint: string;
  counts: SyncCounts;
  error: string;
  operator: string;
  createdAt: string;
  finishedAt: string | null;
}

/** A run as 同步日志 and 认证源's 最近同步 show it (times in China time). */
export const runSummary = (run: RunRow): SyncRunSummary => ({
  id: run.id,
  jobId: run.jobId,
  jobName: run.jobName,
  status: run.status,
  trigger: run.origin,
  counts: run.counts,
  error: run.error,
  operator: run.operator,
  createdAt: chinaTime(new Date(run.createdAt)),
  finishedAt: run.finishedAt ? chinaTime(new Date(run.finishedAt)) : null,
});
