import { describe, expect, it } from 'vitest';
import { AUTH_SOURCE_NAME_MAX, AuthSourceMessage, AuthSourceRules, LDAP_DEFAULTS, SECRET_MAX } from '../auth-sources.js';

const ldap = (overrides: Partial<typeof LDAP_DEFAULTS> = {}) => ({
  type: 'ldap' as const,
  config: {
    ...LDAP_DEFAULTS,
    url: 'ldap://ldap.example.com:389',
    bindDn: 'cn=reader,dc=example,dc=com',
    baseDn: 'dc=example,dc=com',
    ...overrides,
  },
});

describe('AuthSourceRules', () => {
  it('names: required, at most AUTH_SOURCE_NAME_MAX characters', () => {
    expect(AuthSourceRules.name(' ')).toBe(AuthSourceMessage.nameRequired);
    expect(AuthSourceRules.name('目'.repeat(AUTH_SOURCE_NAME_MAX))).toBeUndefined();
    expect(AuthSourceRules.name('目'.repeat(AUTH_SOURCE_NAME_MAX + 1))).toBe(AuthSourceMessage.nameTooLong);
  });

  it('secrets: required unless one is stored; bounded', () => {
    expect(AuthSourceRules.secret('', false)).toBe(AuthSourceMessage.secretRequired);
    expect(AuthSourceRules.secret('', true)).toBeUndefined();
    expect(AuthSourceRules.secret('s'.repeat(SECRET_MAX + 1), true)).toBe(AuthSourceMessage.secretTooLong);
  });

  it('LDAP settings in the form order', () => {
    expect(AuthSourceRules.config(ldap())).toBeUndefined();
    expect(AuthSourceRules.config(ldap({ url: 'ldaps://ldap.example.com', startTls: true }))).toBe(AuthSourceMessage.startTlsWithLdaps);
    expect(AuthSourceRules.config(ldap({ bindDn: '' }))).toBe(AuthSourceMessage.bindDnRequired);
    expect(AuthSourceRules.config(ldap({ baseDn: ' ' }))).toBe(AuthSourceMessage.baseDnRequired);
    expect(AuthSourceRules.config(ldap({ mapping: { ...LDAP_DEFAULTS.mapping, username: '' } }))).toBe(
      AuthSourceMessage.usernameAttributeRequired,
    );
    expect(AuthSourceRules.config(ldap({ adDomain: 'corp.example.com' }))).toBeUndefined();
    expect(AuthSourceRules.config(ldap({ adDomain: 'corp' }))).toBe(AuthSourceMessage.domainInvalid);
    expect(AuthSourceRules.config(ldap({ groupFilter: 'x'.repeat(501) }))).toBe(AuthSourceMessage.ldapTextTooLong);
  });

  it('chat platforms: their identifiers', () => {
    expect(AuthSourceRules.config({ type: 'wecom', config: { corpId: 'ww1', agentId: '1000002' } })).toBeUndefined();
    expect(AuthSourceRules.config({ type: 'wecom', config: { corpId: '', agentId: '1000002' } })).toBe(AuthSourceMessage.corpIdRequired);
    expect(AuthSourceRules.config({ type: 'wecom', config: { corpId: 'ww1', agentId: 'x1' } })).toBe(AuthSourceMessage.agentIdInvalid);
    expect(AuthSourceRules.config({ type: 'dingtalk', config: { appKey: '', corpId: 'ding1' } })).toBe(AuthSourceMessage.appKeyRequired);
    expect(AuthSourceRules.config({ type: 'dingtalk', config: { appKey: 'k', corpId: '' } })).toBe(AuthSourceMessage.corpIdRequired);
    expect(AuthSourceRules.config({ type: 'feishu', config: { appId: 'c'.repeat(65) } })).toBe(AuthSourceMessage.chatIdTooLong);
  });
});
