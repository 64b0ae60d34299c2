import { Authority, PASSWORD_MAX, PASSWORD_MIN } from './auth.js';
import {
  PASSWORD_CLASS_LABELS,
  type PasswordClass,
  type SecurityPolicy,
  type SessionOverflow,
  type TwoFactorMethod,
  type TwoFactorMode,
} from './sso.js';

/**
 * 安全设置: the ranges of an enterprise's security policy and the password rules it sets.
 * The console's form and every place the server accepts a password call these, so both say the same.
 */

/** The character classes a policy may require, in the order messages name them. */
export const PASSWORD_CLASSES: readonly PasswordClass[] = ['lower', 'upper', 'digit', 'symbol'];
export const TWO_FACTOR_MODES: readonly TwoFactorMode[] = ['off', 'admins', 'all', 'roles'];
/** 允许的验证方式 in the order the pages offer them. */
export const TWO_FACTOR_METHODS: readonly TwoFactorMethod[] = ['totp', 'sms', 'passkey'];
/** 信任此设备's longest trust, in days (a device asks again at least this often). */
export const TRUST_DEVICE_MAX_DAYS = 90;
export const SESSION_OVERFLOWS: readonly SessionOverflow[] = ['end-oldest', 'refuse'];

const CLASS_PATTERNS: Record<PasswordClass, RegExp> = {
  lower: /[a-z]/,
  upper: /[A-Z]/,
  digit: /[0-9]/,
  // ASCII punctuation (the characters keyboards and SMS templates agree on).
  symbol: /[!-/:-@[-`{-~]/,
};

type NumericField = Exclude<
  keyof SecurityPolicy,
  'passwordClasses' | 'passwordNoUsername' | 'twoFactor' | 'sessionOverflow' | 'auditRetentionDays' | 'twoFactorRoles' | 'twoFactorMethods'
>;

/**
 * Ranges of the numeric settings. The password length stays within the spec's 6–18 (section 5), so a
 * minimum above 18 — which no password could meet — is refused.
 */
export const SECURITY_POLICY_LIMITS: Record<NumericField, { min: number; max: number; label: string }> = {
  passwordMinLength: { min: PASSWORD_MIN, max: PASSWORD_MAX, label: '密码最短长度' },
  passwordHistory: { min: 0, max: 24, label: '禁止重复使用的历史密码个数' },
  passwordExpiryDays: { min: 0, max: 3650, label: '密码有效期（天）' },
  lockMaxFailures: { min: 3, max: 20, label: '登录失败锁定次数' },
  lockMinutes: { min: 1, max: 1440, label: '锁定时长（分钟）' },
  sessionIdleMinutes: { min: 5, max: 1440, label: '会话空闲超时（分钟）' },
  sessionMaxHours: { min: 1, max: 720, label: '会话最长时长（小时）' },
  sessionMaxConcurrent: { min: 0, max: 20, label: '同时在线会话数上限' },
  trustDeviceDays: { min: 0, max: TRUST_DEVICE_MAX_DAYS, label: '信任此设备天数' },
};

/**
 * 审计日志保留天数: 网络安全法 §21 and 等保 2.0 安全审计 keep logs at least six months (180 days); at most ten years.
 */
export const AUDIT_RETENTION_LIMITS = { min: 180, max: 3650, label: '审计日志保留天数' } as const;

export const SecurityPolicyMessage = {
  minLengthBelowSpec: `密码最短长度不能少于${PASSWORD_MIN}位`,
  minLengthImpossible: `密码最短长度不能超过${PASSWORD_MAX}位（密码最长${PASSWORD_MAX}位，否则任何密码都无法满足）`,
  classUnknown: '密码字符类型只能是小写字母、大写字母、数字、特殊字符',
  classesImpossible: `要求的字符类型多于密码最长长度${PASSWORD_MAX}位，任何密码都无法满足`,
  twoFactorUnknown: '二次验证只能是关闭、仅管理员、全员或按角色',
  rolesRequired: '按角色启用二次验证时，请至少选择一个角色',
  roleUnknown: '所选角色不存在或不属于本企业',
  methodsRequired: '请至少选择一种允许的验证方式',
  methodUnknown: '验证方式只能是验证器应用、短信验证码或通行密钥',
  overflowUnknown: '超出上限时只能是结束最早的会话或拒绝新的登录',
  idleBeyondMax: '会话空闲超时不能超过会话最长时长',
} as const;

const isIntegerIn = (value: number, range: { min: number; max: number }) =>
  Number.isInteger(value) && value >= range.min && value <= range.max;

/**
 * The first problem of a policy (Chinese), or undefined when it is acceptable: every number within its
 * range, known character classes and two-factor mode, and rules that some password can meet.
 */
export function securityPolicyProblem(policy: SecurityPolicy): string | undefined {
  const minLength = SECURITY_POLICY_LIMITS.passwordMinLength;
  if (Number.isInteger(policy.passwordMinLength) && policy.passwordMinLength < minLength.min)
    return SecurityPolicyMessage.minLengthBelowSpec;
  if (Number.isInteger(policy.passwordMinLength) && policy.passwordMinLength > minLength.max)
    return SecurityPolicyMessage.minLengthImpossible;
  for (const [field, range] of Object.entries(SECURITY_POLICY_LIMITS) as [NumericField, (typeof SECURITY_POLICY_LIMITS)[NumericField]][]) {
    if (!isIntegerIn(policy[field], range)) return `${range.label}须为 ${range.min}-${range.max} 之间的整数`;
  }
  if (policy.passwordClasses.some((c) => !PASSWORD_CLASSES.includes(c))) return SecurityPolicyMessage.classUnknown;
  // Each required class takes at least one character: the longest password must hold them all.
  if (new Set(policy.passwordClasses).size > PASSWORD_MAX) return SecurityPolicyMessage.classesImpossible;
  if (!TWO_FACTOR_MODES.includes(policy.twoFactor)) return SecurityPolicyMessage.twoFactorUnknown;
  if (policy.twoFactor === 'roles' && policy.twoFactorRoles.length === 0) return SecurityPolicyMessage.rolesRequired;
  if (policy.twoFactorMethods.length === 0) return SecurityPolicyMessage.methodsRequired;
  if (policy.twoFactorMethods.some((m) => !TWO_FACTOR_METHODS.includes(m))) return SecurityPolicyMessage.methodUnknown;
  if (!SESSION_OVERFLOWS.includes(policy.sessionOverflow)) return SecurityPolicyMessage.overflowUnknown;
  if (policy.sessionIdleMinutes > policy.sessionMaxHours * 60) return SecurityPolicyMessage.idleBeyondMax;
  const retention = AUDIT_RETENTION_LIMITS;
  if (policy.auditRetentionDays !== undefined && !isIntegerIn(policy.auditRetentionDays, retention)) {
    return `${retention.label}须为 ${retention.min}-${retention.max} 之间的整数`;
  }
  return undefined;
}

/** 控制台访问: most networks an enterprise may list (every console call is checked against them). */
export const CONSOLE_IP_RULES_MAX = 50;

export const ConsoleIpRulesMessage = {
  tooMany: `允许访问的 IP 地址最多 ${CONSOLE_IP_RULES_MAX} 条`,
} as const;

/** Refusals of a password that no policy setting turns off. */
export const PasswordMessage = {
  tooCommon: '该密码过于常见，请换一个更安全的密码',
} as const;

/** The part of a policy a single password is checked against. */
export type PasswordRules = Pick<SecurityPolicy, 'passwordMinLength' | 'passwordClasses' | 'passwordNoUsername'>;

const length = (text: string) => [...text].length;
/** The required classes in display order, without duplicates. */
const requiredClasses = (rules: PasswordRules) => PASSWORD_CLASSES.filter((c) => rules.passwordClasses.includes(c));
const classList = (classes: readonly PasswordClass[]) => classes.map((c) => PASSWORD_CLASS_LABELS[c]).join('、');

/**
 * The first problem of a new password under a policy (Chinese), or undefined: the policy's minimum
 * and the spec's maximum length, the required character classes, (when the policy says so) not
 * containing the account's username, compared without case, and not one of the commonest passwords.
 * The list of those is large and lives on the server, which passes `isCommon`; the console's forms
 * check the rest before sending and show the server's refusal for a common one.
 */
export function passwordProblem(
  password: string,
  rules: PasswordRules,
  username?: string,
  isCommon?: (password: string) => boolean,
): string | undefined {
  if (!password) return '请输入密码';
  const min = Math.max(PASSWORD_MIN, rules.passwordMinLength);
  if (length(password) < min) return `密码至少${min}位`;
  if (length(password) > PASSWORD_MAX) return `密码最多${PASSWORD_MAX}个字符`;
  const required = requiredClasses(rules);
  if (required.some((c) => !CLASS_PATTERNS[c].test(password))) return `密码须包含${classList(required)}`;
  if (rules.passwordNoUsername && username && password.toLowerCase().includes(username.toLowerCase())) return '密码不能包含账号';
  if (isCommon?.(password)) return PasswordMessage.tooCommon;
  return undefined;
}

/**
 * Whether a server refusal is about the new password itself: one of passwordProblem's messages (密码至少10位,
 * 密码须包含大写字母、数字, 密码不能包含账号), the history's (新密码不能与最近3次…) or a common password.
 * The forms show it under the password field.
 */
export const refusesPassword = (message: string): boolean =>
  message === PasswordMessage.tooCommon || /^新?密码(至少|最多|须包含|不能)/.test(message);

/** The rules in one line, for placeholders and hints: `8-18位，须包含大写字母、数字，不能包含账号`. */
export function describePasswordRules(rules: PasswordRules): string {
  const parts = [`${Math.max(PASSWORD_MIN, rules.passwordMinLength)}-${PASSWORD_MAX}位`];
  const required = requiredClasses(rules);
  if (required.length) parts.push(`须包含${classList(required)}`);
  if (rules.passwordNoUsername) parts.push('不能包含账号');
  return parts.join('，');
}

/**
 * Whether the policy's two-factor login applies to an account holding `authorities` (仅管理员: holders of
 * org:account); 按角色: holders of one of `roles.required` (ids), given the ids the account holds.
 */
export function twoFactorApplies(
  mode: TwoFactorMode,
  authorities: readonly string[],
  roles?: { held: readonly number[]; required: readonly number[] },
): boolean {
  if (mode === 'roles') return !!roles && roles.required.some((id) => roles.held.includes(id));
  return mode === 'all' || (mode === 'admins' && authorities.includes(Authority.OrgAccount));
}

/** One-time recovery codes given at two-factor enrolment. */
export const RECOVERY_CODE_COUNT = 10;
