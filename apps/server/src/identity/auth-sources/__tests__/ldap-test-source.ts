import { LDAP_DEFAULTS, type LdapSourceConfig, Role } from '@portal/shared';
import { Client } from 'ldapts';
import { HENGYUE_BIND_DN, HENGYUE_BIND_PASSWORD, HENGYUE_GROUPS, HENGYUE_PEOPLE } from '../../../testing/ldap-fixture.js';
import { freePort, type SlapdServer } from '../../../testing/slapd.js';
import { OutboundGuard, parseOutboundNetwork } from '../../../platform/lib/outbound.js';
import { TEST_OUTBOUND_ALLOW, type TestApp } from '../../../testing/test-app.js';
import { hashPassword } from '../../accounts/passwords.js';
import type { LoadedSource } from '../directory.js';
import { LdapDirectory } from '../ldap/ldap-directory.js';

const HENGYUE_NAME = '徐州恒岳重工机械有限公司';

export type LdapSource = LoadedSource & { type: 'ldap'; config: LdapSourceConfig };

/** 恒岳's LDAP source as its administrator would fill in the form, against a test slapd. */
export function hengyueConfig(slapd: SlapdServer, overrides: Partial<LdapSourceConfig> = {}): LdapSourceConfig {
  return { ...LDAP_DEFAULTS, url: slapd.url, bindDn: HENGYUE_BIND_DN, baseDn: HENGYUE_PEOPLE, groupBaseDn: HENGYUE_GROUPS, ...overrides };
}

export function hengyueSource(slapd: SlapdServer, overrides: Partial<LdapSourceConfig> = {}, secret = HENGYUE_BIND_PASSWORD): LdapSource {
  return { id: 1, enterpriseId: 1, name: '恒岳 LDAP', enabled: true, secret, type: 'ldap', config: hengyueConfig(slapd, overrides) };
}

/** Changes the directory as its administrator would (modifyDN, modify, del), bound as the directory manager. */
export async function asDirectoryManager(slapd: SlapdServer, change: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ url: slapd.url, timeout: 5000, connectTimeout: 5000 });
  try {
    await client.bind(slapd.rootDn, slapd.rootPassword);
    await change(client);
  } finally {
    await client.unbind();
  }
}

/** The outbound guard of a portal whose operator lets sources reach loopback, where slapd listens. */
export const loopbackGuard = new OutboundGuard({
  allowNetworks: TEST_OUTBOUND_ALLOW.split(',').map(parseOutboundNetwork),
  publicUrl: undefined,
  ports: () => [],
});

/** A loopback port nothing listens on (it was free a moment ago). */
export const closedPort = freePort;

/**
 * What a sync of 恒岳's directory would leave behind (written by the sync, which is not under test
 * here): the enterprise's LDAP source, and an account per person linked to its entry (entryUUID, DN)
 * with the staff role and a local password of its own (`localPassword`), which sign-in must ignore.
 */
export async function linkHengyueDirectory(t: TestApp, slapd: SlapdServer, localPassword: string) {
  const db = t.database.db;
  const now = new Date().toISOString();
  const enterprise = await db.selectFrom('enterprise').select('id').where('name', '=', HENGYUE_NAME).executeTakeFirstOrThrow();
  const { id: sourceId } = await db
    .insertInto('auth_source')
    .values({
      enterprise_id: enterprise.id,
      type: 'ldap',
      name: '恒岳 LDAP',
      status: 'enabled',
      config: JSON.stringify(hengyueConfig(slapd)),
      secret: t.app.authSourceRepository.sealSecret(HENGYUE_BIND_PASSWORD),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const source = await t.app.authSourceRepository.loadAny(sourceId);
  if (source?.type !== 'ldap') throw new Error('source not stored');
  const { users } = await new LdapDirectory(source, { timeoutMs: 5000, guard: t.app.outbound }).read({ groups: false });
  const staff = await db
    .selectFrom('role')
    .select('id')
    .where('code', '=', Role.EnterpriseStaff)
    .where('enterprise_id', 'is', null)
    .executeTakeFirstOrThrow();
  const passwordHash = await hashPassword(localPassword);
  const accounts = new Map<string, number>();
  for (const user of users) {
    const { id } = await db
      .insertInto('account')
      .values({
        username: user.username,
        name: user.name,
        phone: user.phone,
        email: user.email,
        number: '',
        password_hash: passwordHash,
        enterprise_id: enterprise.id,
        status: 'active',
        must_change_password: 0,
        password_changed_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('account_role').values({ account_id: id, role_id: staff.id }).execute();
    await t.app.authSourceRepository.link(db, id, sourceId, user.externalId, user.dn);
    accounts.set(user.username, id);
  }
  /** Changes the stored settings of the source (as 认证源's 编辑 would). */
  const configure = async (overrides: Partial<LdapSourceConfig>) => {
    await db
      .updateTable('auth_source')
      .set({ config: JSON.stringify(hengyueConfig(slapd, overrides)) })
      .where('id', '=', sourceId)
      .execute();
  };
  return { sourceId, accounts, configure };
}
