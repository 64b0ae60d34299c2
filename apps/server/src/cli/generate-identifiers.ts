import { sql } from 'kysely';
import type { TemplateItem } from '@portal/shared';
import { loadConfig } from '../platform/config.js';
import { type DatabaseHandle, createDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { MACHINERY_TEMPLATE, machineRecord } from '../seed/identifiers-data.js';
import { seedDemoData } from '../seed/index.js';
import { checkValues, normaliseItems } from '../identifiers/registry/template-items.js';

// Benchmark data: `node dist/cli/generate-identifiers.js [count]` makes the configured database hold
// exactly `count` generated machinery identifiers (default 10 000 000) under the prefix 88.118.99 of
// the first demo enterprise: handles 88.118.99/BM-0000001, BM-0000002, … A database that holds them
// already is left as it is, so `npm run bench` generates them once.
const BENCH_PREFIX = '88.118.99';
const benchHandle = (i: number) => `${BENCH_PREFIX}/BM-${String(i + 1).padStart(7, '0')}`;

const count = Number(process.argv[2] ?? 10_000_000);
if (!Number.isInteger(count) || count < 0) throw new Error('count: a number of identifiers');
/** Rows per INSERT: the batch travels as one JSON parameter, which the database unpacks. */
const ROWS_PER_INSERT = 10_000;
const INSERTS_PER_TRANSACTION = 10;
const KINDS = ['EX', 'CR', 'LD'] as const;

/** The stored item values of generated identifier `i` (`[index, type, value]` in template order). */
function itemValues(items: readonly TemplateItem[], i: number): [number, string, string][] {
  const { values } = machineRecord(KINDS[i % 3]!, 2020 + (i % 6), i);
  const out: [number, string, string][] = [];
  for (const item of items) {
    const value = values[item.idType as keyof typeof values];
    if (item.state === 1 && value) out.push([item.idIndex, item.idType, value]);
  }
  return out;
}

/** Makes the database hold exactly `count` generated identifiers; answers what it did. */
async function generate(database: DatabaseHandle): Promise<string> {
  const { db, dialect } = database;
  await migrateToLatest(db, dialect);
  await seedDemoData(db, config);
  const started = Date.now();
  const at = new Date().toISOString();
  // 产品型号 counted in 标识统计, as on the demo prefixes: the bench's lookups do all the counting work.
  const items = normaliseItems(MACHINERY_TEMPLATE.items);
  let prefix = await db.selectFrom('idf_prefix').select('id').where('prefix', '=', BENCH_PREFIX).executeTakeFirst();
  if (prefix) {
    const { n } = await db
      .selectFrom('idf_record')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('prefix_id', '=', prefix.id)
      .executeTakeFirstOrThrow();
    if (Number(n) === count) return `${count} generated identifiers are there already`;
    await db.deleteFrom('idf_record').where('prefix_id', '=', prefix.id).execute();
  } else {
    const enterprise = await db.selectFrom('enterprise').select('id').orderBy('id').executeTakeFirstOrThrow();
    prefix = await db
      .insertInto('idf_prefix')
      .values({ prefix: BENCH_PREFIX, name: '基准测试标识', enterprise_id: enterprise.id, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  const prefixId = prefix.id;
  let template = await db.selectFrom('idf_template').select('id').where('prefix_id', '=', prefixId).executeTakeFirst();
  if (!template) {
    template = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('idf_template')
        .values({ prefix_id: prefixId, name: MACHINERY_TEMPLATE.name, version: 1, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('idf_template_version')
        .values({
          template_id: created.id,
          version: 1,
          name: MACHINERY_TEMPLATE.name,
          items: JSON.stringify(items),
          created_at: at,
          created_by: 'bench',
        })
        .execute();
      return created;
    });
  }
  const templateId = template.id;
  // The values are built as the record form stores them; the first of each batch goes through the
  // form's own check too, so a change to the template or its rules fails here instead of writing
  // records the portal would refuse.
  const insertBatch = (from: number, to: number) => {
    const sample = checkValues(items, machineRecord(KINDS[from % 3]!, 2020 + (from % 6), from).values);
    if (!sample.ok) throw new Error(sample.message);
    if (JSON.stringify(sample.values) !== JSON.stringify(itemValues(items, from)))
      throw new Error('generated values differ from the checked form');
    let batch = '[';
    for (let i = from; i < to; i++)
      batch += `${i > from ? ',' : ''}[${JSON.stringify(benchHandle(i))},${JSON.stringify(itemValues(items, i))}]`;
    batch += ']';
    // Each element is [handle, item values]; the values' JSON text is stored as it is.
    return dialect === 'postgres'
      ? sql`insert into idf_record (handle, prefix_id, template_id, template_version, item_values, created_at, updated_at)
            select e->>0, ${prefixId}, ${templateId}, 1, (e->1)::text, ${at}, ${at} from json_array_elements(${batch}::json) as e`
      : sql`insert into idf_record (handle, prefix_id, template_id, template_version, item_values, created_at, updated_at)
            select json_extract(value, '$[0]'), ${prefixId}, ${templateId}, 1, json_extract(value, '$[1]'), ${at}, ${at}
            from json_each(${batch})`;
  };
  // Generated data can be made again: no fsync per transaction, and room for the indexes' pages.
  if (dialect === 'sqlite') {
    await sql`pragma synchronous = off`.execute(db);
    await sql`pragma cache_size = -262144`.execute(db);
  }
  const perTransaction = ROWS_PER_INSERT * INSERTS_PER_TRANSACTION;
  for (let done = 0; done < count; done += perTransaction) {
    await db.transaction().execute(async (trx) => {
      for (let from = done; from < Math.min(done + perTransaction, count); from += ROWS_PER_INSERT) {
        await insertBatch(from, Math.min(from + ROWS_PER_INSERT, count)).execute(trx);
      }
    });
    if (done > 0 && done % 1_000_000 === 0) console.log(`  ${done} identifiers…`);
  }
  // PostgreSQL's planner statistics, before the lookups that follow (SQLite's plan is the index either way).
  if (dialect === 'postgres') await sql`analyze idf_record`.execute(db);
  return `generated ${count} identifiers in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  console.log(`${await generate(database)} (${database.describe})`);
} finally {
  await database.destroy();
}
