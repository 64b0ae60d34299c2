import { describe, expect, it } from 'vitest';
import {
  AD_MAPPING,
  AUTH_SOURCE_NAME_MAX,
  AuthSourceMessage,
  AuthSourceRules,
  LDAP_DEFAULTS,
  LDAP_TEXT_MAX,
  type LdapSourceConfig,
  SECRET_MAX,
} from '../auth-sources.js';

const valid: LdapSourceConfig = {
  ...LDAP_DEFAULTS,
  url: 'ldap://ldap.hengyue.com:389',
  bindDn: 'cn=portal-reader,ou=services,dc=hengyue,dc=com',
  baseDn: 'ou=people,dc=hengyue,dc=com',
  groupBaseDn: 'ou=groups,dc=hengyue,dc=com',
};
const ldap = (overrides: Partial<LdapSourceConfig> = {}) => ({ type: 'ldap' as const, config: { ...valid, ...overrides } });
const mapping = (overrides: Partial<LdapSourceConfig['mapping']>) => ({ mapping: { ...valid.mapping, ...overrides } });
const tooLong = 'x'.repeat(LDAP_TEXT_MAX + 1);

describe('AuthSourceRules', () => {
  it('names: required, at most AUTH_SOURCE_NAME_MAX characters', () => {
    expect(AuthSourceRules.name(' ')).toBe(AuthSourceMessage.nameRequired);
    expect(AuthSourceRules.name('目'.repeat(AUTH_SOURCE_NAME_MAX))).toBeUndefined();
    expect(AuthSourceRules.name('目'.repeat(AUTH_SOURCE_NAME_MAX + 1))).toBe(AuthSourceMessage.nameTooLong);
  });

  it('secrets: kept as typed, required unless one is stored; bounded', () => {
    expect(AuthSourceRules.secret('', false)).toBe(AuthSourceMessage.secretRequired);
    expect(AuthSourceRules.secret('', true)).toBeUndefined();
    expect(AuthSourceRules.secret(' ', false)).toBeUndefined();
    expect(AuthSourceRules.secret('s'.repeat(SECRET_MAX + 1), true)).toBe(AuthSourceMessage.secretTooLong);
  });

  it('地址 and StartTLS: ldap:// or ldaps:// with a host; StartTLS only on ldap://', () => {
    expect(AuthSourceRules.url('ldaps://dc1.corp.example.com')).toBeUndefined();
    for (const bad of [LDAP_DEFAULTS.url, 'ldap.hengyue.com', 'ldap://h/dc=x', tooLong]) {
      expect(AuthSourceRules.url(bad), bad).toBe(bad === tooLong ? AuthSourceMessage.ldapTextTooLong : AuthSourceMessage.urlInvalid);
    }
    expect(AuthSourceRules.startTls(true, 'LDAPS://h')).toBe(AuthSourceMessage.startTlsWithLdaps);
    expect(AuthSourceRules.startTls(true, 'ldap://h')).toBeUndefined();
    expect(AuthSourceRules.startTls(false, 'ldaps://h')).toBeUndefined();
  });

  it('绑定账号: a DN, or with an AD 域 also user@domain and DOMAIN\\user', () => {
    expect(AuthSourceRules.bindDn(' ', '')).toBe(AuthSourceMessage.bindDnRequired);
    expect(AuthSourceRules.bindDn('cn=admin,dc=example,dc=com', '')).toBeUndefined();
    expect(AuthSourceRules.bindDn('portal-reader', '')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.bindDn('admin@corp.example.com', '')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.bindDn('admin@corp.example.com', 'corp.example.com')).toBeUndefined();
    // A forest's other UPN suffix is a name AD binds too.
    expect(AuthSourceRules.bindDn('admin@example.com', 'corp.example.com')).toBeUndefined();
    expect(AuthSourceRules.bindDn('CORP\\admin', 'corp.example.com')).toBeUndefined();
    expect(AuthSourceRules.bindDn('CORP\\admin', '')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.bindDn('admin', 'corp.example.com')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.bindDn(tooLong, '')).toBe(AuthSourceMessage.ldapTextTooLong);
  });

  it('DNs, filters, attributes and AD 域 by their syntax; groups only when a 组基准 DN is set', () => {
    expect(AuthSourceRules.baseDn('')).toBe(AuthSourceMessage.baseDnRequired);
    expect(AuthSourceRules.baseDn('people')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.userFilter('')).toBe(AuthSourceMessage.filterInvalid);
    expect(AuthSourceRules.userFilter('(objectClass=inetOrgPerson')).toBe(AuthSourceMessage.filterInvalid);
    expect(AuthSourceRules.userFilter('objectClass=inetOrgPerson')).toBeUndefined();
    expect(AuthSourceRules.adDomain('')).toBeUndefined();
    expect(AuthSourceRules.adDomain('corp')).toBe(AuthSourceMessage.domainInvalid);
    expect(AuthSourceRules.adDomain(' corp.example.com ')).toBeUndefined();
    expect(AuthSourceRules.usernameAttribute(' ')).toBe(AuthSourceMessage.usernameAttributeRequired);
    expect(AuthSourceRules.usernameAttribute('s AMAccountName')).toBe(AuthSourceMessage.attributeInvalid);
    expect(AuthSourceRules.attribute('')).toBeUndefined();
    expect(AuthSourceRules.attribute('mail;x')).toBe(AuthSourceMessage.attributeInvalid);
    expect(AuthSourceRules.groupBaseDn('')).toBeUndefined();
    expect(AuthSourceRules.groupBaseDn('groups')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.groupFilter('', '')).toBeUndefined();
    expect(AuthSourceRules.groupFilter('', 'ou=groups,dc=x')).toBe(AuthSourceMessage.groupFilterInvalid);
    // A filter typed is checked even while no groups are read: it is kept for when they are.
    expect(AuthSourceRules.groupFilter('(objectClass=group', '')).toBe(AuthSourceMessage.groupFilterInvalid);
  });

  it('LDAP settings: the first problem, in the form’s order', () => {
    expect(AuthSourceRules.config(ldap())).toBeUndefined();
    expect(AuthSourceRules.config(ldap({ startTls: true }))).toBeUndefined();
    expect(AuthSourceRules.config(ldap({ adDomain: 'corp.example.com', mapping: AD_MAPPING, bindDn: 'CORP\\svc' }))).toBeUndefined();
    // Without groups their filter is not needed.
    expect(AuthSourceRules.config(ldap({ groupBaseDn: '', groupFilter: '' }))).toBeUndefined();
    const cases: [Partial<LdapSourceConfig>, string][] = [
      [{ url: 'ldap.hengyue.com', bindDn: '' }, AuthSourceMessage.urlInvalid],
      [{ url: 'ldaps://ldap.hengyue.com', startTls: true, bindDn: '' }, AuthSourceMessage.startTlsWithLdaps],
      [{ bindDn: ' ', baseDn: '' }, AuthSourceMessage.bindDnRequired],
      [{ bindDn: 'portal-reader', baseDn: '' }, AuthSourceMessage.dnInvalid],
      [{ baseDn: '', userFilter: '' }, AuthSourceMessage.baseDnRequired],
      [{ baseDn: 'people' }, AuthSourceMessage.dnInvalid],
      [{ userFilter: '(objectClass=inetOrgPerson', adDomain: 'corp' }, AuthSourceMessage.filterInvalid],
      [{ adDomain: 'corp..example', ...mapping({ username: '' }) }, AuthSourceMessage.domainInvalid],
      [mapping({ username: '' }), AuthSourceMessage.usernameAttributeRequired],
      [mapping({ phone: 'tele phone' }), AuthSourceMessage.attributeInvalid],
      [{ groupBaseDn: 'groups' }, AuthSourceMessage.dnInvalid],
      [{ groupFilter: 'objectClass=groupOfNames)(' }, AuthSourceMessage.groupFilterInvalid],
      [{ groupFilter: tooLong }, AuthSourceMessage.ldapTextTooLong],
    ];
    for (const [overrides, message] of cases) expect(AuthSourceRules.config(ldap(overrides)), JSON.stringify(overrides)).toBe(message);
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
