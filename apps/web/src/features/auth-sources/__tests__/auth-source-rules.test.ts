import { AD_MAPPING, AuthSourceMessage, type AuthSourceDetail, LDAP_DEFAULTS } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { authSourceInput, authSourceTestInput, editAuthSourceForm, fieldOfMessage, newAuthSourceForm } from '../lib/auth-source-form';
import { AuthSourceRules, isDistinguishedName, isLdapFilter } from '../lib/auth-source-rules';

describe('LDAP filters (RFC 4515)', () => {
  it.each([
    '(objectClass=inetOrgPerson)',
    '(&(objectCategory=person)(objectClass=user))',
    '(|(uid=li*)(cn=*xin)(mail=*@example.com))',
    '(!(userAccountControl:1.2.840.113556.1.4.803:=2))',
    '(cn=Babs J*ensen*)',
    '(uid=*)',
    '(cn=a\\28b\\29)',
    '(o:dn:=Ace Industry)',
    '(:dn:2.4.6.8.10:=Dino)',
    '(createTimestamp>=20260101000000Z)',
    '(cn;lang-zh=李*)',
    '(memberOf=cn=研发中心,ou=groups,dc=hengyue,dc=example)',
  ])('accepts %s', (filter) => expect(isLdapFilter(filter)).toBe(true));

  it.each([
    '',
    'objectClass=person',
    '(objectClass=person',
    '(objectClass=person))',
    '(&)',
    '(uid=a(b)',
    '(uid=\\zz)',
    '(=x)',
    '(ui d=x)',
    '(cn>=a*)',
    '(&(uid=a)x)',
    '(:=x)',
  ])('refuses %s', (filter) => expect(isLdapFilter(filter)).toBe(false));
});

describe('distinguished names (RFC 4514)', () => {
  it.each([
    'ou=people,dc=example,dc=com',
    'ou=people, dc=example, dc=com',
    'cn=Li\\, Xin,ou=rd,dc=hengyue,dc=example',
    'cn=研发中心,ou=groups,dc=hengyue,dc=example',
    'cn=a+uid=b,dc=x',
    '1.3.6.1.4.1.1466.0=#04024869,dc=example',
  ])('accepts %s', (dn) => expect(isDistinguishedName(dn)).toBe(true));

  it.each(['', 'people', 'ou=,dc=x', 'ou=a,,dc=x', '=x', 'ou=a;b', 'ou=a<b'])('refuses %s', (dn) =>
    expect(isDistinguishedName(dn)).toBe(false),
  );
});

