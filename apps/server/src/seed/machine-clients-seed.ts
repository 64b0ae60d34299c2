import type { Kysely } from 'kysely';
import { hashClientSecret } from '../identity/oidc/client-secret.js';
import type { Database } from '../platform/db/schema.js';

/** The demo machine client's secret, listed in the README beside the demo accounts; only its hash is stored. */
export const DEMO_MACHINE_CLIENT_SECRET = 'hengyue-mes-demo-secret-2026';

/** 机器客户端 demo data: 恒岳's MES registers the identifiers of the machines it builds. */
const HENGYUE_MES = { name: '恒岳MES', clientId: 'hengyue-mes', scopes: 'identifiers:read identifiers:write' };

/** Runs once (its own marker, so installations seeded before it get it too). */
export async function seedMachineClients(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.machine-clients').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.machine-clients', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;
    const hengyue = await trx.selectFrom('enterprise').select('id').where('name', '=', '徐州恒岳重工机械有限公司').executeTakeFirst();
    // An installation whose demo enterprise was removed gets no demo client; a client id someone took meanwhile stays theirs.
    if (!hengyue) return true;
    const taken = await trx
      .selectFrom('oidc_client_id')
      .select('client_id')
      .where('client_id', '=', HENGYUE_MES.clientId)
      .executeTakeFirst();
    if (taken) return true;
    await trx.insertInto('oidc_client_id').values({ client_id: HENGYUE_MES.clientId, kind: 'machine' }).execute();
    await trx
      .insertInto('machine_client')
      .values({
        enterprise_id: hengyue.id,
        name: HENGYUE_MES.name,
        client_id: HENGYUE_MES.clientId,
        secret_hash: hashClientSecret(DEMO_MACHINE_CLIENT_SECRET),
        scopes: HENGYUE_MES.scopes,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return true;
  });
}
