import type { Kysely } from 'kysely';
import { checkValues, normaliseItems } from '../identifiers/registry/template-items.js';
import type { Database } from '../platform/db/schema.js';
import { DEMO_PREFIXES, HYDRAULIC_TEMPLATE, MACHINERY_TEMPLATE, demoRecords } from './identifiers-data.js';

/** When the demo templates were written: fixed, so every run seeds the same rows. */
const TEMPLATE_TIME = '2023-01-03T01:30:00.000Z';

/**
 * Demo identifiers (README, "Demo data"): a prefix per demo manufacturer, a metadata template and a
 * few hundred machines or parts, the same on every run. Runs once: the marker row makes it idempotent.
 * A prefix whose enterprise is missing is skipped.
 */
export async function seedIdentifiers(db: Kysely<Database>, now: string): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.identifiers').executeTakeFirst();
  if (seeded) return false;
  return db.transaction().execute(async (trx) => {
    const marker = await trx
      .insertInto('site_setting')
      .values({ key: 'seed.identifiers', value: '1', updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (!marker.numInsertedOrUpdatedRows) return false;

    for (const demo of DEMO_PREFIXES) {
      const enterprise = await trx.selectFrom('enterprise').select('id').where('name', '=', demo.enterprise).executeTakeFirst();
      if (!enterprise) continue;
      const exists = await trx.selectFrom('idf_prefix').select('id').where('prefix', '=', demo.prefix).executeTakeFirst();
      if (exists) continue;
      const prefix = await trx
        .insertInto('idf_prefix')
        .values({
          prefix: demo.prefix,
          name: demo.name,
          enterprise_id: enterprise.id,
          created_at: TEMPLATE_TIME,
          updated_at: TEMPLATE_TIME,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const source = demo.prefix === '88.118.8' ? MACHINERY_TEMPLATE : HYDRAULIC_TEMPLATE;
      const items = normaliseItems(source.items);
      const template = await trx
        .insertInto('idf_template')
        .values({ prefix_id: prefix.id, name: source.name, version: 1, created_at: TEMPLATE_TIME, updated_at: TEMPLATE_TIME })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('idf_template_version')
        .values({
          template_id: template.id,
          version: 1,
          name: source.name,
          items: JSON.stringify(items),
          created_at: TEMPLATE_TIME,
          created_by: 'admin',
        })
        .execute();
      const rows = demoRecords(demo.prefix).map((record) => {
        const checked = checkValues(items, record.values);
        if (!checked.ok) throw new Error(`demo identifier ${record.suffix}: ${checked.message}`);
        const at = `${record.values.productionDate}T02:00:00.000Z`;
        return {
          handle: `${demo.prefix}/${record.suffix}`,
          prefix_id: prefix.id,
          template_id: template.id,
          template_version: 1,
          item_values: JSON.stringify(checked.values),
          created_at: at,
          updated_at: at,
        };
      });
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('idf_record')
          .values(rows.slice(i, i + 200))
          .execute();
    }
    return true;
  });
}
