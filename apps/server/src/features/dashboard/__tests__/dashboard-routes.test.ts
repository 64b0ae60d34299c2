import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaTime } from '../../../lib/china-time.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { DASHBOARD_DAYS, lastChinaDates } from '../dashboard-routes.js';

interface Dashboard {
  kpis: { publishedArticles: number; totalViews: number; accounts: number; enterprises: number; loginsLast7Days: number };
  publishedPerDay: { date: string; count: number }[];
  registrationsPerDay: { date: string; count: number }[];
  mostViewed: { uuid: string; title: string; viewCount: number }[];
}

describe('the last China dates', () => {
  it('are consecutive, oldest first, ending with today in China (UTC+8)', () => {
    // 2026-11-22 17:30 UTC is already 2026-11-23 in China.
    expect(lastChinaDates(new Date('2026-11-22T17:30:00Z'), 3)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(lastChinaDates(new Date('2026-03-01T01:00:00Z'), 2)).toEqual(['2026-02-28', '2026-03-01']);
  });
});

describe.each(testDialects())('工作台 API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [operator, staff] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const headers = (token?: string) => ({ 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) });
  const dashboard = async (token: string) => {
    const res = await t.app.inject({ url: '/web-api/console/v1/dashboard', headers: headers(token) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Dashboard[] }).data[0] as Dashboard;
  };
  const today = () => chinaTime(new Date()).slice(0, 10);
  const on = (series: { date: string; count: number }[], date: string) => series.find((d) => d.date === date)?.count;

  it('needs a token', async () => {
    expect((await t.app.inject({ url: '/web-api/console/v1/dashboard', headers: headers() })).json().code).toBe(20300);
  });

  it('answers 14 days of series ending today and the seeded figures', async () => {
    const d = await dashboard(staff);
    expect(d.publishedPerDay).toHaveLength(DASHBOARD_DAYS);
    expect(d.registrationsPerDay.map((p) => p.date)).toEqual(d.publishedPerDay.map((p) => p.date));
    expect(d.publishedPerDay.at(-1)?.date).toBe(today());
    expect(d.kpis.publishedArticles).toBeGreaterThanOrEqual(60);
    expect(d.kpis.enterprises).toBe(3);
    expect(d.mostViewed).toHaveLength(5);
    const views = d.mostViewed.map((a) => a.viewCount);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it('follows the live data: a publication, views and registrations today', async () => {
    const before = await dashboard(operator);
    const created = await t.app.inject({
      method: 'POST',
      url: '/web-api/cms/v1/article',
      headers: headers(operator),
      payload: { title: '工作台统计验证文章', summary: '摘要', content: '<p>正文</p>', categoryId: 'news' },
    });
    const uuid = (created.json() as { data: { uuid: string }[] }).data[0]?.uuid ?? '';
    expect(
      (await t.app.inject({ method: 'POST', url: `/web-api/cms/v1/article/${uuid}/publish`, headers: headers(operator) })).statusCode,
    ).toBe(200);
    await t.database.db.updateTable('cms_article').set({ view_count: 987_654 }).where('uuid', '=', uuid).execute();
    const now = new Date().toISOString();
    await t.database.db
      .insertInto('account')
      .values(
        ['dash1', 'dash2'].map((username, i) => ({
          username,
          name: '统计测试',
          phone: `1390000000${i}`,
          number: '',
          password_hash: 'x',
          enterprise_id: null,
          status: 'active' as const,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();

    const after = await dashboard(operator);
    expect(after.kpis.publishedArticles).toBe(before.kpis.publishedArticles + 1);
    expect(after.kpis.totalViews).toBe(before.kpis.totalViews + 987_654);
    expect(after.kpis.accounts).toBe(before.kpis.accounts + 2);
    expect(on(after.publishedPerDay, today())).toBe((on(before.publishedPerDay, today()) ?? 0) + 1);
    expect(on(after.registrationsPerDay, today())).toBe((on(before.registrationsPerDay, today()) ?? 0) + 2);
    expect(after.mostViewed[0]).toMatchObject({ uuid, title: '工作台统计验证文章', viewCount: 987_654 });
  });
});
