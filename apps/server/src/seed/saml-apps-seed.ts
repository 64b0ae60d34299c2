import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema.js';

/** 恒岳供应链协同: 恒岳's SAML 2.0 demo application, a service provider on the developer's machine, open to 企业全员. */
const HENGYUE_SAML_APPLICATION = {
  name: '恒岳供应链协同',
  category: '供应链',
  description: '供应商协同与采购订单，经 SAML 2.0 登录',
  entityId: 'http://localhost:8084/saml/metadata',
  acsUrl: 'http://localhost:8084/saml/acs',
  sloUrl: 'http://localhost:8084/saml/slo',
};

/** Runs once (its own marker, so installations seeded before it get it too). */
export async function seedSamlApplications(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.saml-apps').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.saml-apps', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const hengyue = await trx.selectFrom('enterprise').select('id').where('name', '=', '徐州恒岳重工机械有限公司').executeTakeFirst();
    if (!hengyue) return true;
    const a = HENGYUE_SAML_APPLICATION;
    // An entity ID someone registered meanwhile stays theirs.
    const taken = await trx
      .selectFrom('saml_service_provider')
      .select('application_id')
      .where('entity_id', '=', a.entityId)
      .executeTakeFirst();
    if (taken) return true;
    const created = await trx
      .insertInto('sso_application')
      .values({
        enterprise_id: hengyue.id,
        name: a.name,
        category: a.category,
        description: a.description,
        protocol: 'saml2',
        all_members: 1,
        status: 'enabled',
        attributes: 'name,telephone,email,enterpriseName,groups,roles',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['enterprise_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) return true;
    await trx
      .insertInto('saml_service_provider')
      .values({
        application_id: created.id,
        entity_id: a.entityId,
        acs_url: a.acsUrl,
        slo_url: a.sloUrl,
        certificate: '',
        name_id_format: 'persistent',
        sign_response: 1,
        sign_assertion: 1,
        want_requests_signed: 0,
      })
      .execute();
    return true;
  });
}
