import type { LoginLogRow, LogoutDeliveryRow, SessionRow, Statistics } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';

// 登录日志 records the end of each SSO session (登出, and how it ended) with what its applications were told.
describe.each(testDialects())('登录日志 登出 rows on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let admin: string;
  let rcadmin: string;
  let operator: string;
  beforeAll(async () => {
    service = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: service.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [admin, rcadmin, operator] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'operator')]);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const call = (token: string, method: 'GET' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } });
  const logoutRows = async (username: string, token = admin) => {
    const res = await call(token, 'GET', `/web-api/console/v1/login-log/page/list?limit=100&result=logout&username=${username}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { total: number; rows: LoginLogRow[] }[] }>().data[0]!.rows;
  };
  const deliveriesOf = async (id: number, token = admin) => call(token, 'GET', `/web-api/console/v1/login-log/${id}/logout-deliveries`);
  /** Signs `username` on to the application in a browser of its own; answers the browser. */
  const signOn = async (username: string) => {
    const browser = new TestBrowser(base);
    const hops = await browser.casLogin(username, DEMO_PASSWORD, `${service.url}/home`);
    expect(hops.some((h) => h.location?.includes('ticket=ST-'))).toBe(true);
    return browser;
  };
  const accountId = async (username: string) =>
    (await t.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  it('退出登录 at the central login is a 登出 row (主动退出) whose application heard of it', async () => {
    const browser = await signOn('wangfang');
    expect((await browser.fetch('/cas/logout')).status).toBe(200);
    const [row] = await logoutRows('wangfang');
    expect(row).toMatchObject({
      username: 'wangfang',
      name: '王芳',
      result: 'logout',
      reason: 'signed-out',
      reasonText: '主动退出',
      ip: '127.0.0.1',
      logoutDeliveries: { total: 1, delivered: 1, retrying: 0, failed: 0 },
    });
    const res = await deliveriesOf(row!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: LogoutDeliveryRow[] }>().data).toEqual([
      expect.objectContaining({ applicationName: service.host, protocol: 'cas3', state: 'delivered', target: `${service.url}/home` }),
    ]);
  });

  it('强制下线 says so, and a message the application refused shows as waiting for its retry', async () => {
    service.state.status = 503;
    try {
      await signOn('liuyang');
      const list = await call(admin, 'GET', '/web-api/console/v1/session/page/list?limit=100&keyword=liuyang');
      const session = list.json<{ data: { rows: SessionRow[] }[] }>().data[0]!.rows[0]!;
      expect((await call(admin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(session.id)}`)).statusCode).toBe(200);
    } finally {
      service.state.status = 200;
    }
    const [row] = await logoutRows('liuyang');
    expect(row).toMatchObject({
      reason: 'forced',
      reasonText: '管理员强制下线',
      logoutDeliveries: { total: 1, retrying: 1, delivered: 0 },
    });
    const [delivery] = (await deliveriesOf(row!.id)).json<{ data: LogoutDeliveryRow[] }>().data;
    expect(delivery).toMatchObject({ state: 'retrying', reason: '应用返回 HTTP 503', attempts: 1 });
    // The filter by 原因 finds it; the export names it in words.
    const filtered = await call(admin, 'GET', '/web-api/console/v1/login-log/page/list?limit=100&reason=forced');
    expect(filtered.json<{ data: { rows: LoginLogRow[] }[] }>().data[0]!.rows.map((r) => r.username)).toEqual(['liuyang']);
    const csv = await call(admin, 'GET', '/web-api/console/v1/login-log/export?result=logout&username=liuyang');
    expect(csv.body).toContain('"登出","管理员强制下线"');
  });

  it('停用 ends every session of the account, one 登出 row each (账号停用); a session that signed in nowhere is a row too', async () => {
    await signOn('zhoujie');
    await new TestBrowser(base).casLogin('zhoujie', DEMO_PASSWORD);
    const id = await accountId('zhoujie');
    const res = await call(admin, 'PUT', `/web-api/console/v1/account/${id}/status`, { status: 'disabled' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await logoutRows('zhoujie');
    expect(rows.map((r) => [r.reasonText, r.logoutDeliveries?.total])).toEqual(
      expect.arrayContaining([
        ['账号停用', 1],
        ['账号停用', 0],
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('a 登出 row’s messages are read like the row: another enterprise answers 404, operators read it, a sign-in row has none', async () => {
    const [row] = await logoutRows('wangfang');
    expect((await deliveriesOf(row!.id, rcadmin)).statusCode).toBe(404);
    expect((await deliveriesOf(row!.id, operator)).statusCode).toBe(200);
    const signIns = await call(admin, 'GET', '/web-api/console/v1/login-log/page/list?limit=1&result=success&username=wangfang');
    const signIn = signIns.json<{ data: { rows: LoginLogRow[] }[] }>().data[0]!.rows[0]!;
    expect(signIn.logoutDeliveries).toBeUndefined();
    const none = await deliveriesOf(signIn.id);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 1, msg: '登出记录不存在' });
  });

  it('统计分析 counts sign-ins only: a 登出 is neither a success nor a failure', async () => {
    const today = async () => {
      const res = await call(admin, 'GET', '/web-api/console/v1/statistics');
      expect(res.statusCode, res.body).toBe(200);
      const { signInsPerDay } = res.json<{ data: Statistics[] }>().data[0]!;
      return signInsPerDay.at(-1)!;
    };
    const before = await today();
    const browser = await signOn('wangfang');
    const afterSignIn = await today();
    expect(afterSignIn.success).toBe(before.success + 1);
    await browser.fetch('/cas/logout');
    expect(await today()).toEqual(afterSignIn);
  });
});
