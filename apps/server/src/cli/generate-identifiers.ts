import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { MACHINERY_TEMPLATE, machineRecord } from '../db/seed/identifiers-data.js';
import { seedDemoData } from '../db/seed/index.js';
import { checkValues, normaliseItems } from '../features/identifiers/template-items.js';

// Benchmark data: `node dist/cli/generate-identifiers.js [count]` adds generated machinery
// identifiers (default 1 000 000) under the prefix 88.118.99 of the first demo enterprise, in batched
// inserts inside transactions. Handles are 88.118.99/BM-0000001, BM-0000002, …
const BENCH_PREFIX = '88.118.99';
const benchHandle = (i: number) => `${BENCH_PREFIX}/BM-${String(i + 1).padStart(7, '0')}`;

const count = Number(process.argv[2] ?? 1_000_000);
const ROWS_PER_INSERT = 1000;
const INSERTS_PER_TRANSACTION = 20;

const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
const { db } = database;
try {
  await migrateToLatest(db, database.dialect);
  await seedDemoData(db);
  const started = Date.now();
  const enterprise = await db.selectFrom('enterprise').select('id').orderBy('id').executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  const existing = await db.selectFrom('idf_prefix').select('id').where('prefix', '=', BENCH_PREFIX).executeTakeFirst();
  if (existing) throw new Error(`${BENCH_PREFIX} exists already: generate into an empty database`);
  const items = normaliseItems(MACHINERY_TEMPLATE.items);
  const { prefixId, templateId } = await db.transaction().execute(async (trx) => {
    const prefix = await trx
      .insertInto('idf_prefix')
      .values({ prefix: BENCH_PREFIX, name: '基准测试标识', enterprise_id: enterprise.id, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const template = await trx
      .insertInto('idf_template')
      .values({ prefix_id: prefix.id, name: MACHINERY_TEMPLATE.name, version: 1, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('idf_template_version')
      .values({
        template_id: template.id,
        version: 1,
        name: MACHINERY_TEMPLATE.name,
        items: JSON.stringify(items),
        created_at: at,
        created_by: 'bench',
      })
      .execute();
    return { prefixId: prefix.id, templateId: template.id };
  });
  const kinds = ['EX', 'CR', 'LD'] as const;
  const perTransaction = ROWS_PER_INSERT * INSERTS_PER_TRANSACTION;
  for (let done = 0; done < count; done += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let from = done; from < Math.min(done + perTransaction, count); from += ROWS_PER_INSERT) {
        const rows = [];
        for (let i = from; i < Math.min(from + ROWS_PER_INSERT, count); i++) {
          const { values } = machineRecord(kinds[i % 3]!, 2020 + (i % 6), i);
          const checked = checkValues(items, values);
          if (!checked.ok) throw new Error(checked.message);
          rows.push({
            handle: benchHandle(i),
            prefix_id: prefixId,
            template_id: templateId,
            template_version: 1,
            item_values: JSON.stringify(checked.values),
            created_at: at,
            updated_at: at,
          });
        }
        await trx.insertInto('idf_record').values(rows).execute();
      }
    });
  }
  console.log(`generated ${count} identifiers in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.describe})`);
} finally {
  await database.destroy();
}
