import { AD_MAPPING, LDAP_DEFAULTS, LDAP_FILTER_CORPUS, type LdapSourceConfig, isLdapFilter, ldapFilterText } from '@portal/shared';
import { FilterParser } from 'ldapts';
import { describe, expect, it } from 'vitest';
import { normalizeDn, parentDn } from '../ldap/ldap-dn.js';
import { toDirectoryUser } from '../ldap/ldap-entries.js';

const sendable = (filter: string) => {
  try {
    FilterParser.parseString(filter);
    return true;
  } catch {
    return false;
  }
};

/**
 * The settings' syntax is the shared rules' (AuthSourceRules, ldap-syntax); what the server adds is
 * that its LDAP client (ldapts) can send every filter they take, so no filter check of its own stands
 * between a saved source and its searches.
 */
describe('LDAP filters as the server sends them', () => {
  it('every filter the rules take parses in the LDAP client, with its outer parentheses', () => {
    for (const filter of LDAP_FILTER_CORPUS.valid) {
      expect(isLdapFilter(filter), filter).toBe(true);
      expect(sendable(ldapFilterText(filter)), filter).toBe(true);
    }
  });
});

describe('DNs the directory answers', () => {
  it('compares two spellings of one entry and finds where it sits', () => {
    expect(normalizeDn('CN=Li\\, Xin , OU=RD+l=XZ,DC=Hengyue')).toBe(normalizeDn('cn=li\\, xin,l=xz+ou=rd,dc=hengyue'));
    expect(normalizeDn('cn=trailing\\ ,dc=x')).toBe('cn=trailing\\ ,dc=x');
    expect(parentDn('cn=Li\\, Xin, ou=rd,dc=x')).toBe('ou=rd,dc=x');
    expect(parentDn('dc=x')).toBe('');
  });
});

describe('Active Directory entries', () => {
  const ad: LdapSourceConfig = { ...LDAP_DEFAULTS, adDomain: 'corp.example.com', mapping: AD_MAPPING };
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
