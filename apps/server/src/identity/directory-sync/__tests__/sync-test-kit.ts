import { LDAP_DEFAULTS, type LdapSourceConfig } from '@portal/shared';
import { Attribute, Change, Client } from 'ldapts';
import type { DialectName } from '../../../platform/db/database.js';
import { HENGYUE_BIND_DN, HENGYUE_BIND_PASSWORD, HENGYUE_GROUPS, HENGYUE_PEOPLE } from '../../../testing/ldap-fixture.js';
import type { SlapdServer } from '../../../testing/slapd.js';
import { createTestApp, type TestApp } from '../../../testing/test-app.js';

export const HENGYUE = '徐州恒岳重工机械有限公司';
export const RUICHI = '常州瑞驰液压科技有限公司';
/** People whose entry carries employeeType=left fall out of the user filter: how this directory marks leavers. */
export const USER_FILTER = '(&(objectClass=inetOrgPerson)(!(employeeType=left)))';

/** The app on a fresh database (the scheduler's timer is off in tests: they call tick() themselves). */
export const createSyncTestApp = (dialect: DialectName): Promise<TestApp> => createTestApp(dialect);

export { secondInstance } from '../../../testing/test-app.js';

/** 恒岳's LDAP source as its administrator configures it (stored directly: the 认证源 console is tested on its own). */
export async function addLdapSource(t: TestApp, enterprise: string, url: string, name = '恒岳 LDAP'): Promise<number> {
  const { db } = t.database;
  const { id: enterpriseId } = await db.selectFrom('enterprise').select('id').where('name', '=', enterprise).executeTakeFirstOrThrow();
  const config: LdapSourceConfig = {
    ...LDAP_DEFAULTS,
    url,
    bindDn: HENGYUE_BIND_DN,
    baseDn: HENGYUE_PEOPLE,
    userFilter: USER_FILTER,
    groupBaseDn: HENGYUE_GROUPS,
  };
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('auth_source')
    .values({
      enterprise_id: enterpriseId,
      type: 'ldap',
      name,
      status: 'enabled',
      config: JSON.stringify(config),
      secret: t.app.authSourceRepository.sealSecret(HENGYUE_BIND_PASSWORD),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Changes the directory as its manager (rootdn). */
export async function changeDirectory(ldap: SlapdServer, work: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ url: ldap.url });
  await client.bind(ldap.rootDn, ldap.rootPassword);
  try {
    await work(client);
  } finally {
    await client.unbind();
  }
}

export const replace = (type: string, values: string[]) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values }) });
export const add = (type: string, values: string[]) => new Change({ operation: 'add', modification: new Attribute({ type, values }) });
export const remove = (type: string, values: string[] = []) =>
  new Change({ operation: 'delete', modification: new Attribute({ type, values }) });

export const groupDn = (name: string) => `cn=${name},${HENGYUE_GROUPS}`;
