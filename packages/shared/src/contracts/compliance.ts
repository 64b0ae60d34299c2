import { Type } from 'typebox';
import { literals } from './envelope.js';

/**
 * 安全合规: the controls of the 等保 2.0 third level and OWASP ASVS 5.0 level 2 evaluated against an
 * enterprise's 安全设置, their scores, and the period of an evidence pack.
 */

export const ComplianceFrameworkSchema = literals(['djcp', 'asvs'] as const);

/** One control: where it comes from, what it asks, what the enterprise has, and what to change when it fails. */
export const ComplianceControlSchema = Type.Object({
  id: Type.String({ description: '控制项编号，如 djcp-a-complexity' }),
  framework: ComplianceFrameworkSchema,
  clause: Type.String({ description: '条款，如 GB/T 22239-2019 8.1.4.1 a) 或 ASVS 5.0 6.2.1' }),
  title: Type.String(),
  requirement: Type.String({ description: '通过的条件' }),
  current: Type.String({ description: '本企业当前的设置' }),
  passed: Type.Boolean(),
  remedy: Type.String({ description: '未通过时应修改的设置；通过时为空' }),
  /** Whether 安全设置 changes it (the page links there); otherwise the platform provides it. */
  inSettings: Type.Boolean(),
});

export const ComplianceScoreSchema = Type.Object({
  framework: ComplianceFrameworkSchema,
  title: Type.String(),
  passed: Type.Integer(),
  total: Type.Integer(),
  /** Passed controls in percent, rounded down. */
  score: Type.Integer({ minimum: 0, maximum: 100 }),
});

/** `GET /web-api/console/v1/security/compliance`. */
export const ComplianceReportSchema = Type.Object({
  enterpriseName: Type.String(),
  evaluatedAt: Type.String({ description: '评估时间（北京时间 yyyy-MM-dd HH:mm:ss）' }),
  auditRetentionDays: Type.Integer({ description: '登录日志与操作日志的保存天数' }),
  scores: Type.Array(ComplianceScoreSchema),
  controls: Type.Array(ComplianceControlSchema),
});

/** `GET …/security/compliance/evidence`: the period (China dates, both days included) whose statistics the pack holds. */
export const ComplianceEvidenceQuerySchema = Type.Object({
  start: Type.String({ maxLength: 10, description: '开始日期 yyyy-MM-dd' }),
  end: Type.String({ maxLength: 10, description: '结束日期 yyyy-MM-dd（含当天）' }),
});
