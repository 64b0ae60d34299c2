import type { Static } from 'typebox';
import type {
  ComplianceControlSchema,
  ComplianceEvidenceQuerySchema,
  ComplianceReportSchema,
  ComplianceScoreSchema,
} from './contracts/compliance.js';
import { PASSWORD_CLASSES, TWO_FACTOR_METHODS } from './security-policy.js';
import { PASSWORD_CLASS_LABELS, SESSION_OVERFLOW_LABELS, type SecurityPolicy, TWO_FACTOR_LABELS, TWO_FACTOR_METHOD_LABELS } from './sso.js';

/**
 * 安全合规 and the presets of 安全设置: the two baselines an enterprise is measured against, the preset
 * settings that pass each, and how a policy's values read. The controls themselves are evaluated on the
 * server (one service), so the page, the CSV and the evidence pack say the same.
 */

export type ComplianceFramework = 'djcp' | 'asvs';
export const COMPLIANCE_FRAMEWORK_LABELS: Record<ComplianceFramework, string> = {
  djcp: '等保 2.0 第三级（GB/T 22239-2019 安全计算环境）',
  asvs: 'OWASP ASVS 5.0 第二级（V6 身份认证、V7 会话管理）',
};

export type ComplianceControl = Static<typeof ComplianceControlSchema>;
export type ComplianceScore = Static<typeof ComplianceScoreSchema>;
export type ComplianceReport = Static<typeof ComplianceReportSchema>;
export type ComplianceEvidenceQuery = Static<typeof ComplianceEvidenceQuerySchema>;

/** 网络安全法 第二十一条: network logs are kept no less than six months. */
export const AUDIT_RETENTION_MIN_DAYS = 180;
/** The longest period one evidence pack covers (a year, leap day included). */
export const EVIDENCE_PERIOD_MAX_DAYS = 366;

export const ComplianceMessage = {
  dateInvalid: (label: string) => `${label}格式应为 yyyy-MM-dd`,
  startAfterEnd: '开始日期不能晚于结束日期',
  periodTooLong: `统计区间最长 ${EVIDENCE_PERIOD_MAX_DAYS} 天`,
  endInFuture: '结束日期不能晚于今天',
  evidenceBusy: '另一份证据包正在生成，请稍后再试',
} as const;

export type SecurityPresetKey = 'djcp3' | 'nist';

/** A one-click baseline of 安全设置: the fields it sets as minimums (the rest stay as they are). */
export interface SecurityPreset {
  key: SecurityPresetKey;
  title: string;
  description: string;
  policy: Partial<SecurityPolicy>;
  /** The least audit retention the baseline asks for: applying it raises 审计日志保留天数 to this, never lowers it. */
  auditRetentionDays: number;
}

export const SECURITY_PRESETS: readonly SecurityPreset[] = [
  {
    key: 'djcp3',
    title: '等保三级',
    description: '口令复杂度并定期更换、登录失败锁定、超时退出、管理员双因素认证（GB/T 22239-2019 8.1.4.1）',
    policy: {
      passwordMinLength: 8,
      passwordClasses: ['lower', 'upper', 'digit'],
      passwordExpiryDays: 90,
      passwordHistory: 5,
      lockMaxFailures: 5,
      lockMinutes: 15,
      twoFactor: 'admins',
      sessionIdleMinutes: 30,
    },
    auditRetentionDays: AUDIT_RETENTION_MIN_DAYS,
  },
  {
    key: 'nist',
    title: 'NIST/ASVS',
    description: '长度优先、常见密码拦截、不强制定期更换、全员多因素认证、限制同时在线会话（NIST SP 800-63B、OWASP ASVS 5.0）',
    policy: {
      passwordMinLength: 8,
      passwordClasses: [],
      passwordExpiryDays: 0,
      // ASVS 6.3.1: at most 10 failed attempts before the account is held.
      lockMaxFailures: 10,
      twoFactor: 'all',
      // SMS is a restricted authenticator (NIST SP 800-63B 5.1.3.3); a passkey resists phishing.
      twoFactorMethods: ['totp', 'passkey'],
      sessionMaxConcurrent: 5,
      sessionIdleMinutes: 30,
      sessionMaxHours: 12,
    },
    auditRetentionDays: AUDIT_RETENTION_MIN_DAYS,
  },
];

export const securityPreset = (key: SecurityPresetKey): SecurityPreset => {
  const preset = SECURITY_PRESETS.find((p) => p.key === key);
  if (!preset) throw new Error(`unknown preset ${key}`);
  return preset;
};

type Field = keyof SecurityPolicy;

/** Of two non-zero values the smaller; 0 (不限制, 永不过期) gives way to any limit. */
const smallerLimit = (current: number, preset: number) => (current && preset ? Math.min(current, preset) : current || preset);

/**
 * How a preset's value and the current one combine: the stronger of the two, so a preset never weakens a
 * stricter setting. Where the baselines genuinely disagree the preset decides: NIST SP 800-63B / ASVS 6.2.5,
 * 6.2.10 clear composition rules and rotation (an empty class list, expiry 0). 'roles' is weaker than 'all' and
 * not comparable to 'admins' (the preset's value applies). Fields not listed take the preset's value.
 */
