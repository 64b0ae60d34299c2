import type { LdapEntry } from './slapd.js';

/**
 * The directory of 徐州恒岳重工机械有限公司 as its IT department keeps it in OpenLDAP: people in one OU per
 * department, groupOfNames groups, and a read-only service account for the portal. Tests and the
 * browser journey start slapd with it (testing/slapd.ts).
 */
export const HENGYUE_SUFFIX = 'dc=hengyue,dc=com';
export const HENGYUE_PEOPLE = `ou=people,${HENGYUE_SUFFIX}`;
export const HENGYUE_GROUPS = `ou=groups,${HENGYUE_SUFFIX}`;
/** The portal's service bind account. */
export const HENGYUE_BIND_DN = `cn=portal-reader,ou=services,${HENGYUE_SUFFIX}`;
export const HENGYUE_BIND_PASSWORD = 'Reader#2026';

export interface FixturePerson {
  uid: string;
  cn: string;
  ou: 'rd' | 'production' | 'sales';
  mobile: string;
  mail: string;
  password: string;
}

/** Directory passwords are the people's own (never the portal's demo password). */
export const HENGYUE_PEOPLE_LIST: FixturePerson[] = [
  { uid: 'lixin', cn: '李鑫', ou: 'rd', mobile: '13910000001', mail: 'lixin@hengyue.com', password: 'Ldap@Lixin1' },
  { uid: 'zhaomin', cn: '赵敏', ou: 'rd', mobile: '13910000002', mail: 'zhaomin@hengyue.com', password: 'Ldap@Zhaomin1' },
  { uid: 'qianlei', cn: '钱磊', ou: 'production', mobile: '13910000003', mail: 'qianlei@hengyue.com', password: 'Ldap@Qianlei1' },
  { uid: 'sunli', cn: '孙丽', ou: 'production', mobile: '13910000004', mail: 'sunli@hengyue.com', password: 'Ldap@Sunli1' },
  { uid: 'zhoutao', cn: '周涛', ou: 'sales', mobile: '13910000005', mail: 'zhoutao@hengyue.com', password: 'Ldap@Zhoutao1' },
];

export const personDn = (p: Pick<FixturePerson, 'uid' | 'ou'>) => `uid=${p.uid},ou=${p.ou},${HENGYUE_PEOPLE}`;

const OU_NAMES = { rd: '研发中心', production: '生产制造部', sales: '销售部' } as const;

export function hengyueDirectory(people: readonly FixturePerson[] = HENGYUE_PEOPLE_LIST): LdapEntry[] {
  const entries: LdapEntry[] = [
    { dn: HENGYUE_SUFFIX, attributes: { objectClass: ['top', 'dcObject', 'organization'], dc: 'hengyue', o: '徐州恒岳重工机械有限公司' } },
    { dn: `ou=services,${HENGYUE_SUFFIX}`, attributes: { objectClass: 'organizationalUnit', ou: 'services' } },
    {
      dn: HENGYUE_BIND_DN,
      attributes: {
        objectClass: ['person', 'simpleSecurityObject'],
        cn: 'portal-reader',
        sn: 'portal',
        userPassword: HENGYUE_BIND_PASSWORD,
      },
    },
    { dn: HENGYUE_PEOPLE, attributes: { objectClass: 'organizationalUnit', ou: 'people' } },
    ...Object.entries(OU_NAMES).map(([ou, description]) => ({
      dn: `ou=${ou},${HENGYUE_PEOPLE}`,
      attributes: { objectClass: 'organizationalUnit', ou, description },
    })),
    ...people.map((p) => ({
      dn: personDn(p),
      attributes: {
        objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
        uid: p.uid,
        cn: p.cn,
        sn: p.cn.slice(0, 1),
        givenName: p.cn.slice(1),
        mobile: p.mobile,
        mail: p.mail,
        userPassword: p.password,
      },
    })),
    { dn: HENGYUE_GROUPS, attributes: { objectClass: 'organizationalUnit', ou: 'groups' } },
  ];
  for (const [ou, name] of Object.entries(OU_NAMES)) {
    const members = people.filter((p) => p.ou === ou).map(personDn);
    // groupOfNames needs at least one member (RFC 4519 §3.5).
    if (members.length)
      entries.push({ dn: `cn=${name},${HENGYUE_GROUPS}`, attributes: { objectClass: 'groupOfNames', cn: name, member: members } });
  }
  return entries;
}
