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
      { field: 'passwordMinLength', label: '密码最短长度', from: '10 位', to: '8 位' },
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