const STRONGER: { [K in Field]?: (current: SecurityPolicy[K], preset: SecurityPolicy[K]) => SecurityPolicy[K] } = {
  passwordMinLength: Math.max,
  passwordClasses: (current, preset) => (preset.length ? PASSWORD_CLASSES.filter((c) => current.includes(c) || preset.includes(c)) : []),
  passwordNoUsername: (current, preset) => current || preset,
  passwordHistory: Math.max,
  passwordExpiryDays: (current, preset) => (preset ? smallerLimit(current, preset) : 0),
  lockMaxFailures: Math.min,
  lockMinutes: Math.max,
  sessionIdleMinutes: Math.min,
  sessionMaxHours: Math.min,
  sessionMaxConcurrent: smallerLimit,
  twoFactor: (current, preset) => (current === 'all' ? current : preset),
};

function stronger<K extends Field>(field: K, current: SecurityPolicy[K], preset: SecurityPolicy[K]): SecurityPolicy[K] {
  const combine = STRONGER[field] as ((c: SecurityPolicy[K], p: SecurityPolicy[K]) => SecurityPolicy[K]) | undefined;
  return combine ? combine(current, preset) : preset;
}

/**
 * The policy after a preset: each of its fields at least as strict as the preset asks, every other one kept
 * (按角色's roles, 信任此设备), the audit retention at least the preset's. While two-factor is on, 验证器应用 stays among the allowed factors, so an account
 * that holds none of them binds one at its next sign-in instead of being refused.
 */
export function applySecurityPreset(policy: SecurityPolicy, preset: SecurityPreset): SecurityPolicy {
  const next = { ...policy };
  for (const field of Object.keys(preset.policy) as Field[]) {
    const value = preset.policy[field];
    if (value !== undefined) Object.assign(next, { [field]: stronger(field, policy[field], value) });
  }
  if (next.twoFactor !== 'off' && !next.twoFactorMethods.includes('totp')) {
    next.twoFactorMethods = TWO_FACTOR_METHODS.filter((m) => m === 'totp' || next.twoFactorMethods.includes(m));
  }
  // The audit retention too is a minimum (网络安全法 §21: six months); a longer one stays.
  next.auditRetentionDays = Math.max(policy.auditRetentionDays ?? AUDIT_RETENTION_MIN_DAYS, preset.auditRetentionDays);
  return next;
}

/** How each setting is named and how its value reads, in the 安全设置 page's order. */
const POLICY_FIELDS: { [K in Field]?: { label: string; text: (value: SecurityPolicy[K]) => string } } = {
  passwordMinLength: { label: '密码最短长度', text: (v) => `${v} 位` },
  passwordClasses: {
    label: '密码必须包含',
    // In the page's order, whatever order they were saved in.
    text: (v) =>
      v.length
        ? PASSWORD_CLASSES.filter((c) => v.includes(c))
            .map((c) => PASSWORD_CLASS_LABELS[c])
            .join('、')
        : '不限',
  },
  passwordNoUsername: { label: '密码不得包含账号', text: (v) => (v ? '是' : '否') },
  passwordHistory: { label: '历史密码', text: (v) => (v ? `最近 ${v} 个不可重复` : '不限制') },
  passwordExpiryDays: { label: '密码有效期', text: (v) => (v ? `${v} 天` : '永不过期') },
  lockMaxFailures: { label: '登录失败锁定次数', text: (v) => `${v} 次` },
  lockMinutes: { label: '锁定时长', text: (v) => `${v} 分钟` },
  sessionIdleMinutes: { label: '会话空闲超时', text: (v) => `${v} 分钟` },
  sessionMaxHours: { label: '会话最长时长', text: (v) => `${v} 小时` },
  sessionMaxConcurrent: { label: '同时在线会话数上限', text: (v) => (v ? `${v} 个` : '不限制') },
  sessionOverflow: { label: '超出上限时', text: (v) => SESSION_OVERFLOW_LABELS[v] },
  twoFactor: { label: '二次验证', text: (v) => TWO_FACTOR_LABELS[v] },
  twoFactorRoles: { label: '二次验证的角色', text: (v) => (v.length ? `${v.length} 个角色` : '未选择') },
  twoFactorMethods: {
    label: '允许的验证方式',
    text: (v) =>
      TWO_FACTOR_METHODS.filter((m) => v.includes(m))
        .map((m) => TWO_FACTOR_METHOD_LABELS[m])
        .join('、'),
  },
  trustDeviceDays: { label: '信任此设备', text: (v) => (v ? `${v} 天` : '不允许') },
  auditRetentionDays: { label: '审计日志保留天数', text: (v) => (v === undefined ? '平台默认' : `${v} 天`) },
};

const sameValue = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x) => b.includes(x)) : a === b;

/** A setting's name and its value as the console shows it (`密码有效期`, `90 天`). */
export function policyFieldText<K extends Field>(field: K, policy: SecurityPolicy): { label: string; value: string } {
  const spec = POLICY_FIELDS[field] as { label: string; text: (value: SecurityPolicy[K]) => string } | undefined;
  return { label: spec?.label ?? field, value: spec ? spec.text(policy[field]) : String(policy[field]) };
}

/** One line of a preset's preview: the setting, its value now and after. */
export interface PolicyChange {
  field: Field;
  label: string;
  from: string;
  to: string;
}

/** The settings `next` changes from `current`, in the page's order. */
export function policyChanges(current: SecurityPolicy, next: SecurityPolicy): PolicyChange[] {
  return (Object.keys(POLICY_FIELDS) as Field[])
    .filter((field) => !sameValue(current[field], next[field]))
    .map((field) => {
      const before = policyFieldText(field, current);
      return { field, label: before.label, from: before.value, to: policyFieldText(field, next).value };
    });
}
