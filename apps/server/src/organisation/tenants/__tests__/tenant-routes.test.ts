import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnterpriseMessage, TenantMessage, creditCodeCheckChar } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
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

/** A 统一社会信用代码 with its GB 32100-2015 check character. */
const creditCode = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

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
    t = await createTestApp(dialect, { CAS_SERVICES: `${applicationUrl}/app`, LOGIN_ATTEMPTS_PER_MINUTE: '1000', SMS_OUTBOX: '1' });
    base = await listen(t.app);
    [operator, admin] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin')]);
    for (const e of await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute()) enterprises.set(e.name, e.id);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => application.close(resolve));
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, token?: string, payload?: object) =>
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
  const outbox = async (phone: string) => {
    const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    return res.statusCode === 200 ? res.json<{ data: { templateKey: string; params: Record<string, string> }[] }>().data : [];
  };
  const created = {
    name: '无锡新建精工科技有限公司',
    creditCode: creditCode('91320200MA1NEW001'),
    adminName: '赵新',
    adminUsername: 'zhaoxin',
    adminPhone: '13900000801',
  };

  it('新建企业 creates the enterprise and its administrator, whose SMS password signs in and must be changed', async () => {
    const res = await call('POST', '/tenant', operator, { ...created, name: ` ${created.name} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: 20200, msg: '企业已创建，管理员的初始密码已通过短信发送' });
    const page = await list(`?keyword=${encodeURIComponent('新建精工')}`);
    expect(page.rows.map((r) => [r.name, r.certificationStatus, r.status, r.accountCount, r.admins])).toEqual([
      [created.name, 'none', 'active', 1, ['赵新']],
    ]);

    const [sms] = await outbox(created.adminPhone);
    expect(sms?.templateKey).toBe('password');
    const password = sms?.params.password ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{10,18}$/);
    const browser = new TestBrowser(base);
    const [first] = await browser.casLogin(created.adminUsername, password);
    expect(first?.status).toBe(200);
    expect(first?.text).toContain('修改初始密码');
    expect(first?.text).toContain('赵新');
    expect(browser.cookies.has('TGC')).toBe(false);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'outcome', 'detail'])
      .where('action', '=', 'tenant.create')
      .execute();
    expect(audit).toEqual([
      { username: 'operator', target: created.name, outcome: 'success', detail: '管理员 zhaoxin 赵新，初始密码已短信发送' },
    ]);
  });

  it('新建企业 refuses taken names, credit codes, usernames and phones and bad fields, and writes nothing', async () => {
    const seeded = await t.database.db.selectFrom('enterprise').select('credit_code').where('name', '=', HENGYUE).executeTakeFirstOrThrow();
    const fresh = {
      name: '无锡另一家科技有限公司',
      creditCode: creditCode('91320200MA1NEW002'),
      adminName: '钱多',
      adminUsername: 'qianduo',
      adminPhone: '13900000802',
    };
    const refusals: [object, number, string][] = [
      [{ name: created.name }, 409, EnterpriseMessage.nameTaken],
      [{ name: HENGYUE }, 409, EnterpriseMessage.nameTaken],
      [{ creditCode: seeded.credit_code }, 409, EnterpriseMessage.creditCodeTaken],
      [{ adminUsername: 'admin' }, 409, TenantMessage.usernameTaken],
      // Deleted accounts keep their username and phone.
      [{ adminUsername: 'chenming' }, 409, TenantMessage.usernameTaken],
      [{ adminPhone: '13800000001' }, 409, TenantMessage.phoneTaken],
      [
        { creditCode: `${fresh.creditCode.slice(0, 17)}${fresh.creditCode.endsWith('0') ? '1' : '0'}` },
        400,
        EnterpriseMessage.creditCodeCheck,
      ],
      [{ creditCode: '' }, 400, EnterpriseMessage.creditCodeRequired],
      [{ name: '' }, 400, EnterpriseMessage.nameRequired],
      [{ adminName: '' }, 400, TenantMessage.nameRequired],
      [{ adminUsername: '1abc' }, 400, TenantMessage.usernameInvalid],
      [{ adminPhone: '12345' }, 400, TenantMessage.phoneInvalid],
    ];
    const before = await list();
    for (const [change, status, msg] of refusals) {
      const res = await call('POST', '/tenant', operator, { ...fresh, ...change });
      expect([res.statusCode, res.json()], JSON.stringify(change)).toEqual([status, { code: 1, msg }]);
    }
    // An enterprise administrator may not create enterprises.
    const denied = await call('POST', '/tenant', admin, fresh);
    expect([denied.statusCode, denied.json()]).toEqual([403, { code: 1, msg: '当前账号无权限' }]);

    expect((await list()).total).toBe(before.total);
    expect(await t.database.db.selectFrom('account').select('id').where('username', '=', 'qianduo').execute()).toEqual([]);
    expect(await outbox(fresh.adminPhone)).toEqual([]);
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'tenant.create')
      .where('outcome', '=', 'failure')
      .orderBy('id')
      .execute();
    // The refused administrator's call is recorded too.
    expect(failures.map((f) => f.detail)).toEqual([...refusals.map(([, , msg]) => msg), '当前账号无权限']);

    // The same body with free values goes through.
    const ok = await call('POST', '/tenant', operator, fresh);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
