import { AD_MAPPING, AuthSourceMessage, LDAP_DEFAULTS, type LdapSourceConfig } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { toDirectoryUser } from '../ldap/ldap-entries.js';
import { isValidAttributeName, isValidDn, isValidLdapFilter, isValidLdapUrl, ldapConfigProblem } from '../ldap/ldap-validation.js';

const valid: LdapSourceConfig = {
  ...LDAP_DEFAULTS,
  url: 'ldap://ldap.hengyue.com:389',
  bindDn: 'cn=portal-reader,ou=services,dc=hengyue,dc=com',
  baseDn: 'ou=people,dc=hengyue,dc=com',
  groupBaseDn: 'ou=groups,dc=hengyue,dc=com',
};

/** The LDAP form's rules (issue 19, "Bad input"), answered with the console's messages. */
describe('LDAP source settings', () => {
  it('takes RFC 4515 filters and refuses what is not one', () => {
    for (const filter of [
      '(objectClass=inetOrgPerson)',
      '(&(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
      '(|(ou=研发中心)(cn=李*))',
      'objectClass=person',
      '(mail=\\2a@hengyue.com)',
    ]) {
      expect(isValidLdapFilter(filter), filter).toBe(true);
    }
    for (const filter of [
      '',
      '(objectClass=inetOrgPerson',
      '(uid=a))',
      '(uid=a)(uid=b)',
      '(uid~a)',
      '(=a)',
      '(uid=a(b)',
      '(uid=\\zz)',
      '(&)',
    ]) {
      expect(isValidLdapFilter(filter), filter).toBe(false);
    }
  });

  it('takes RFC 4514 DNs and refuses what is not one', () => {
    for (const dn of [
      'ou=people,dc=hengyue,dc=com',
      'ou=people, dc=hengyue, dc=com',
      'cn=研发中心,ou=groups,dc=hengyue,dc=com',
      'CN=Smith\\, John,OU=Users,DC=corp,DC=example,DC=com',
      'cn=a+sn=b,dc=x',
      '2.5.4.3=x,dc=y',
    ]) {
      expect(isValidDn(dn), dn).toBe(true);
    }
    for (const dn of ['', 'people', 'ou=people,', ',dc=com', 'ou=,dc=com', 'cn=a,b,dc=x', 'cn="q",dc=x', 'cn=a\\zz,dc=x', 'cn=a\\']) {
      expect(isValidDn(dn), dn).toBe(false);
    }
  });

  it('takes ldap:// and ldaps:// addresses with a host and an optional port', () => {
    for (const url of ['ldap://ldap.hengyue.com', 'ldaps://ldap.hengyue.com:636', 'ldap://10.0.0.5:389', 'ldap://[::1]:389']) {
      expect(isValidLdapUrl(url), url).toBe(true);
    }
    for (const url of [
      'ldap://',
      'http://ldap.hengyue.com',
      'ldap://host:0',
      'ldap://host:70000',
      'ldap://host/dc=x',
      'ldap.hengyue.com',
    ]) {
      expect(isValidLdapUrl(url), url).toBe(false);
    }
  });

  it('attribute names are letters, digits and hyphens', () => {
    expect(['uid', 'sAMAccountName', 'x-custom-id'].every(isValidAttributeName)).toBe(true);
    expect(['', '1uid', 'cn;lang-en', 'mail address'].some(isValidAttributeName)).toBe(false);
  });

  it('answers the first problem of a form in the console’s words', () => {
    expect(ldapConfigProblem(valid)).toBeUndefined();
    expect(ldapConfigProblem({ ...valid, url: 'ldap.hengyue.com' })).toBe(AuthSourceMessage.urlInvalid);
    expect(ldapConfigProblem({ ...valid, url: 'ldaps://ldap.hengyue.com', startTls: true })).toBe(AuthSourceMessage.startTlsWithLdaps);
    expect(ldapConfigProblem({ ...valid, startTls: true })).toBeUndefined();
    expect(ldapConfigProblem({ ...valid, bindDn: ' ' })).toBe(AuthSourceMessage.bindDnRequired);
    expect(ldapConfigProblem({ ...valid, baseDn: '' })).toBe(AuthSourceMessage.baseDnRequired);
    expect(ldapConfigProblem({ ...valid, baseDn: 'people' })).toBe(AuthSourceMessage.dnInvalid);
    expect(ldapConfigProblem({ ...valid, userFilter: '(objectClass=inetOrgPerson' })).toBe(AuthSourceMessage.filterInvalid);
    expect(ldapConfigProblem({ ...valid, mapping: { ...valid.mapping, username: '' } })).toBe(AuthSourceMessage.usernameAttributeRequired);
    expect(ldapConfigProblem({ ...valid, mapping: { ...valid.mapping, phone: 'tele phone' } })).toBe(AuthSourceMessage.attributeInvalid);
    expect(ldapConfigProblem({ ...valid, mapping: { ...valid.mapping, phone: '' } })).toBeUndefined();
    expect(ldapConfigProblem({ ...valid, adDomain: 'corp..example' })).toBe(AuthSourceMessage.domainInvalid);
    expect(ldapConfigProblem({ ...valid, adDomain: 'corp.example.com', mapping: AD_MAPPING })).toBeUndefined();
    expect(ldapConfigProblem({ ...valid, groupFilter: 'objectClass=groupOfNames)' })).toBe(AuthSourceMessage.groupFilterInvalid);
    // Without a group base DN there are no groups, and their filter is not used.
    expect(ldapConfigProblem({ ...valid, groupBaseDn: '', groupFilter: '' })).toBeUndefined();
  });
});

describe('Active Directory entries', () => {
  const ad: LdapSourceConfig = { ...valid, adDomain: 'corp.example.com', mapping: AD_MAPPING };
  // objectGUID {3f2504e0-4f89-11d3-9a0c-0305e82c3301} as AD stores it: the first three groups little-endian.
  const guid = Buffer.from('e004253f894fd3119a0c0305e82c3301', 'hex');
  const entry = (userAccountControl: string) => ({
    dn: 'CN=Li Xin,OU=R&D,DC=corp,DC=example,DC=com',
    objectGUID: guid,
    sAMAccountName: 'lixin',
    displayName: '李鑫',
    mobile: '13910000001',
    mail: 'lixin@corp.example.com',
    userAccountControl,
  });

  it('identifies a user by objectGUID as Windows writes it, and reads userAccountControl bit 2 as disabled', () => {
    expect(toDirectoryUser(entry('512'), ad)).toEqual({
      externalId: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      username: 'lixin',
      name: '李鑫',
      phone: '13910000001',
      email: 'lixin@corp.example.com',
      dn: 'CN=Li Xin,OU=R&D,DC=corp,DC=example,DC=com',
      location: 'OU=R&D,DC=corp,DC=example,DC=com',
      groupIds: [],
      active: true,
    });
    expect(toDirectoryUser(entry('514'), ad).active).toBe(false);
    expect(toDirectoryUser(entry('66050'), ad).active).toBe(false);
    expect(toDirectoryUser(entry('66048'), ad).active).toBe(true);
  });
});
