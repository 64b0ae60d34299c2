import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../db/seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

interface TenantRow {
  id: number;
  name: string;
  certificationStatus: string;
  status: string;
  accountCount: number;
  admins: string[];
  createdAt: string;
}

const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';
const PLATFORM = 'Engineering e+ 平台运营中心';
const MINGCHUAN = '江苏明川智能装备有限公司';

describe.each(testDialects())('租户管理 API on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let operator: string;
  let admin: string;
  /** A registered CAS application: the single logouts it received. */
  const logouts: string[] = [];
  let application: http.Server;
  let applicationUrl: string;
  const enterprises = new Map<string, number>();

  beforeAll(async () => {
    application = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST') logouts.push(decodeURIComponent(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => application.listen(0, '127.0.0.1', resolve));
    applicationUrl = `http://127.0.0.1:${(application.address() as AddressInfo).port}`;
    t = await createTestApp(dialect, { CAS_SERVICES: `${applicationUrl}/app`, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [operator, admin] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin')]);
    for (const e of await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute()) enterprises.set(e.name, e.id);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => application.close(resolve));
  });

  const call = (method: 'GET' | 'PUT', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async (query = '') => {
    const res = await call('GET', `/tenant/page/list${query}`, operator);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: TenantRow[] };
  };
  const menus = async (browser: TestBrowser) =>
    (await browser.json<{ data: { token: { access_token: string } }[] }>('/web/portal/menu/list')).body.data;

  it('is for platform operators only', async () => {
    expect((await call('GET', '/tenant/page/list')).json().code).toBe(20300);
    const denied = await call('GET', '/tenant/page/list', admin);
    expect([denied.statusCode, denied.json()]).toEqual([403, { code: 1, msg: '当前账号无权限' }]);
    expect((await call('PUT', `/tenant/${enterprises.get(RUICHI)}/status`, admin, { status: 'disabled' })).statusCode).toBe(403);
  });

  it('lists enterprises newest first with certification, accounts (not deleted) and active administrators', async () => {
    await t.database.db.updateTable('account').set({ status: 'deleted' }).where('username', '=', 'chenming').execute();
    const page = await list();
    expect(page.total).toBe(4);
    expect(page.rows.map((r) => [r.name, r.certificationStatus, r.status, r.accountCount, r.admins])).toEqual([
      [MINGCHUAN, 'pending', 'active', 1, ['周明川']],
      // operator and reviewer.
      [PLATFORM, 'certified', 'active', 2, []],
      [RUICHI, 'certified', 'active', 2, ['孙丽']],
      // admin, staff, wangfang, liuyang, zhoujie (chenming is deleted).
      [HENGYUE, 'certified', 'active', 5, ['张伟']],
    ]);
    expect(page.rows[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await list('?keyword=瑞驰')).rows.map((r) => r.name)).toEqual([RUICHI]);
    expect((await list('?certificationStatus=pending')).rows.map((r) => r.name)).toEqual([MINGCHUAN]);
    expect((await list('?certificationStatus=certified&status=active&limit=1&offset=2')).rows.map((r) => r.name)).toEqual([HENGYUE]);
    expect((await list('?status=disabled')).total).toBe(0);
    const bad = await call('GET', '/tenant/page/list?status=gone', operator);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(1);
  });

  it("停用 ends every session of the enterprise's accounts, sends single logout and refuses their logins; 启用 lets them in", async () => {
    // rcadmin has a portal session and a ticket of a registered application.
    const browser = new TestBrowser(base);
    await browser.portalLogin('rcadmin', DEMO_PASSWORD);
    const [entry] = await menus(browser);
    const token = `Bearer ${entry?.token.access_token ?? ''}`;
    expect((await call('GET', '/role/list', token)).statusCode).toBe(200);
    const appLogin = await browser.fetch(`/cas/login?service=${encodeURIComponent(`${applicationUrl}/app/home`)}`);
    expect(appLogin.status).toBe(303);
    const ticket = new URL(appLogin.location ?? '').searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);
    // Another enterprise's session is not touched.
    const other = new TestBrowser(base);
    await other.portalLogin('admin', DEMO_PASSWORD);

    const disabled = await call('PUT', `/tenant/${enterprises.get(RUICHI)}/status`, operator, { status: 'disabled' });
    expect(disabled.json()).toEqual({ code: 20200, msg: '企业已停用', data: [] });
    expect(await menus(browser)).toEqual([]);
    expect((await call('GET', '/role/list', token)).json().code).toBe(20302);
    expect(logouts.some((body) => body.includes(ticket))).toBe(true);
    expect(await menus(other)).toHaveLength(1);
    const refused = await new TestBrowser(base).casLogin('rcadmin', DEMO_PASSWORD);
    expect(refused[0]?.status).toBe(403);
    expect(refused[0]?.text).toContain('账号已停用，请联系企业管理员');
    expect((await list('?status=disabled')).rows.map((r) => r.name)).toEqual([RUICHI]);

    const enabled = await call('PUT', `/tenant/${enterprises.get(RUICHI)}/status`, operator, { status: 'active' });
    expect(enabled.json()).toEqual({ code: 20200, msg: '企业已启用', data: [] });
    const again = new TestBrowser(base);
    expect((await again.portalLogin('rcadmin', DEMO_PASSWORD))[0]?.status).toBe(303);
    expect(await menus(again)).toHaveLength(1);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'username', 'target', 'outcome'])
      .where('action', 'in', ['tenant.disable', 'tenant.enable'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'tenant.disable', username: 'operator', target: RUICHI, outcome: 'success' },
      { action: 'tenant.enable', username: 'operator', target: RUICHI, outcome: 'success' },
    ]);
  });

  it("refuses the operator's own enterprise (400) and unknown ids (404), audited as failures", async () => {
    const own = await call('PUT', `/tenant/${enterprises.get(PLATFORM)}/status`, operator, { status: 'disabled' });
    expect([own.statusCode, own.json()]).toEqual([400, { code: 1, msg: '不能停用本账号所在的企业' }]);
    expect((await list('?keyword=平台运营')).rows[0]?.status).toBe('active');
    const missing = await call('PUT', '/tenant/999999/status', operator, { status: 'disabled' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { code: 1, msg: '企业不存在' }]);
    const bad = await call('PUT', `/tenant/${enterprises.get(HENGYUE)}/status`, operator, { status: 'deleted' });
    expect(bad.statusCode).toBe(400);
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'tenant.disable')
      .where('outcome', '=', 'failure')
      .orderBy('id')
      .execute();
    expect(failures).toEqual([
      { action: 'tenant.disable', detail: '不能停用本账号所在的企业' },
      { action: 'tenant.disable', detail: '企业不存在' },
    ]);
  });
});
