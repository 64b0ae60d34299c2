import { describe, expect, it } from 'vitest';
import { SECURITY_PRESETS, applySecurityPreset, policyChanges, securityPreset } from '../compliance.js';
import { securityPolicyProblem } from '../security-policy.js';
import type { SecurityPolicy } from '../sso.js';

const current: SecurityPolicy = {
  passwordMinLength: 10,
  passwordClasses: ['digit', 'lower'],
  passwordNoUsername: true,
  passwordHistory: 0,
  passwordExpiryDays: 0,
  lockMaxFailures: 5,
  lockMinutes: 15,
  sessionIdleMinutes: 120,
  sessionMaxHours: 720,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'refuse',
  twoFactor: 'off',
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

describe('安全设置 presets', () => {
  it('set only their own fields, and every result is a policy the server accepts', () => {
    for (const preset of SECURITY_PRESETS) {
      const next = applySecurityPreset(current, preset);
      expect(securityPolicyProblem(next), preset.title).toBeUndefined();
      expect(next.passwordNoUsername).toBe(true);
      expect(next.sessionOverflow).toBe('refuse');
    }
  });

  it('preview each change in the page’s words, classes compared as a set', () => {
    const next = applySecurityPreset(current, securityPreset('nist'));
    expect(policyChanges(current, next)).toEqual([
      { field: 'passwordClasses', label: '密码必须包含', from: '小写字母、数字', to: '不限' },
      { field: 'sessionIdleMinutes', label: '会话空闲超时', from: '120 分钟', to: '30 分钟' },
      { field: 'sessionMaxHours', label: '会话最长时长', from: '720 小时', to: '12 小时' },
      { field: 'sessionMaxConcurrent', label: '同时在线会话数上限', from: '不限制', to: '5 个' },
      { field: 'twoFactor', label: '二次验证', from: '关闭', to: '全员' },
      { field: 'auditRetentionDays', label: '审计日志保留天数', from: '平台默认', to: '180 天' },
    ]);
    expect(policyChanges(next, { ...next, passwordClasses: [...next.passwordClasses].reverse() })).toEqual([]);
    expect(policyChanges(current, { ...current, passwordClasses: ['lower', 'digit'] })).toEqual([]);
  });

  it('never weaken a stricter setting: each preset value is a minimum', () => {
    const strict: SecurityPolicy = {
      passwordMinLength: 14,
      passwordClasses: ['lower', 'upper', 'digit', 'symbol'],
      passwordNoUsername: true,
      passwordHistory: 12,
      passwordExpiryDays: 60,
      lockMaxFailures: 3,
      lockMinutes: 60,
      sessionIdleMinutes: 10,
      sessionMaxHours: 4,
      sessionMaxConcurrent: 2,
      sessionOverflow: 'refuse',
      twoFactor: 'all',
      twoFactorRoles: [],
      twoFactorMethods: ['totp', 'passkey'],
      trustDeviceDays: 0,
      auditRetentionDays: 365,
    };
    expect(applySecurityPreset(strict, securityPreset('djcp3'))).toEqual(strict);
    expect(policyChanges(strict, applySecurityPreset(strict, securityPreset('djcp3')))).toEqual([]);
    // NIST/ASVS clears composition rules and rotation on purpose (the baselines disagree); nothing else moves.
    expect(policyChanges(strict, applySecurityPreset(strict, securityPreset('nist')))).toEqual([
      { field: 'passwordClasses', label: '密码必须包含', from: '小写字母、大写字母、数字、特殊字符', to: '不限' },
      { field: 'passwordExpiryDays', label: '密码有效期', from: '60 天', to: '永不过期' },
    ]);
  });

  it('keep the classes already required beside the preset’s, and raise a limit only where it is weaker', () => {
    const next = applySecurityPreset(
      { ...current, passwordClasses: ['symbol'], passwordExpiryDays: 180, passwordHistory: 3, sessionMaxConcurrent: 9 },
      securityPreset('djcp3'),
    );
    expect(next).toMatchObject({ passwordClasses: ['lower', 'upper', 'digit', 'symbol'], passwordExpiryDays: 90, passwordHistory: 5 });
    expect(applySecurityPreset({ ...current, sessionMaxConcurrent: 9 }, securityPreset('nist')).sessionMaxConcurrent).toBe(5);
    expect(applySecurityPreset({ ...current, sessionMaxConcurrent: 3 }, securityPreset('nist')).sessionMaxConcurrent).toBe(3);
  });

  it('二次验证: 全员 stays 全员 under 等保三级; 仅管理员 becomes 全员 under NIST/ASVS', () => {
    expect(applySecurityPreset({ ...current, twoFactor: 'all' }, securityPreset('djcp3')).twoFactor).toBe('all');
    expect(applySecurityPreset({ ...current, twoFactor: 'admins' }, securityPreset('djcp3')).twoFactor).toBe('admins');
    expect(applySecurityPreset({ ...current, twoFactor: 'admins' }, securityPreset('nist')).twoFactor).toBe('all');
  });

  it('NIST/ASVS holds an account after at most 10 failures (ASVS 6.3.1)', () => {
    expect(applySecurityPreset({ ...current, lockMaxFailures: 20 }, securityPreset('nist')).lockMaxFailures).toBe(10);
    expect(applySecurityPreset({ ...current, lockMaxFailures: 3 }, securityPreset('nist')).lockMaxFailures).toBe(3);
  });

  it('keep a second factor reachable: 全员 is not lowered, 验证器应用 stays allowed, NIST leaves SMS out; roles and trusted days kept', () => {
    const strict: SecurityPolicy = { ...current, twoFactor: 'all', twoFactorRoles: [7], twoFactorMethods: ['sms'], trustDeviceDays: 14 };
    const djcp = applySecurityPreset(strict, securityPreset('djcp3'));
    expect(djcp).toMatchObject({ twoFactor: 'all', twoFactorRoles: [7], twoFactorMethods: ['totp', 'sms'], trustDeviceDays: 14 });
    expect(securityPolicyProblem(djcp)).toBeUndefined();
    const nist = applySecurityPreset(strict, securityPreset('nist'));
    expect(securityPolicyProblem(nist)).toBeUndefined();
    expect(policyChanges(strict, nist)).toContainEqual({
      field: 'twoFactorMethods',
      label: '允许的验证方式',
      from: '短信验证码',
      to: '验证器应用（TOTP）、通行密钥',
    });
    // Off stays off where a preset leaves two-factor alone: nothing to reach.
    expect(
      applySecurityPreset({ ...current, twoFactorMethods: ['sms'] }, { ...securityPreset('djcp3'), policy: {} }).twoFactorMethods,
    ).toEqual(['sms']);
  });

  it('raises the audit retention to the preset’s minimum and never lowers a longer one', () => {
    for (const preset of SECURITY_PRESETS) {
      expect(applySecurityPreset({ ...current, auditRetentionDays: 365 }, preset).auditRetentionDays, preset.title).toBe(365);
      expect(applySecurityPreset({ ...current, auditRetentionDays: 180 }, preset).auditRetentionDays, preset.title).toBe(180);
      expect(applySecurityPreset(current, preset).auditRetentionDays, preset.title).toBe(preset.auditRetentionDays);
    }
    expect(
      policyChanges(
        { ...current, auditRetentionDays: 365 },
        applySecurityPreset({ ...current, auditRetentionDays: 365 }, securityPreset('djcp3')),
      ).map((c) => c.field),
    ).not.toContain('auditRetentionDays');
  });
});
