import type { SyncCounts, SyncRunStatus, SyncRunSummary, SyncTrigger } from '@portal/shared';
import { Type } from 'typebox';
import { chinaTime } from '../../platform/lib/china-time.js';
import { literals } from '../../platform/lib/envelope.js';

/**
 * A sync run as 同步日志 and 认证源's 最近同步 both show it. It sits here, below directory-sync,
 * so that the source list can show its last run without the two areas importing each other.
 */

export const RunStatus = literals(['preview', 'running', 'succeeded', 'partial', 'failed', 'expired'] as const);

export const CountsSchema = Type.Object({
  create: Type.Integer(),
  update: Type.Integer(),
  disable: Type.Integer(),
  move: Type.Integer(),
  failed: Type.Integer(),
});
export const RunSummarySchema = Type.Object({
  id: Type.Integer(),
  jobId: Type.Integer(),
  jobName: Type.String(),
  status: RunStatus,
  trigger: literals(['manual', 'schedule'] as const),
  counts: CountsSchema,
  error: Type.String({ description: '整体失败时认证源返回的错误' }),
  operator: Type.String({ description: '预览或执行的人；定时为空' }),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
});

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
