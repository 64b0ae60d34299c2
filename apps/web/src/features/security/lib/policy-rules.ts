import {
  PASSWORD_CLASS_LABELS,
  type PasswordClass,
  type SecurityPolicy,
  SESSION_OVERFLOW_LABELS,
  type SessionOverflow,
  TWO_FACTOR_LABELS,
  TWO_FACTOR_METHOD_LABELS,
  type TwoFactorMethod,
  type TwoFactorMode,
} from '@portal/shared';
import type { FormRule } from 'antd';

/** The numeric settings of 安全设置. */
export type PolicyNumberField = Exclude<
  keyof SecurityPolicy,
  'passwordClasses' | 'passwordNoUsername' | 'twoFactor' | 'sessionOverflow' | 'twoFactorRoles' | 'twoFactorMethods'
>;

// The ranges and messages below are the server's (the policy rules it checks every 保存 against), so a
// value the form accepts is one the server accepts. 最小长度 stays within the spec's 6–18 (section 9):
// a longer minimum would refuse every password.
export const PASSWORD_CLASSES = Object.keys(PASSWORD_CLASS_LABELS) as PasswordClass[];
export const TWO_FACTOR_MODES = Object.keys(TWO_FACTOR_LABELS) as TwoFactorMode[];
export const SESSION_OVERFLOWS = Object.keys(SESSION_OVERFLOW_LABELS) as SessionOverflow[];
export const TWO_FACTOR_METHODS = Object.keys(TWO_FACTOR_METHOD_LABELS) as TwoFactorMethod[];

export const SECURITY_POLICY_LIMITS: Record<PolicyNumberField, { min: number; max: number; label: string }> = {
  passwordMinLength: { min: 6, max: 18, label: '密码最短长度' },
  passwordHistory: { min: 0, max: 24, label: '禁止重复使用的历史密码个数' },
  passwordExpiryDays: { min: 0, max: 3650, label: '密码有效期（天）' },
  lockMaxFailures: { min: 3, max: 20, label: '登录失败锁定次数' },
  lockMinutes: { min: 1, max: 1440, label: '锁定时长（分钟）' },
  sessionIdleMinutes: { min: 5, max: 1440, label: '会话空闲超时（分钟）' },
  sessionMaxHours: { min: 1, max: 720, label: '会话最长时长（小时）' },
  sessionMaxConcurrent: { min: 0, max: 20, label: '同时在线会话数上限' },
  auditRetentionDays: { min: 180, max: 3650, label: '审计日志保留天数' },
  trustDeviceDays: { min: 0, max: 90, label: '信任此设备天数' },
};

export const SecurityPolicyMessage = {
  minLengthBelowSpec: '密码最短长度不能少于6位',
  minLengthImpossible: '密码最短长度不能超过18位（密码最长18位，否则任何密码都无法满足）',
  idleBeyondMax: '会话空闲超时不能超过会话最长时长',
  rolesRequired: '按角色启用二次验证时，请至少选择一个角色',
  methodsRequired: '请至少选择一种允许的验证方式',
} as const;

/** The message for a number outside its range (empty, a fraction, too small or too big), or undefined. */
export function checkPolicyNumber(field: PolicyNumberField, value: unknown): string | undefined {
  const range = SECURITY_POLICY_LIMITS[field];
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value >= range.min && value <= range.max) return undefined;
    if (field === 'passwordMinLength')
      return value < range.min ? SecurityPolicyMessage.minLengthBelowSpec : SecurityPolicyMessage.minLengthImpossible;
  }
  return `${range.label}须为 ${range.min}-${range.max} 之间的整数`;
}

/** The antd rule of one number of the policy. */
export function policyNumberRule(field: PolicyNumberField): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      const message = checkPolicyNumber(field, value);
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}

/** 空闲超时 within 最长时长: a session cannot idle longer than it may last. */
export const idleWithinMaxRule: FormRule = ({ getFieldValue }) => ({
  validator: (_rule, value: unknown) => {
    const maxHours: unknown = getFieldValue('sessionMaxHours');
    return typeof value === 'number' && typeof maxHours === 'number' && value > maxHours * 60
      ? Promise.reject(new Error(SecurityPolicyMessage.idleBeyondMax))
      : Promise.resolve();
  },
});

/** 按角色 needs at least one role (the other modes keep the choice without using it). */
export const rolesWhenByRoleRule: FormRule = ({ getFieldValue }) => ({
  validator: (_rule, value: unknown) =>
    getFieldValue('twoFactor') === 'roles' && !(Array.isArray(value) && value.length > 0)
      ? Promise.reject(new Error(SecurityPolicyMessage.rolesRequired))
      : Promise.resolve(),
});

/** 允许的验证方式: at least one. */
export const methodsRule: FormRule = {
  validator: (_rule, value: unknown) =>
    Array.isArray(value) && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(SecurityPolicyMessage.methodsRequired)),
};

/** The body of 保存: the classes and factors in a fixed order, so an unchanged policy sends the same body. */
export function policyBody(values: SecurityPolicy): SecurityPolicy {
  return {
    passwordMinLength: values.passwordMinLength,
    passwordClasses: PASSWORD_CLASSES.filter((c) => values.passwordClasses.includes(c)),
    passwordNoUsername: values.passwordNoUsername,
    passwordHistory: values.passwordHistory,
    passwordExpiryDays: values.passwordExpiryDays,
    lockMaxFailures: values.lockMaxFailures,
    lockMinutes: values.lockMinutes,
    sessionIdleMinutes: values.sessionIdleMinutes,
    sessionMaxHours: values.sessionMaxHours,
    sessionMaxConcurrent: values.sessionMaxConcurrent,
    sessionOverflow: values.sessionOverflow,
    twoFactor: values.twoFactor,
    auditRetentionDays: values.auditRetentionDays,
    twoFactorRoles: [...(values.twoFactorRoles ?? [])].sort((a, b) => a - b),
    twoFactorMethods: TWO_FACTOR_METHODS.filter((m) => (values.twoFactorMethods ?? []).includes(m)),
    trustDeviceDays: values.trustDeviceDays,
  };
}
