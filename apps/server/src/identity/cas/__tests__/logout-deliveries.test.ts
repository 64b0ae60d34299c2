import type { LogoutDeliveryRow, SessionRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';

// 单点登出记录: every single-logout message of an ended session, its outcome, and its retries with back-off.
describe.each(testDialects())('single-logout delivery log on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let admin: string;
  let rcadmin: string;
  beforeAll(async () => {
    service = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: service.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [admin, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin')]);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const call = (token: string, method: 'GET' | 'DELETE', url: string) =>
    t.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } });
  const deliveries = async (token: string) => {
    const res = await call(token, 'GET', '/web-api/console/v1/session/logout-deliveries?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { total: number; rows: LogoutDeliveryRow[] }[] }>().data[0]!;
  };
  /** Signs `username` on to the application; answers the ticket it got. */
  const signOn = async (username: string) => {
    const hops = await new TestBrowser(base).casLogin(username, DEMO_PASSWORD, `${service.url}/home`);
    const toService = hops.find((h) => h.location?.includes('ticket='))?.location ?? 'http://x/';
    const ticket = new URL(toService).searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-/);
    return ticket;
  };
  /** 强制下线 of `username`'s session; answers its handle. */
  const forceLogout = async (username: string) => {
    const list = await call(admin, 'GET', '/web-api/console/v1/session/page/list?limit=100');
    const row = list.json<{ data: { rows: SessionRow[] }[] }>().data[0]!.rows.find((r) => r.username === username)!;
    expect((await call(admin, 'DELETE', `/web-api/console/v1/session/${encodeURIComponent(row.id)}`)).statusCode).toBe(200);
    return row.id;
  };
  const rowOf = async (sessionId: string) => (await deliveries(admin)).rows.find((r) => r.sessionId === sessionId);

  it('records a delivered logoutRequest with the ended session, its application and protocol', async () => {
    const ticket = await signOn('wangfang');
    const handle = await forceLogout('wangfang');
    expect(service.state.tickets).toContain(ticket);
    expect(await rowOf(handle)).toMatchObject({
      username: 'wangfang',
      applicationName: service.host,
      protocol: 'cas3',
      target: `${service.url}/home`,
      state: 'delivered',
      reason: '',
      attempts: 1,
      nextAt: '',
    });
  });

  it('a refused message is retried after the back-off by one instance only, and recorded as delivered when it gets through', async () => {
    service.state.status = 500;
    const ticket = await signOn('liuyang');
    const scraped = async () => (await t.app.metrics.scrape()).body;
    const deliveries = (text: string, result: string) =>
      Number(new RegExp(`^portal_single_logout_deliveries_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await scraped();
    const handle = await forceLogout('liuyang');
    const first = await rowOf(handle);
    expect(first).toMatchObject({ state: 'retrying', reason: '应用返回 HTTP 500', attempts: 1 });
    expect(first?.nextAt).not.toBe('');

    const sent = service.state.tickets.length;
    expect(await t.app.logoutDeliveryService.retryDue(new Date())).toBe(0);
    const minuteLater = new Date(Date.now() + 61_000);
    // Two instances ticking at once: the claim lets exactly one of them send.
    const counts = await Promise.all([
      t.app.logoutDeliveryService.retryDue(minuteLater),
      t.app.logoutDeliveryService.retryDue(minuteLater),
    ]);
    expect(counts[0] + counts[1]).toBe(1);
    expect(service.state.tickets.length).toBe(sent + 1);
    expect(await rowOf(handle)).toMatchObject({ state: 'retrying', reason: '应用返回 HTTP 500', attempts: 2 });

    service.state.status = 200;
    expect(await t.app.logoutDeliveryService.retryDue(new Date(Date.now() + 7 * 60_000))).toBe(1);
    expect(service.state.tickets.at(-1)).toBe(ticket);
    expect(await rowOf(handle)).toMatchObject({ state: 'delivered', reason: '', attempts: 3, nextAt: '' });
    // The instance's metrics count each attempt's result: two refused (to be retried), then the delivery.
    const after = await scraped();
    expect(['retrying', 'delivered', 'failed'].map((r) => deliveries(after, r) - deliveries(before, r))).toEqual([2, 1, 0]);
  });

  it('gives up after the last retry and says why; another enterprise sees none of it', async () => {
    service.state.status = 503;
    await signOn('zhoujie');
    const handle = await forceLogout('zhoujie');
    const hour = 60 * 60_000;
    for (const later of [2 * 60_000, 10 * 60_000, hour]) await t.app.logoutDeliveryService.retryDue(new Date(Date.now() + later));
    expect(await rowOf(handle)).toMatchObject({ state: 'failed', reason: '应用返回 HTTP 503', attempts: 4, nextAt: '' });
    expect(await t.app.logoutDeliveryService.retryDue(new Date(Date.now() + 24 * hour))).toBe(0);

    const other = await deliveries(rcadmin);
    expect(other.rows.map((r) => r.username)).not.toContain('zhoujie');
    expect((await call(await tokenFor(t, 'staff'), 'GET', '/web-api/console/v1/session/logout-deliveries')).statusCode).toBe(403);
  });
});
