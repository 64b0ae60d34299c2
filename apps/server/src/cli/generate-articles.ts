import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDemoData } from '../db/seed/index.js';
import { chinaTime } from '../lib/china-time.js';
import { articleGrams } from '../features/content/article-search.js';

// Benchmark data: `node dist/cli/generate-articles.js [count]` adds generated published articles
// (default 100 000) to the configured database, in batches, with their search grams.
const count = Number(process.argv[2] ?? 100_000);
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

const config = loadConfig();
const database = await createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
const { db } = database;
try {
  await migrateToLatest(db, database.dialect);
  await seedDemoData(db);
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
          data_source_name: '基准测试数据',
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
  console.log(`generated ${count} articles in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.describe})`);
} finally {
  await database.destroy();
}
