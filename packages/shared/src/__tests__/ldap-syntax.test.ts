import { describe, expect, it } from 'vitest';
import { LDAP_FILTER_CORPUS } from '../ldap-filter-corpus.js';
import {
  isAdBindName,
  isAttributeName,
  isDistinguishedName,
  isDnsDomain,
  isLdapFilter,
  ldapFilterText,
  parseDnAva,
  parseLdapUrl,
  splitDn,
} from '../ldap-syntax.js';

describe('LDAP filters (RFC 4515)', () => {
  it.each(LDAP_FILTER_CORPUS.valid)('takes %j', (filter) => expect(isLdapFilter(filter)).toBe(true));
  it.each(LDAP_FILTER_CORPUS.invalid)('refuses %j', (filter) => expect(isLdapFilter(filter)).toBe(false));

  it('sends a filter inside its outer parentheses, trimmed', () => {
    expect(ldapFilterText(' objectClass=person ')).toBe('(objectClass=person)');
    expect(ldapFilterText('(uid=a) ')).toBe('(uid=a)');
    expect(ldapFilterText('&(a=b)(c=d)')).toBe('(&(a=b)(c=d))');
  });
});

describe('distinguished names (RFC 4514)', () => {
  it.each([
    'ou=people,dc=hengyue,dc=com',
    'ou=people, dc=hengyue, dc=com',
    ' ou = people , dc=hengyue ',
    'cn=研发中心,ou=groups,dc=hengyue,dc=com',
    'CN=Smith\\, John,OU=Users,DC=corp,DC=example,DC=com',
    'cn=Li\\2C Xin,ou=rd,dc=hengyue,dc=example',
    'cn=a+sn=b,dc=x',
    'cn=a=b,dc=x',
    'cn=\\#1,dc=x',
    'cn=trailing\\ ,dc=x',
    '2.5.4.3=x,dc=y',
    '1.3.6.1.4.1.1466.0=#04024869,dc=example',
  ])('takes %j', (dn) => expect(isDistinguishedName(dn)).toBe(true));

  it.each([
    '',
    ' ',
    'people',
    'ou=people,',
    ',dc=com',
    'ou=,dc=com',
    'ou=a,,dc=x',
    '=x',
    'cn=a,b,dc=x',
    'cn="q",dc=x',
    'ou=a;b',
    'ou=a<b',
    'cn=a\\zz,dc=x',
    'cn=a\\',
    'cn=#abc,dc=x',
    '01.2=x',
    'cn;lang-zh=a,dc=x',
  ])('refuses %j', (dn) => expect(isDistinguishedName(dn)).toBe(false));

  it('splits at the separators that are not escaped, and reads each assertion', () => {
    expect(splitDn('cn=a\\,b+sn=c, ou=d')).toEqual([['cn=a\\,b', 'sn=c'], [' ou=d']]);
    expect(splitDn('cn=a\\')).toBeUndefined();
    expect(parseDnAva(' CN = Li\\ ')).toEqual({ type: 'CN', value: 'Li\\ ' });
    expect(parseDnAva('cn')).toBeUndefined();
  });
});

describe('LDAP addresses (RFC 4516 scheme, host and port)', () => {
  it('reads the scheme, the host and the port, with the default ports', () => {
    expect(parseLdapUrl('ldap://ldap.hengyue.com')).toEqual({ secure: false, host: 'ldap.hengyue.com', port: 389 });
    expect(parseLdapUrl(' ldaps://ldap.hengyue.com:6360/ ')).toEqual({ secure: true, host: 'ldap.hengyue.com', port: 6360 });
    expect(parseLdapUrl('LDAPS://dc01')).toEqual({ secure: true, host: 'dc01', port: 636 });
    expect(parseLdapUrl('ldap://10.0.0.5:389')).toEqual({ secure: false, host: '10.0.0.5', port: 389 });
    expect(parseLdapUrl('ldap://[::1]:3890')).toEqual({ secure: false, host: '::1', port: 3890 });
  });

  it.each([
    'ldap://',
    'ldap://:389',
    'http://ldap.hengyue.com',
    'ldap.hengyue.com',
    'ldap://host:0',
    'ldap://host:70000',
    'ldap://host/dc=x',
    'ldap://h?x',
    'ldap://u:p@h',
    'ldap://a..b',
    'ldap://-a.example.com',
    'ldap://ldap host',
    'ldap://[]:389',
    'ldap://[zz]:389',
  ])('refuses %j', (url) => expect(parseLdapUrl(url)).toBeUndefined());
});

describe('attribute names, domains and AD bind names', () => {
  it('attribute names are RFC 4512 descr: a letter, then letters, digits and hyphens', () => {
    expect(['uid', 'sAMAccountName', 'x-custom-id', 'mail2'].every(isAttributeName)).toBe(true);
    expect(['', '1uid', '-uid', 'cn;lang-en', 'mail address', '2.5.4.3', 'u_id'].some(isAttributeName)).toBe(false);
  });

  it('domains have two labels or more', () => {
    expect(['corp.example.com', 'hengyue.example', 'a-1.b2.cn'].every(isDnsDomain)).toBe(true);
    expect(['corp', 'corp..example', '-corp.example', 'corp.example-', 'corp_x.example', `${'a'.repeat(64)}.com`].some(isDnsDomain)).toBe(
      false,
    );
  });

  it('AD takes user@domain and DOMAIN\\user as bind names', () => {
    expect(['admin@corp.example.com', 'svc.reader@example.com', 'CORP\\admin', 'HENGYUE-01\\svc.reader'].every(isAdBindName)).toBe(true);
    expect(
      ['admin', 'admin@corp', 'a@b@corp.example.com', 'ad min@corp.example.com', 'TOOLONGNETBIOSNAME\\admin', 'CORP\\', '\\admin'].some(
        isAdBindName,
      ),
    ).toBe(false);
  });
});
