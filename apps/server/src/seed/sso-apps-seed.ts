import type { Kysely } from 'kysely';
import { overlaps } from '../identity/cas/cas-services.js';
import { hashClientSecret } from '../identity/oidc/client-secret.js';
import type { Database } from '../platform/db/schema.js';

/** 应用列表 demo data: two applications of 恒岳 on the central login, run on the developer's machine. */
const HENGYUE_APPLICATIONS = [
  {
    name: '恒岳设备运维平台',
    category: '设备运维',
    description: '设备台账、点检与维修工单，经统一身份认证登录',
    prefix: 'http://localhost:8081/',
    allMembers: true,
    groups: [] as string[],
  },
  {
    name: '恒岳质量追溯系统',
    category: '质量管理',
    description: '来料、过程与出厂检验记录，按产品标识追溯',
    prefix: 'http://localhost:8082/',
    allMembers: false,
    groups: ['质量部'],
  },
];

/** Runs once (its own marker, so installations seeded before it get it too). */
export async function seedSsoApplications(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.sso-apps').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.sso-apps', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const hengyue = await trx.selectFrom('enterprise').select('id').where('name', '=', '徐州恒岳重工机械有限公司').executeTakeFirst();
    // An installation whose demo enterprise was removed gets no demo applications.
    if (!hengyue) return true;
    for (const a of HENGYUE_APPLICATIONS) {
      const host = new URL(a.prefix).hostname;
      // An address someone registered meanwhile stays theirs.
      const taken = await trx.selectFrom('sso_application_service').select('prefix').where('host', '=', host).execute();
      if (taken.some((t) => overlaps(new URL(t.prefix), new URL(a.prefix)))) continue;
      const inserted = await trx
        .insertInto('sso_application')
        .values({
          enterprise_id: hengyue.id,
          name: a.name,
          category: a.category,
          description: a.description,
          protocol: 'cas3',
          attributes: 'name,telephone,enterpriseName',
          all_members: a.allMembers ? 1 : 0,
          status: 'enabled',
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['enterprise_id', 'name']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) continue;
      const { id } = inserted;
      await trx
        .insertInto('sso_application_service')
        .values({ application_id: id, enterprise_id: hengyue.id, prefix: a.prefix, host })
        .execute();
      if (a.groups.length === 0) continue;
      const groups = await trx
        .selectFrom('account_group')
        .select('id')
        .where('enterprise_id', '=', hengyue.id)
        .where('name', 'in', a.groups)
        .execute();
      if (groups.length) {
        await trx
          .insertInto('sso_app_grant')
          .values(groups.map((g) => ({ application_id: id, subject_type: 'group' as const, subject_id: g.id })))
          .execute();
      }
    }
    return true;
  });
}

/**
 * The demo OpenID Connect application's secret: a demo value the README lists beside the demo accounts
 * (the seed stores only its hash). Never use it outside a demonstration.
 */
export const DEMO_OIDC_SECRET = 'hengyue-inspection-demo-secret-not-for-production';

/** 恒岳移动巡检: 恒岳's OpenID Connect demo application, a confidential client on the developer's machine, open to 企业全员. */
const HENGYUE_OIDC_APPLICATION = {
  name: '恒岳移动巡检',
  category: '设备运维',
  description: '移动端巡检任务与隐患上报，经 OpenID Connect 登录',
  clientId: 'hengyue-inspection',
  redirectUri: 'http://localhost:8083/callback',
  postLogoutRedirectUri: 'http://localhost:8083/',
  backchannelLogoutUri: 'http://localhost:8083/backchannel',
};

/** Runs once (its own marker, so installations seeded before it get it too). */
export async function seedOidcApplications(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.oidc-apps').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.oidc-apps', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const hengyue = await trx.selectFrom('enterprise').select('id').where('name', '=', '徐州恒岳重工机械有限公司').executeTakeFirst();
    if (!hengyue) return true;
    const a = HENGYUE_OIDC_APPLICATION;
    // A client id someone took meanwhile (an application or a machine client) stays theirs.
    const reserved = await trx
      .insertInto('oidc_client_id')
      .values({ client_id: a.clientId, kind: 'application' })
      .onConflict((oc) => oc.column('client_id').doNothing())
      .executeTakeFirst();
    if (!reserved.numInsertedOrUpdatedRows) return true;
    await trx
      .insertInto('sso_application')
      .values({
        enterprise_id: hengyue.id,
        name: a.name,
        category: a.category,
        description: a.description,
        protocol: 'oidc',
        all_members: 1,
        status: 'enabled',
        oidc_client_id: a.clientId,
        oidc_client_type: 'confidential',
        oidc_secret_hash: hashClientSecret(DEMO_OIDC_SECRET),
        oidc_redirect_uris: JSON.stringify([a.redirectUri]),
        oidc_post_logout_uris: JSON.stringify([a.postLogoutRedirectUri]),
        oidc_backchannel_logout_uri: a.backchannelLogoutUri,
        oidc_scopes: 'openid profile email phone enterprise groups roles offline_access',
        oidc_access_token_seconds: 600,
        oidc_id_token_seconds: 600,
        oidc_refresh_token_seconds: 14 * 86_400,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['enterprise_id', 'name']).doNothing())
      .execute();
    return true;
  });
}
