import { DASHBOARD_DAYS, type Dashboard, type DayCount } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { chinaTime, lastChinaDates } from '../../../platform/lib/china-time.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';

describe('the last China dates', () => {
  it('are consecutive, oldest first, ending with today in China (UTC+8)', () => {
    // 2026-11-22 17:30 UTC is already 2026-11-23 in China.
    expect(lastChinaDates(new Date('2026-11-22T17:30:00Z'), 3)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(lastChinaDates(new Date('2026-03-01T01:00:00Z'), 2)).toEqual(['2026-02-28', '2026-03-01']);
  });
});

describe.each(testDialects())('工作台 API on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let operator: string;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  const enterprises = new Map<string, number>();
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [operator, admin, staff, rcadmin] = await Promise.all([
      tokenFor(t, 'operator'),
      tokenFor(t, 'admin'),
      tokenFor(t, 'staff'),
      tokenFor(t, 'rcadmin'),
    ]);
    for (const e of await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute()) enterprises.set(e.name, e.id);
  });
  afterAll(() => t.close());

  const headers = (token?: string) => ({ 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) });
  const dashboard = async (token: string) => {
    const res = await t.app.inject({ url: '/web-api/console/v1/dashboard', headers: headers(token) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Dashboard[] }).data[0] as Dashboard;
  };
  const today = () => chinaTime(new Date()).slice(0, 10);
  const on = (series: DayCount[], date: string) => series.find((d) => d.date === date)?.count;
  const total = (series: DayCount[]) => series.reduce((sum, d) => sum + d.count, 0);
  const count = async (query: Promise<{ n: number | string | bigint }>) => Number((await query).n);
  const identifiersOf = async (enterprise: string) => {
    const db = t.database.db;
    const prefixes = db.selectFrom('idf_prefix').select('id').where('enterprise_id', '=', enterprises.get(enterprise)!);
    return {
      prefixes: await count(
        db
          .selectFrom('idf_prefix')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('enterprise_id', '=', enterprises.get(enterprise)!)
          .executeTakeFirstOrThrow(),
      ),
      records: await count(
        db
          .selectFrom('idf_record')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('prefix_id', 'in', prefixes)
          .executeTakeFirstOrThrow(),
      ),
    };
  };

  it('needs a token', async () => {
    expect((await t.app.inject({ url: '/web-api/console/v1/dashboard', headers: headers() })).json().code).toBe(20300);
  });

  it("shows an enterprise account its own enterprise's figures only", async () => {
    const own = await dashboard(staff);
    expect(own).toMatchObject({ scope: 'enterprise', enterpriseName: HENGYUE, platform: null });
    // admin, staff, wangfang, liuyang, zhoujie; chenming is disabled.
    expect(own.accounts).toEqual({ active: 5, disabled: 1, locked: 0 });
    expect(own.loginsPerDay).toHaveLength(DASHBOARD_DAYS);
    expect(own.loginsPerDay.at(-1)?.date).toBe(today());
    const identifiers = await identifiersOf(HENGYUE);
    expect(identifiers.records).toBeGreaterThan(0);
    expect(own.identifiers).toEqual(identifiers);
    expect(await dashboard(admin)).toEqual(own);

    const ruichi = await dashboard(rcadmin);
    expect(ruichi).toMatchObject({ scope: 'enterprise', enterpriseName: RUICHI, platform: null });
    expect(ruichi.accounts).toEqual({ active: 2, disabled: 0, locked: 0 });
    expect(ruichi.identifiers).toEqual(await identifiersOf(RUICHI));
    expect(ruichi.identifiers).not.toEqual(own.identifiers);
  });

  it('counts locked and deleted accounts, logins per China date and active accounts of its own enterprise', async () => {
    const db = t.database.db;
    const before = await dashboard(admin);
    const ruichiBefore = await dashboard(rcadmin);
    // Two real logins of 恒岳 accounts at the central login.
    for (const username of ['staff', 'wangfang']) {
      expect((await new TestBrowser(base).portalLogin(username, DEMO_PASSWORD))[0]?.status).toBe(303);
    }
    const ids = new Map((await db.selectFrom('account').select(['id', 'username']).execute()).map((a) => [a.username, a.id]));
    // liuyang is locked by wrong passwords, zhoujie deleted, liuyang last logged in 20 days ago.
    await db
      .insertInto('login_failure')
      .values({
        username: `account:${ids.get('liuyang')}`,
        failures: 5,
        last_failed_at: new Date().toISOString(),
        locked_until: new Date(Date.now() + 600_000).toISOString(),
      })
      .execute();
    await db.updateTable('account').set({ status: 'deleted' }).where('username', '=', 'zhoujie').execute();
    await db
      .updateTable('account')
      .set({ last_login_at: new Date(Date.now() - 20 * 86_400_000).toISOString() })
      .where('username', '=', 'liuyang')
      .execute();
    // Logins recorded three days ago at 17:00 UTC: the next China date.
    const past = new Date(Date.now() - 3 * 86_400_000);
    past.setUTCHours(17, 0, 0, 0);
    const entry = (enterprise: string) => ({
      account_id: null,
      username: 'x',
      enterprise_id: enterprises.get(enterprise)!,
      action: 'login',
      ip: '127.0.0.1',
      outcome: 'success' as const,
      created_at: past.toISOString(),
    });
    await db
      .insertInto('audit_log')
      .values([entry(HENGYUE), entry(HENGYUE), entry(RUICHI)])
      .execute();

    const after = await dashboard(admin);
    expect(after.accounts).toEqual({ active: 3, disabled: 1, locked: 1 });
    expect(after.activeLast7Days).toBe(before.activeLast7Days + 2);
    expect(after.activeLast30Days).toBe(before.activeLast30Days + 3);
    expect(on(after.loginsPerDay, today())).toBe((on(before.loginsPerDay, today()) ?? 0) + 2);
    const pastDay = chinaTime(past).slice(0, 10);
    expect(pastDay).not.toBe(past.toISOString().slice(0, 10));
    expect(on(after.loginsPerDay, pastDay)).toBe((on(before.loginsPerDay, pastDay) ?? 0) + 2);
    // 瑞驰 sees none of 恒岳's logins, only its own one.
    const ruichi = await dashboard(rcadmin);
    expect(total(ruichi.loginsPerDay)).toBe(total(ruichiBefore.loginsPerDay) + 1);
    expect(ruichi.activeLast7Days).toBe(ruichiBefore.activeLast7Days);
  });

  it("counts the lookups of its own enterprise's identifiers per day, through the portal and the Handle API", async () => {
    const before = await dashboard(admin);
    const ruichiBefore = await dashboard(rcadmin);
    const platformBefore = await dashboard(operator);
    const ruichiHandle = await t.database.db
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .select('idf_record.handle')
      .where('idf_prefix.enterprise_id', '=', enterprises.get(RUICHI)!)
      .executeTakeFirstOrThrow();
    for (const url of [
      '/web-api/portal/v1/identity/query?handle=88.118.8/EX-2024-000123',
      '/api/handles/88.118.8/EX-2024-000123',
      `/api/handles/${ruichiHandle.handle}`,
      // Not found: nobody's lookup.
      '/api/handles/88.118.8/NO-SUCH-RECORD',
    ]) {
      expect((await t.app.inject({ url })).statusCode).toBeLessThan(500);
    }
    // Counted in memory, written within a second (all three once the platform has them).
    await expect
      .poll(async () => on((await dashboard(operator)).lookupsPerDay, today()), { timeout: 5000 })
      .toBe((on(platformBefore.lookupsPerDay, today()) ?? 0) + 3);
    expect(on((await dashboard(admin)).lookupsPerDay, today())).toBe((on(before.lookupsPerDay, today()) ?? 0) + 2);
    const ruichi = await dashboard(rcadmin);
    expect(on(ruichi.lookupsPerDay, today())).toBe((on(ruichiBefore.lookupsPerDay, today()) ?? 0) + 1);
    expect(ruichi.lookupsPerDay).toHaveLength(DASHBOARD_DAYS);
  });

  it('shows an account without an enterprise no one else’s figures', async () => {
    // sunhao registered without an enterprise (waiting for 恒岳's approval): staff, like every such registration (demo seed).
    const d = await dashboard(await tokenFor(t, 'sunhao'));
    expect(d).toMatchObject({
      scope: 'enterprise',
      enterpriseName: '',
      accounts: { active: 0, disabled: 0, locked: 0 },
      activeLast7Days: 0,
      activeLast30Days: 0,
      identifiers: { prefixes: 0, records: 0 },
      platform: null,
    });
    expect(total(d.loginsPerDay)).toBe(0);
    expect(total(d.lookupsPerDay)).toBe(0);
  });

  it('shows operators the platform: every enterprise together, content and registrations', async () => {
    const d = await dashboard(operator);
    expect(d).toMatchObject({ scope: 'platform', enterpriseName: '' });
    const hengyue = await dashboard(admin);
    const ruichi = await dashboard(rcadmin);
    expect(d.identifiers.records).toBe(hengyue.identifiers.records + ruichi.identifiers.records);
    expect(d.accounts.active).toBeGreaterThan(hengyue.accounts.active + ruichi.accounts.active);
    expect(total(d.loginsPerDay)).toBeGreaterThanOrEqual(total(hengyue.loginsPerDay) + total(ruichi.loginsPerDay));
    const p = d.platform!;
    expect(p.publishedPerDay).toHaveLength(DASHBOARD_DAYS);
    expect(p.registrationsPerDay.map((x) => x.date)).toEqual(p.publishedPerDay.map((x) => x.date));
    expect(p.publishedPerDay.at(-1)?.date).toBe(today());
    expect(p.publishedArticles).toBeGreaterThanOrEqual(60);
    // 恒岳, 瑞驰, the platform and 江苏明川 (awaiting certification).
    expect(p.enterprises).toBe(4);
    expect(p.mostViewed).toHaveLength(5);
    const views = p.mostViewed.map((a) => a.viewCount);
    expect(views).toEqual([...views].sort((a, b) => b - a));
  });

  it('follows the live data on the platform view: a publication, views and registrations today', async () => {
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
    const [p, q] = [before.platform!, after.platform!];
    expect(q.publishedArticles).toBe(p.publishedArticles + 1);
    expect(q.totalViews).toBe(p.totalViews + 987_654);
    expect(after.accounts.active).toBe(before.accounts.active + 2);
    expect(on(q.publishedPerDay, today())).toBe((on(p.publishedPerDay, today()) ?? 0) + 1);
    expect(on(q.registrationsPerDay, today())).toBe((on(p.registrationsPerDay, today()) ?? 0) + 2);
    expect(q.mostViewed[0]).toMatchObject({ uuid, title: '工作台统计验证文章', viewCount: 987_654 });
    // An enterprise's figures do not move with accounts outside it.
    expect((await dashboard(admin)).accounts).toEqual({ active: 3, disabled: 1, locked: 1 });
  });
});
