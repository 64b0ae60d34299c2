import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import { loadConfig } from '../platform/config.js';
import { type DatabaseHandle, createDatabase } from '../platform/db/database.js';
import type { Database } from '../platform/db/schema.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { seedDemoData } from '../seed/index.js';
import { chinaTime } from '../platform/lib/china-time.js';
import { articleGrams } from '../content/articles/article-search.js';

// Benchmark data: `node dist/cli/generate-articles.js [count]` makes the configured database hold
// exactly `count` generated published articles (default 100 000) with their search grams, written in
// batches. A database that holds them already is left as it is, so `npm run bench` generates them once.
const count = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(count) || count < 0) throw new Error('count: a number of articles');
/** Marks the generated articles (the demo data has none from this source). */
const SOURCE = '基准测试数据';
const SUBJECTS = [
  '挖掘机',
  '起重机',
  '装载机',
  '工业互联网',
  '标识解析',
  '设备上云',
  '数字孪生',
  '预测性维护',
  '智能制造',
  '物联网盒子',
  '边缘计算',
  '数据安全',
];
const ACTIONS = ['应用实践', '发展报告', '技术指南', '典型案例', '市场分析', '政策解读', '运维经验', '创新成果'];
const REGIONS = ['江苏', '山东', '广东', '浙江', '湖南', '四川', '河北', '安徽'];

/** Makes the database hold exactly `count` generated articles; answers what it did. */
async function generate(database: DatabaseHandle): Promise<string> {
  const { db } = database;
  await migrateToLatest(db, database.dialect);
  await seedDemoData(db, config);
  const { n } = await db
    .selectFrom('cms_article')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('data_source_name', '=', SOURCE)
    .executeTakeFirstOrThrow();
  if (Number(n) === count) return `${count} generated articles are there already`;
  const generated = (eb: ExpressionBuilder<Database, 'cms_article_gram'>) =>
    eb('article_id', 'in', eb.selectFrom('cms_article').select('id').where('data_source_name', '=', SOURCE));
  await db.deleteFrom('cms_article_gram').where(generated).execute();
  await db.deleteFrom('cms_article').where('data_source_name', '=', SOURCE).execute();
  const categories = await db.selectFrom('cms_category').select('id').execute();
  const now = Date.now();
  const started = Date.now();
  const BATCH = 500;
  for (let done = 0; done < count; done += BATCH) {
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(BATCH, count - done) }, (_, k) => {
        const i = done + k;
        const title = `${REGIONS[i % REGIONS.length]}${SUBJECTS[i % SUBJECTS.length]}${ACTIONS[(i >> 3) % ACTIONS.length]}（第 ${i + 1} 期）`;
        const summary = `${SUBJECTS[(i + 5) % SUBJECTS.length]}在${REGIONS[(i + 3) % REGIONS.length]}的${ACTIONS[(i + 1) % ACTIONS.length]}，编号 ${i + 1}。`;
        const time = new Date(now - (i % 1500) * 86_400_000 - (i % 86_400) * 1000);
        return {
          uuid: randomUUID(),
          title,
          summary,
          thumbnail: `/demo/thumb-${(i % 12) + 1}.svg`,
          content: `<p>${summary}</p>`,
          number: null,
          category_id: categories[i % categories.length]!.id,
          publish_time: chinaTime(time),
          data_source_name: SOURCE,
          expiration_day: null,
          status: 'published' as const,
          view_count: i % 1000,
          created_at: time.toISOString(),
          updated_at: time.toISOString(),
        };
      });
      const inserted = await trx.insertInto('cms_article').values(rows).returning(['id', 'title', 'summary']).execute();
      const grams = inserted.flatMap((a) => articleGrams(a.title, a.summary).map((gram) => ({ gram, article_id: a.id })));
      for (let g = 0; g < grams.length; g += 4000)
        await trx
          .insertInto('cms_article_gram')
          .values(grams.slice(g, g + 4000))
          .execute();
    });
  }
  return `generated ${count} articles in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
try {
  console.log(`${await generate(database)} (${database.describe})`);
} finally {
  await database.destroy();
}