describe('AuthSourceRules', () => {
  it('takes ldap:// and ldaps:// addresses with a host and nothing after the port', () => {
    for (const ok of ['ldap://ldap.example.com', 'ldaps://ldap.example.com:636', 'ldap://127.0.0.1:3890', 'LDAP://[::1]:389/'])
      expect(AuthSourceRules.url(ok)).toBeUndefined();
    for (const bad of [
      'ldap://',
      'http://ldap.example.com',
      'ldap.example.com',
      'ldap://h:99999',
      'ldap://h/dc=x',
      'ldap://u:p@h',
      'ldap://h?x',
    ])
      expect(AuthSourceRules.url(bad)).toBe(AuthSourceMessage.urlInvalid);
  });

  it('refuses StartTLS on ldaps:// and needs a DN for the bind account unless AD 域 allows user@domain', () => {
    expect(AuthSourceRules.startTls(true, 'ldaps://h')).toBe(AuthSourceMessage.startTlsWithLdaps);
    expect(AuthSourceRules.startTls(true, 'ldap://h')).toBeUndefined();
    expect(AuthSourceRules.bindDn('', '')).toBe(AuthSourceMessage.bindDnRequired);
    expect(AuthSourceRules.bindDn('admin@corp.example.com', '')).toBe(AuthSourceMessage.dnInvalid);
    expect(AuthSourceRules.bindDn('admin@corp.example.com', 'corp.example.com')).toBeUndefined();
    expect(AuthSourceRules.bindDn('CORP\\admin', 'corp.example.com')).toBeUndefined();
    expect(AuthSourceRules.bindDn('cn=admin,dc=example,dc=com', '')).toBeUndefined();
  });

  it('needs a username attribute; groups only when a 组基准 DN is set; the secret only while none is stored', () => {
    expect(AuthSourceRules.usernameAttribute(' ')).toBe(AuthSourceMessage.usernameAttributeRequired);
    expect(AuthSourceRules.usernameAttribute('s AMAccountName')).toBe(AuthSourceMessage.attributeInvalid);
    expect(AuthSourceRules.attribute('')).toBeUndefined();
    expect(AuthSourceRules.attribute('mail;x')).toBe(AuthSourceMessage.attributeInvalid);
    expect(AuthSourceRules.groupFilter('', '')).toBeUndefined();
    expect(AuthSourceRules.groupFilter('', 'ou=groups,dc=x')).toBe(AuthSourceMessage.groupFilterInvalid);
    expect(AuthSourceRules.adDomain('corp')).toBe(AuthSourceMessage.domainInvalid);
    expect(AuthSourceRules.adDomain('corp.example.com')).toBeUndefined();
    expect(AuthSourceRules.secret('', false)).toBe(AuthSourceMessage.secretRequired);
    expect(AuthSourceRules.secret('', true)).toBeUndefined();
    expect(AuthSourceRules.secret('x'.repeat(201), true)).toBe(AuthSourceMessage.secretTooLong);
    expect(AuthSourceRules.name('  ')).toBe(AuthSourceMessage.nameRequired);
    expect(AuthSourceRules.name('名'.repeat(33))).toBe(AuthSourceMessage.nameTooLong);
  });
});

describe('the form and the bodies it sends', () => {
  const stored: AuthSourceDetail = {
    id: 3,
    type: 'ldap',
    name: '恒岳目录',
    enabled: true,
    hasSecret: true,
    callbackUrl: null,
    updatedAt: '2026-11-20 09:30:00',
    config: { ...LDAP_DEFAULTS, url: 'ldaps://ldap.hengyue.example', mapping: { ...AD_MAPPING }, adDomain: 'hengyue.example' },
  };

  it('starts an edit from the stored settings with an empty secret, and leaves an empty secret out of the body', () => {
    const form = editAuthSourceForm(stored);
    expect(form.secret).toBe('');
    expect(form.ldap.mapping).toEqual(AD_MAPPING);
    const body = authSourceInput('ldap', { ...form, name: ' 恒岳 AD ' });
    expect(body).not.toHaveProperty('secret');
    expect(body).toMatchObject({ type: 'ldap', name: '恒岳 AD', config: { url: 'ldaps://ldap.hengyue.example', startTls: false } });
    expect(authSourceTestInput('ldap', form, 3)).toEqual({ type: 'ldap', config: body.config, id: 3 });
    expect(authSourceTestInput('ldap', { ...form, secret: ' s3cret ' }, 3)).toMatchObject({ id: 3, secret: ' s3cret ' });
  });

  it('sends only the settings of the source type, trimmed', () => {
    const form = { ...newAuthSourceForm('wecom'), wecom: { corpId: ' ww123 ', agentId: '1000002' }, secret: 'abc' };
    expect(form.name).toBe('企业微信');
    expect(authSourceInput('wecom', form)).toEqual({
      type: 'wecom',
      name: '企业微信',
      enabled: true,
      secret: 'abc',
      config: { corpId: 'ww123', agentId: '1000002' },
    });
  });

  it('names the field of a server refusal', () => {
    expect(fieldOfMessage('ldap', AuthSourceMessage.filterInvalid)).toEqual(['ldap', 'userFilter']);
    expect(fieldOfMessage('dingtalk', AuthSourceMessage.corpIdRequired)).toEqual(['dingtalk', 'corpId']);
    expect(fieldOfMessage('ldap', AuthSourceMessage.nameTaken)).toBe('name');
    expect(fieldOfMessage('ldap', AuthSourceMessage.inUse)).toBeUndefined();
  });
});
