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
    const accounts = new Map(
      (await t.database.db.selectFrom('account').select(['id', 'username']).execute()).map((a) => [a.username, a.id] as const),
    );
    // Times are stored as ISO instants; 2026-11-20 09:00:00 China time is 01:00 UTC.
    const entry = (username: string, enterpriseId: number, action: string, iso: string, outcome: 'success' | 'failure' = 'success') => ({
      account_id: accounts.get(username) ?? null,
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
        { ...entry('admin', hengyue, 'content.article.create', '2026-11-19T01:00:00.000Z'), target: '=HYPERLINK("http://x","点我"),2' },
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
    expect(rows.map((r) => r.action)).toEqual(['password-change', 'login', 'login-failed', 'login', 'content.article.create']);
    expect(rows[0]).toMatchObject({
      username: 'admin',
      name: '张伟',
      enterpriseName: '徐州恒岳重工机械有限公司',
      actionName: '修改密码',
      createdAt: '2026-11-21 23:59:59',
    });
    expect(rows[2]).toMatchObject({ actionName: '登录失败', outcome: 'failure', createdAt: '2026-11-20 10:30:00' });
    expect(body.data[0]?.total).toBe(5);
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
    // The user filter matches the account or its holder's name.
    expect((await list(admin, `username=${encodeURIComponent('李娜')}`)).body.data[0]?.rows.map((r) => r.username)).toEqual([
      'staff',
      'staff',
    ]);
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

  const exportCsv = (token: string | undefined, query = '') =>
    t.app.inject({
      url: `/web-api/console/v1/audit/export${query ? `?${query}` : ''}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
    });
  /** RFC 4180 records of a file whose every field is quoted (as the export writes them). */
  const records = (body: string): string[][] => {
    const rows: string[][] = [];
    const field = /"((?:[^"]|"")*)"(,|\r\n)/gy;
    const text = body.replace(/^\uFEFF/, '');
    let row: string[] = [];
    let consumed = 0;
    for (let m = field.exec(text); m; m = field.exec(text)) {
      consumed += m[0].length;
      row.push((m[1] ?? '').replace(/""/g, '"'));
      if (m[2] === '\r\n') {
        rows.push(row);
        row = [];
      }
    }
    // Every byte belongs to a well-formed field.
    expect(consumed).toBe(text.length);
    return rows;
  };

  const actionsOf = async (token: string) => {
    const res = await t.app.inject({
      url: '/web-api/console/v1/audit/actions',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { code: string; name: string }[];
  };

  it("lists an enterprise administrator only the actions of an enterprise's own log, an operator every action", async () => {
    const mine = await actionsOf(admin);
    expect(mine).toEqual(
      expect.arrayContaining([
        { code: 'login', name: '登录' },
        { code: 'account.disable', name: '停用账号' },
        { code: 'certification.submit', name: '提交企业认证' },
        { code: 'audit.export', name: '导出操作日志' },
      ]),
    );
    const platformOnly = [
      'content.article.create',
      'content.home-block.update',
      'tenant.disable',
      'identifier.prefix.create',
      'certification.approve',
      'prefix-request.reject',
      'app-subscription.revoke',
    ];
    expect(mine.filter((a) => platformOnly.includes(a.code))).toEqual([]);
    const all = await actionsOf(operator);
    expect(all).toEqual(
      expect.arrayContaining([
        { code: 'content.application.reorder', name: '调整应用顺序' },
        { code: 'tenant.disable', name: '停用企业' },
        { code: 'login', name: '登录' },
      ]),
    );
    expect(all.length).toBeGreaterThan(mine.length);
  });

  it("refuses an enterprise administrator's filter by a platform action, as the list does not offer it", async () => {
    for (const action of ['tenant.disable', 'content.article.create']) {
      const res = await list(admin, `action=${action}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 1, msg: '未知的操作类型' });
    }
    expect((await list(operator, 'action=content.article.create')).body.data[0]?.total).toBeGreaterThan(0);
  });

  it('exports CSV: UTF-8 with BOM, Chinese headers, the enterprise scope, newest first, a Chinese file name', async () => {
    const res = await exportCsv(admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename=audit-log-\d{14}\.csv; filename\*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97-\d{14}\.csv$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, ...rows] = records(res.body);
    expect(header).toEqual(['时间', '账号', '姓名', '企业', '操作', '对象', 'IP', '结果', '说明', '请求编号']);
    // The export itself is recorded first, then the enterprise's entries; never another enterprise's.
    expect(rows.map((r) => r[4])).toEqual(['导出操作日志', '修改密码', '登录', '登录失败', '登录', '新建文章']);
    expect(rows.every((r) => r[3] === '徐州恒岳重工机械有限公司')).toBe(true);
    expect(rows[1]).toEqual([
      '2026-11-21 23:59:59',
      'admin',
      '张伟',
      '徐州恒岳重工机械有限公司',
      '修改密码',
      '',
      '10.1.2.3',
      '成功',
      '',
      '',
    ]);
    expect(rows[3]?.[7]).toBe('失败');
    // A formula in a cell is defused; its quotes and comma stay inside the field.
    expect(rows[5]?.[5]).toBe(`'=HYPERLINK("http://x","点我"),2`);
  });

  it('exports with the same filters and scope as the list: an operator sees every enterprise', async () => {
    const day = `filterStartTime=${encodeURIComponent('2026-11-21 00:00:00')}&filterEndTime=${encodeURIComponent('2026-11-21 23:59:59')}`;
    const adminDay = records((await exportCsv(admin, day)).body).slice(1);
    expect(adminDay.map((r) => r[4])).toEqual(['修改密码', '登录']);
    const operatorDay = records((await exportCsv(operator, `${day}&action=login`)).body).slice(1);
    expect(operatorDay.map((r) => r[1])).toEqual(['service', 'staff']);
    expect(operatorDay[0]?.[3]).toBe('常州瑞驰液压科技有限公司');
    const failures = records((await exportCsv(admin, 'outcome=failure&username=staff')).body).slice(1);
    expect(failures.map((r) => r[4])).toEqual(['登录失败']);
  });

  it('refuses an export without the authority or with bad filters, as JSON', async () => {
    expect((await exportCsv(undefined)).json().code).toBe(20300);
    const forbidden = await exportCsv(staff);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    const bad = await exportCsv(admin, 'filterStartTime=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 1, msg: '开始时间格式应为 yyyy-MM-dd HH:mm:ss' });
  });

  it('records a refused console write as a failure with its message', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/web-api/cms/v1/category',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
      payload: { code: 'Bad Code', name: '坏编码', channel: 'news' },
    });
    expect(refused.statusCode).toBe(400);
    const latest = (await list(operator, 'action=content.category.create&outcome=failure')).body.data[0]?.rows[0];
    expect(latest).toMatchObject({ username: 'operator', outcome: 'failure', detail: expect.stringContaining('分类编码') });
  });

  it('records a refused write whose address holds a NUL byte, the NUL written out as text on either database', async () => {
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/web-api/console/v1/account-group/7%00x',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin },
      payload: { name: '质量部', roleIds: [] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 1, msg: '路径参数 id 类型不正确' });
    const latest = (await list(admin, 'action=group.update&outcome=failure')).body.data[0]?.rows[0];
    expect(latest).toMatchObject({ username: 'admin', outcome: 'failure', target: '7\\u0000x', detail: '路径参数 id 类型不正确' });

    // A text parameter passes the schema and is refused by the input guard: recorded the same way.
    const guarded = await t.app.inject({
      method: 'DELETE',
      url: '/web-api/cms/v1/article/a%00b',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
    });
    expect(guarded.statusCode).toBe(400);
    expect(guarded.json()).toEqual({ code: 1, msg: '路径参数 uuid 含有不允许的控制字符' });
    const deletion = (await list(operator, 'action=content.article.delete&outcome=failure')).body.data[0]?.rows[0];
    expect(deletion).toMatchObject({ username: 'operator', target: 'a\\u0000b', detail: '路径参数 uuid 含有不允许的控制字符' });
  });
});
