/**
 * LDAP search filters the form's and the server's rule (isLdapFilter) is tested against; the server's
 * tests also send every valid one through its LDAP client's parser, which must take it.
 */
export const LDAP_FILTER_CORPUS: { valid: readonly string[]; invalid: readonly string[] } = {
  valid: [
    '(objectClass=inetOrgPerson)',
    '(&(objectCategory=person)(objectClass=user))',
    '(&(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
    '(|(uid=li*)(cn=*xin)(mail=*@example.com))',
    '(|(ou=研发中心)(cn=李*))',
    '(cn=Babs J*ensen*)',
    '(uid=*)',
    '(cn=a\\28b\\29)',
    '(mail=\\2a@hengyue.com)',
    '(o:dn:=Ace Industry)',
    '(:dn:2.4.6.8.10:=Dino)',
    '(cn:caseExactMatch:=Fred)',
    '(createTimestamp>=20260101000000Z)',
    '(memberOf=cn=研发中心,ou=groups,dc=hengyue,dc=example)',
    '(uid=x )',
    // Without the outer parentheses, as ldapsearch takes it (ldapFilterText adds them).
    'objectClass=person',
    '&(objectClass=person)(uid=a*)',
  ],
  invalid: [
    '',
    '   ',
    '(objectClass=inetOrgPerson',
    '(objectClass=person))',
    '(uid=a)(uid=b)',
    '(&(uid=a)',
    '(&(uid=a)x)',
    '(!(uid=a)(uid=b))',
    '((uid=a))',
    '(&)',
    '(|)',
    '(uid~a)',
    '(=a)',
    '( uid=a)',
    '(ui d=x)',
    '(uid=a(b)',
    '(uid=\\zz)',
    '(cn=a\\)',
    '(cn>=a*)',
    '(cn~=a*)',
    '(:=x)',
    '(:dn:=x)',
    '(cn::=x)',
    '(cn:dn:rule:extra:=x)',
    'objectClass=groupOfNames)(',
    // Attribute options and numeric OIDs as attribute types: RFC 4515 takes them, the server's LDAP client cannot send them.
    '(cn;lang-zh=李*)',
    '(2.5.4.3=x)',
    // Attribute names begin with a letter (RFC 4512 §1.4 descr).
    '(1uid=x)',
    '(_uid=x)',
  ],
};
