import { STATISTICS_DAYS, type Statistics } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastChinaDates } from '../../../platform/lib/china-time.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const DAY_MS = 86_400_000;

describe.each(testDialects())('统计分析 on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let rcadmin: string;
  const apps: number[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
    const db = t.database.db;
    const accounts = new Map(
      (await db.selectFrom('account').select(['id', 'username', 'enterprise_id']).execute()).map((a) => [a.username, a]),
    );
    const hengyue = accounts.get('admin')!.enterprise_id!;
    const now = Date.now();
    const iso = (msAgo: number) => new Date(now - msAgo).toISOString();

    // 12 applications of 恒岳: the 11th and 12th go to 其他.
    for (let i = 1; i <= 12; i++) {
      const app = await db
        .insertInto('sso_application')
        .values({ enterprise_id: hengyue, name: `应用${String(i).padStart(2, '0')}`, created_at: iso(0), updated_at: iso(0) })
        .returning('id')
        .executeTakeFirstOrThrow();
      apps.push(app.id);
    }
    const attempt = (
      username: string,
      msAgo: number,
      result: 'success' | 'failure',
      applicationId: number | null = null,
      applicationName = '',
    ) => ({
      enterprise_id: accounts.get(username)!.enterprise_id,
      account_id: accounts.get(username)!.id,
      username,
      result,
      reason: result === 'failure' ? 'bad-password' : '',
      application_id: applicationId,
      application_name: applicationName,
      created_at: iso(msAgo),
    });
    const rows = [
      // Today: 2 successes (the portal) and 1 failure; 3 days ago: 1 success; 40 days ago: outside the window.
      attempt('wangfang', 60_000, 'success'),
      attempt('staff', 120_000, 'success'),
      attempt('wangfang', 180_000, 'failure'),
      attempt('liuyang', 3 * DAY_MS, 'success'),
      attempt('liuyang', 40 * DAY_MS, 'success', apps[0]),
      // 瑞驰's attempts never count for 恒岳.
      attempt('service', 60_000, 'success'),
      attempt('service', 90_000, 'failure'),
    ];
    // Application i gets 14 - i successful sign-ins (application 1 most); application 3 was logged under an older name too.
    apps.forEach((id, i) => {
      for (let n = 0; n < 14 - (i + 1); n++) rows.push(attempt('zhoujie', 5 * DAY_MS, 'success', id, i === 2 && n === 0 ? '旧名称' : ''));
    });
    await db.insertInto('login_log').values(rows).execute();

    // Active: wangfang today, liuyang 10 days ago, zhoujie 40 days ago; two-factor enrolled: admin and wangfang.
    const set = (username: string, values: { last_login_at?: string; totp_enabled_at?: string }) =>
      db.updateTable('account').set(values).where('username', '=', username).execute();
    await set('wangfang', { last_login_at: iso(60_000), totp_enabled_at: iso(DAY_MS) });
    await set('liuyang', { last_login_at: iso(10 * DAY_MS) });
    await set('zhoujie', { last_login_at: iso(40 * DAY_MS) });
    await set('admin', { totp_enabled_at: iso(DAY_MS) });
    await set('service', { last_login_at: iso(60_000), totp_enabled_at: iso(DAY_MS) });
    // staff is locked by wrong passwords.
    await db
      .insertInto('login_failure')
      .values({ username: `account:${accounts.get('staff')!.id}`, failures: 5, last_failed_at: iso(0), locked_until: iso(-600_000) })
      .execute();
  });
  afterAll(() => t.close());

  const statistics = async (token: string) => {
    const res = await t.app.inject({ url: '/web-api/console/v1/statistics', headers: { authorization: token } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Statistics[] }>().data[0]!;
  };

  it('counts sign-ins per China date over 30 days, active accounts, accounts by state and two-factor coverage of its own enterprise', async () => {
    const s = await statistics(admin);
    const dates = lastChinaDates(new Date(), STATISTICS_DAYS);
    expect(s.signInsPerDay.map((d) => d.date)).toEqual(dates);
    const byDate = new Map(s.signInsPerDay.map((d) => [d.date, d]));
    const today = dates.at(-1)!;
    const minutesAgo = lastChinaDates(new Date(Date.now() - 180_000), 1)[0]!;
    // Around midnight China time the minutes-old attempts may fall on yesterday: count both.
    const recent = [today, minutesAgo].filter((d, i, all) => all.indexOf(d) === i).map((d) => byDate.get(d)!);
    expect(recent.reduce((n, d) => n + d.success, 0)).toBe(2);
    expect(recent.reduce((n, d) => n + d.failure, 0)).toBe(1);
    const total = s.signInsPerDay.reduce((n, d) => ({ success: n.success + d.success, failure: n.failure + d.failure }), {
      success: 0,
      failure: 0,
    });
    // 3 + the 90 sign-ins to applications; the one 40 days ago and 瑞驰's never.
    expect(total).toEqual({ success: 3 + 90, failure: 1 });
    expect(byDate.get(lastChinaDates(new Date(Date.now() - 5 * DAY_MS), 1)[0]!)?.success).toBe(90);

    expect(s.activeAccounts).toEqual({ last7Days: 1, last30Days: 2, total: 6 });
    // admin, staff (locked), wangfang, liuyang, zhoujie, chenming (disabled).
    expect(s.accountsByStatus).toEqual({ active: 4, disabled: 1, locked: 1 });
    expect(s.twoFactor).toEqual({ enabled: 2, notEnabled: 4 });
  });

  it('counts successful sign-ins per application: the top 10, then 其他; the portal’s own as 门户', async () => {
    const s = await statistics(admin);
    expect(s.signInsPerApplication.slice(0, 10)).toEqual(
      apps.slice(0, 10).map((id, i) => ({ applicationId: id, name: `应用${String(i + 1).padStart(2, '0')}`, count: 13 - i })),
    );
    // Outside the top 10: 门户 (3), 应用11 (3), 应用12 (2).
    expect(s.signInsPerApplication.slice(10)).toEqual([{ applicationId: null, name: '其他', count: 8 }]);
  });

  it('shows another enterprise only its own figures', async () => {
    const s = await statistics(rcadmin);
    expect(s.signInsPerDay.reduce((n, d) => n + d.success + d.failure, 0)).toBe(2);
    expect(s.signInsPerApplication).toEqual([{ applicationId: null, name: '门户', count: 1 }]);
    expect(s.activeAccounts).toEqual({ last7Days: 1, last30Days: 1, total: 2 });
    expect(s.accountsByStatus).toEqual({ active: 2, disabled: 0, locked: 0 });
    expect(s.twoFactor).toEqual({ enabled: 1, notEnabled: 1 });
  });

  it('needs the statistics authority', async () => {
    const staff = await tokenFor(t, 'staff');
    expect((await t.app.inject({ url: '/web-api/console/v1/statistics', headers: { authorization: staff } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/web-api/console/v1/statistics' })).statusCode).toBe(401);
  });
});
