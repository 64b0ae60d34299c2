import { Type } from 'typebox';
import { literals } from '../../lib/envelope.js';

/** Schemas of 同步's answers that 认证源 also gives (its 最近同步). */

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
