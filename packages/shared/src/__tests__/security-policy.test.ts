import { describe, expect, it } from 'vitest';
import {
  describePasswordRules,
  PasswordMessage,
  passwordProblem,
  securityPolicyProblem,
  twoFactorApplies,
  SecurityPolicyMessage,
} from '../security-policy.js';
import type { SecurityPolicy } from '../sso.js';

const policy: SecurityPolicy = {
  passwordMinLength: 8,
  passwordClasses: ['upper', 'lower', 'digit'],
  passwordNoUsername: true,
  passwordHistory: 5,
  passwordExpiryDays: 90,
  lockMaxFailures: 5,
  lockMinutes: 15,
  sessionIdleMinutes: 120,
  sessionMaxHours: 8,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'end-oldest',
  twoFactor: 'admins',
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

describe('security policy (安全设置) rules shared by console and server', () => {
  it('accepts a sensible policy and the boundaries of every range', () => {
    expect(securityPolicyProblem(policy)).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, passwordMinLength: 6, passwordHistory: 0, passwordExpiryDays: 0 })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, passwordMinLength: 18, passwordHistory: 24, passwordExpiryDays: 3650 })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, lockMaxFailures: 3, lockMinutes: 1 })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, sessionMaxConcurrent: 20, sessionOverflow: 'refuse' })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, sessionMaxConcurrent: -1 })).toBe('同时在线会话数上限须为 0-20 之间的整数');
    expect(securityPolicyProblem({ ...policy, lockMaxFailures: 20, lockMinutes: 1440 })).toBeUndefined();
    // Fewer characters than required classes is fine: the minimum is only a lower bound.
    expect(
      securityPolicyProblem({ ...policy, passwordMinLength: 6, passwordClasses: ['lower', 'upper', 'digit', 'symbol'] }),
    ).toBeUndefined();
  });

  it('refuses a policy no password can meet, and numbers out of range, in Chinese', () => {
    expect(securityPolicyProblem({ ...policy, passwordMinLength: 19 })).toBe(SecurityPolicyMessage.minLengthImpossible);
    expect(securityPolicyProblem({ ...policy, passwordMinLength: 5 })).toBe(SecurityPolicyMessage.minLengthBelowSpec);
    expect(securityPolicyProblem({ ...policy, passwordMinLength: 7.5 })).toBe('密码最短长度须为 6-18 之间的整数');
    expect(securityPolicyProblem({ ...policy, passwordHistory: 25 })).toBe('禁止重复使用的历史密码个数须为 0-24 之间的整数');
    expect(securityPolicyProblem({ ...policy, passwordExpiryDays: 3651 })).toBe('密码有效期（天）须为 0-3650 之间的整数');
    expect(securityPolicyProblem({ ...policy, lockMaxFailures: 2 })).toBe('登录失败锁定次数须为 3-20 之间的整数');
    expect(securityPolicyProblem({ ...policy, lockMinutes: 0 })).toBe('锁定时长（分钟）须为 1-1440 之间的整数');
    expect(securityPolicyProblem({ ...policy, sessionIdleMinutes: 4 })).toBe('会话空闲超时（分钟）须为 5-1440 之间的整数');
    expect(securityPolicyProblem({ ...policy, sessionMaxHours: 721 })).toBe('会话最长时长（小时）须为 1-720 之间的整数');
    expect(securityPolicyProblem({ ...policy, sessionIdleMinutes: 600, sessionMaxHours: 8 })).toBe(SecurityPolicyMessage.idleBeyondMax);
    expect(securityPolicyProblem({ ...policy, passwordClasses: ['emoji' as 'lower'] })).toBe(SecurityPolicyMessage.classUnknown);
    expect(securityPolicyProblem({ ...policy, twoFactor: 'sometimes' as 'off' })).toBe(SecurityPolicyMessage.twoFactorUnknown);
  });

  it('checks a password against the policy: length, classes, username', () => {
    expect(passwordProblem('Hengyue2026', policy, 'admin')).toBeUndefined();
    expect(passwordProblem('', policy)).toBe('请输入密码');
    expect(passwordProblem('Hy2026', policy)).toBe('密码至少8位');
    expect(passwordProblem('Hengyue2026Hengyue2', policy)).toBe('密码最多18个字符');
    expect(passwordProblem('hengyue2026', policy)).toBe('密码须包含小写字母、大写字母、数字');
    expect(passwordProblem('MyAdmin2026', policy, 'admin')).toBe('密码不能包含账号');
    expect(passwordProblem('MyAdmin2026', { ...policy, passwordNoUsername: false }, 'admin')).toBeUndefined();
    expect(passwordProblem('Abc#2026x', { ...policy, passwordClasses: ['symbol'] })).toBeUndefined();
    expect(passwordProblem('Abc2026xy', { ...policy, passwordClasses: ['symbol'] })).toBe('密码须包含特殊字符');
    // The spec's 6 stays the floor whatever a stored policy says.
    expect(passwordProblem('abcde', { ...policy, passwordMinLength: 1, passwordClasses: [] })).toBe('密码至少6位');
  });

  it('refuses a common password the caller names, after the policy’s own rules', () => {
    const common = (password: string) => ['password1', 'hengyue2026'].includes(password.toLowerCase());
    expect(passwordProblem('Password1', policy, 'admin', common)).toBe(PasswordMessage.tooCommon);
    expect(passwordProblem('Hengyue2026', policy, 'admin', common)).toBe('该密码过于常见，请换一个更安全的密码');
    // A shorter or weaker one is told what the policy asks first.
    expect(passwordProblem('hengyue2026', policy, 'admin', common)).toBe('密码须包含小写字母、大写字母、数字');
    expect(passwordProblem('Hengyue2027', policy, 'admin', common)).toBeUndefined();
  });

  it('describes the rules in one line for the forms', () => {
    expect(describePasswordRules(policy)).toBe('8-18位，须包含小写字母、大写字母、数字，不能包含账号');
    expect(describePasswordRules({ passwordMinLength: 6, passwordClasses: [], passwordNoUsername: false })).toBe('6-18位');
  });

  it('applies two-factor login to everyone, to administrators (org:account) only, or to no one', () => {
    expect(twoFactorApplies('all', [])).toBe(true);
    expect(twoFactorApplies('admins', ['org:account'])).toBe(true);
    expect(twoFactorApplies('admins', ['dashboard'])).toBe(false);
    expect(twoFactorApplies('off', ['org:account'])).toBe(false);
    // 按角色: holders of a chosen role only, whatever else they hold.
    expect(twoFactorApplies('roles', ['org:account'], { held: [3, 7], required: [7] })).toBe(true);
    expect(twoFactorApplies('roles', ['org:account'], { held: [3], required: [7] })).toBe(false);
    expect(twoFactorApplies('roles', ['org:account'])).toBe(false);
  });

  it('refuses 按角色 without roles, no allowed factor, and trusted days beyond 90', () => {
    expect(securityPolicyProblem({ ...policy, twoFactor: 'roles', twoFactorRoles: [] })).toBe(SecurityPolicyMessage.rolesRequired);
    expect(securityPolicyProblem({ ...policy, twoFactor: 'roles', twoFactorRoles: [4] })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, twoFactorMethods: [] })).toBe(SecurityPolicyMessage.methodsRequired);
    expect(securityPolicyProblem({ ...policy, twoFactorMethods: ['email' as 'sms'] })).toBe(SecurityPolicyMessage.methodUnknown);
    expect(securityPolicyProblem({ ...policy, trustDeviceDays: 90 })).toBeUndefined();
    expect(securityPolicyProblem({ ...policy, trustDeviceDays: 91 })).toBe('信任此设备天数须为 0-90 之间的整数');
  });
});
