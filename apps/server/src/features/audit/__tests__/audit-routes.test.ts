import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const LIST = '/web-api/console/v1/audit/page/list';

interface Row {
  username: string;
  action: string;
  actionName: string;
  target: string;
  outcome: string;
  createdAt: string;
  enterpriseId: number | null;
}

describe.each(testDialects())('操作日志 API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let staff: string;
  let hengyue: number;
  let ruichi: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, operator, staff] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'operator'), tokenFor(t, 'staff')]);
    const enterprises = await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute();
    hengyue = enterprises.find((e) => e.name.startsWith('徐州恒岳'))?.id ?? -1;
    ruichi = enterprises.find((e) => e.name.startsWith('常州瑞驰'))?.id ?? -1;
    // Times are stored as ISO instants; 2026-11-20 09:00:00 China time is 01:00 UTC.
    const entry = (username: string, enterpriseId: number, action: string, iso: string, outcome: 'success' | 'failure' = 'success') => ({
      account_id: null,
      username,
      enterprise_id: enterpriseId,
      action,
      target: '',
      ip: '10.1.2.3',
      outcome,
      detail: '',
      created_at: iso,
    });
    await t.database.db
      .insertInto('audit_log')
      .values([
        entry('admin', hengyue, 'login', '2026-11-20T01:00:00.000Z'),
        entry('staff', hengyue, 'login-failed', '2026-11-20T02:30:00.000Z', 'failure'),
        entry('staff', hengyue, 'login', '2026-11-21T03:00:00.000Z'),
        entry('admin', hengyue, 'password-change', '2026-11-21T15:59:59.500Z'),
        entry('service', ruichi, 'login', '2026-11-21T04:00:00.000Z'),
      ])
      .execute();
  });
  afterAll(() => t.close());

  const list = async (token: string | undefined, query = '') => {
    const res = await t.app.inject({
      url: `${LIST}${query ? `?${query}` : ''}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
    });
    return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: { rows: Row[]; total: number }[] } };
  };

  it('needs a token and the audit authority', async () => {
    expect((await list(undefined)).body.code).toBe(20300);
    const forbidden = await list(staff);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 1, msg: '当前账号无权限' });
  });

  it('shows an enterprise administrator only their enterprise, newest first, in China time with Chinese action names', async () => {
    const { body } = await list(admin);
    const rows = body.data[0]?.rows ?? [];
    expect(rows.every((r) => r.enterpriseId === hengyue)).toBe(true);
    expect(rows.map((r) => r.action)).toEqual(['password-change', 'login', 'login-failed', 'login']);
    expect(rows[0]).toMatchObject({ username: 'admin', actionName: '修改密码', createdAt: '2026-11-21 23:59:59' });
    expect(rows[2]).toMatchObject({ actionName: '登录失败', outcome: 'failure', createdAt: '2026-11-20 10:30:00' });
    expect(body.data[0]?.total).toBe(4);
  });

  it('shows a platform operator every enterprise, and pages by offset and limit', async () => {
    const all = (await list(operator)).body.data[0];
    expect(all?.rows.some((r) => r.enterpriseId === ruichi)).toBe(true);
    const page2 = (await list(operator, 'offset=1&limit=2')).body.data[0];
    expect(page2?.total).toBe(all?.total);
    expect(page2?.rows.map((r) => r.createdAt)).toEqual(all?.rows.slice(1, 3).map((r) => r.createdAt));
  });

  it('filters by time range (whole seconds, China time), user, action and outcome', async () => {
    const day = (
      await list(
        admin,
        `filterStartTime=${encodeURIComponent('2026-11-21 00:00:00')}&filterEndTime=${encodeURIComponent('2026-11-21 23:59:59')}`,
      )
    ).body.data[0];
    expect(day?.rows.map((r) => r.action)).toEqual(['password-change', 'login']);
    expect((await list(admin, 'username=staff')).body.data[0]?.total).toBe(2);
    expect((await list(admin, 'action=login')).body.data[0]?.total).toBe(2);
    expect((await list(admin, 'outcome=failure')).body.data[0]?.rows.map((r) => r.username)).toEqual(['staff']);
  });

  it('records console writes as they happen', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/web-api/cms/v1/category',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
      payload: { code: 'audit-demo', name: '审计演示栏目', channel: 'news' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const latest = (await list(operator, 'action=content.category.create')).body.data[0]?.rows[0];
    expect(latest).toMatchObject({ username: 'operator', actionName: '新建栏目', target: 'audit-demo 审计演示栏目', outcome: 'success' });
  });

  it.each([
    ['filterStartTime=2026-11-21', '开始时间格式应为 yyyy-MM-dd HH:mm:ss'],
    [`filterEndTime=${encodeURIComponent('2026-02-30 00:00:00')}`, '结束时间格式应为 yyyy-MM-dd HH:mm:ss'],
    [
      `filterStartTime=${encodeURIComponent('2026-11-22 00:00:00')}&filterEndTime=${encodeURIComponent('2026-11-21 00:00:00')}`,
      '开始时间不能晚于结束时间',
    ],
    ['action=drop-tables', '未知的操作类型'],
  ])('refuses %s with a clear message', async (query, msg) => {
    const res = await list(admin, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 1, msg });
  });

  it('refuses out-of-range paging with code 1', async () => {
    const res = await list(admin, 'limit=1000');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1);
  });
});
