import { PASSWORD_CLASS_LABELS, type PasswordClass, type SecurityPolicy } from '@portal/shared';
import type { FormRule } from 'antd';

/** The numeric settings of 安全设置. */
export type PolicyNumberField = Exclude<keyof SecurityPolicy, 'passwordClasses' | 'passwordNoUsername' | 'twoFactor'>;

interface Range {
  label: string;
  min: number;
  max: number;
  unit: string;
}

/**
 * The ranges the server accepts for each number. 最小长度 never goes below the spec's 6 nor above its
 * 18 (spec section 9: passwords are 6 to 18 characters), so the policy never refuses every password.
 */
export const POLICY_RANGES: Record<PolicyNumberField, Range> = {
  passwordMinLength: { label: '最小长度', min: 6, max: 18, unit: '位' },
  passwordHistory: { label: '历史密码', min: 0, max: 24, unit: '个' },
  passwordExpiryDays: { label: '有效期', min: 0, max: 365, unit: '天' },
  lockMaxFailures: { label: '失败次数', min: 1, max: 20, unit: '次' },
  lockMinutes: { label: '锁定时长', min: 1, max: 1440, unit: '分钟' },
  sessionIdleMinutes: { label: '空闲超时', min: 5, max: 1440, unit: '分钟' },
  sessionMaxHours: { label: '最长时长', min: 1, max: 720, unit: '小时' },
};

export const PASSWORD_CLASSES = Object.keys(PASSWORD_CLASS_LABELS) as PasswordClass[];

export const rangeMessage = ({ label, min, max }: Range) => `${label}须为 ${min} 到 ${max} 之间的整数`;
export const IDLE_OVER_MAX_MESSAGE = '空闲超时不能超过会话最长时长';

/** The message for a number outside its range (empty, a fraction, too small or too big), or undefined. */
export function checkPolicyNumber(field: PolicyNumberField, value: unknown): string | undefined {
  const range = POLICY_RANGES[field];
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? undefined : rangeMessage(range);
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
      ? Promise.reject(new Error(IDLE_OVER_MAX_MESSAGE))
      : Promise.resolve();
  },
});

/** The body of 保存: the classes in a fixed order, so an unchanged policy sends the same body. */
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
    twoFactor: values.twoFactor,
  };
}
