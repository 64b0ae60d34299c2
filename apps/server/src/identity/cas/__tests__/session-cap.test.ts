import type { LoginLogRow, SecurityPolicy, SessionRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { startLogoutReceiver } from '../../../testing/logout-receiver.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

// 安全设置's cap on an account's concurrent SSO sessions: a sign-in beyond it ends the oldest session
// (with single logout and a 登出 row) or is refused, as the enterprise chose.
describe.each(testDialects())('同时在线会话数上限 on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let app: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let admin: string;
  let policy: SecurityPolicy;
  beforeAll(async () => {
    app = await startLogoutReceiver();
    t = await createTestApp(dialect, { CAS_SERVICES: app.url, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    admin = await tokenFor(t, 'admin');
    const current = await call('GET', '/security/policy');
    policy = current.json<{ data: SecurityPolicy[] }>().data[0]!;
  });
  afterAll(async () => {
    await t.close();
    await app.close();
  });

  function call(method: 'GET' | 'PUT', path: string, payload?: object) {
    return t.app.inject({ method, url: `/web-api/console/v1${path}`, payload, headers: { ...XHR, authorization: admin } });
  }
  const capAt = async (sessionMaxConcurrent: number, sessionOverflow: SecurityPolicy['sessionOverflow']) => {
    const saved = await call('PUT', '/security/policy', { ...policy, sessionMaxConcurrent, sessionOverflow });
    expect(saved.statusCode, saved.body).toBe(200);
  };
  /** Signs `username` in to the application in a fresh browser; answers the browser and the last hop. */
  const signIn = async (username: string) => {
    const browser = new TestBrowser(base);
    const hops = await browser.casLogin(username, DEMO_PASSWORD, `${app.url}/home`);
    return { browser, last: hops.at(-1)!, ticketed: hops.some((h) => h.location?.includes('ticket=ST-')) };
  };
  /** Whether the browser's SSO session still signs it in to the application without the form. */
  const stillSignedIn = async (browser: TestBrowser) =>
    (await browser.fetch(`/cas/login?service=${encodeURIComponent(`${app.url}/home`)}`)).location?.includes('ticket=ST-') ?? false;
  const sessionsOf = async (username: string) => {
    const res = await call('GET', `/session/page/list?keyword=${username}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { rows: SessionRow[] }[] }>().data[0]!.rows.filter((r) => r.username === username);
  };
  const logRows = async (username: string, result: 'failure' | 'logout') => {
    const res = await call('GET', `/login-log/page/list?limit=100&result=${result}&username=${username}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { rows: LoginLogRow[] }[] }>().data[0]!.rows;
  };

  it('saves the cap with the policy and refuses one out of range or an unknown choice', async () => {
    await capAt(3, 'refuse');
    expect((await call('GET', '/security/policy')).json<{ data: SecurityPolicy[] }>().data[0]).toMatchObject({
      sessionMaxConcurrent: 3,
      sessionOverflow: 'refuse',
    });
    const tooMany = await call('PUT', '/security/policy', { ...policy, sessionMaxConcurrent: 21, sessionOverflow: 'refuse' });
    expect([tooMany.statusCode, tooMany.json().msg]).toEqual([400, '同时在线会话数上限须为 0-20 之间的整数']);
    const unknown = await call('PUT', '/security/policy', { ...policy, sessionMaxConcurrent: 2, sessionOverflow: 'ask' });
    expect(unknown.statusCode).toBe(400);
    expect((await call('GET', '/security/policy')).json<{ data: SecurityPolicy[] }>().data[0]!.sessionMaxConcurrent).toBe(3);
  });

  it('结束最早的会话: the third sign-in ends the first, whose application hears of it, with a 登出 row', async () => {
    await capAt(2, 'end-oldest');
    const first = await signIn('wangfang');
    const second = await signIn('wangfang');
    const heard = app.logoutRequests.length;
    const third = await signIn('wangfang');
    expect([first.ticketed, second.ticketed, third.ticketed]).toEqual([true, true, true]);

    expect(await stillSignedIn(first.browser)).toBe(false);
    expect(await stillSignedIn(second.browser)).toBe(true);
    expect(await stillSignedIn(third.browser)).toBe(true);
    expect(await sessionsOf('wangfang')).toHaveLength(2);
    expect(app.logoutRequests.length).toBeGreaterThan(heard);
    const [ended] = await logRows('wangfang', 'logout');
    expect(ended).toMatchObject({ reason: 'session-cap', reasonText: '超出在线会话数上限', logoutDeliveries: { total: 1 } });
  });

  it('拒绝新的登录: a sign-in beyond the cap gets the form again with why, and the sessions stay', async () => {
    await capAt(1, 'refuse');
    const first = await signIn('liuyang');
    const wrong = async () => (await new TestBrowser(base).casLogin('liuyang', 'Wrong#2026', `${app.url}/home`)).at(-1)!.text;
    expect(await wrong()).toContain(`还可尝试 ${policy.lockMaxFailures - 1} 次`);
    const refused = await signIn('liuyang');
    expect(refused.ticketed).toBe(false);
    expect(refused.last.status).toBe(403);
    expect(refused.last.text).toContain('已达到同时在线会话数上限（1 个），请先在其他设备退出登录后再试');
    expect(refused.browser.cookies.has('TGC')).toBe(false);
    expect(await stillSignedIn(first.browser)).toBe(true);
    expect(await sessionsOf('liuyang')).toHaveLength(1);
    const [failure] = await logRows('liuyang', 'failure');
    expect(failure).toMatchObject({ reason: 'sessions-full', reasonText: '在线会话数已达上限' });
    // The right password counted as one: the wrong ones before it start again.
    expect(await wrong()).toContain(`还可尝试 ${policy.lockMaxFailures - 1} 次`);

    // After 退出登录 on the first device, a new sign-in is let in.
    expect((await first.browser.fetch('/cas/logout')).status).toBe(200);
    expect((await signIn('liuyang')).ticketed).toBe(true);
  });

  it('holds under simultaneous sign-ins of one account: exactly the cap get in', async () => {
    await capAt(2, 'refuse');
    const results = await Promise.all(Array.from({ length: 5 }, () => signIn('zhoujie')));
    expect(results.filter((r) => r.ticketed)).toHaveLength(2);
    expect(results.filter((r) => r.last.status === 403)).toHaveLength(3);
    expect(await sessionsOf('zhoujie')).toHaveLength(2);
  });

  it('0 is no cap', async () => {
    await capAt(0, 'refuse');
    const results = await Promise.all([signIn('zhoujie'), signIn('zhoujie')]);
    expect(results.every((r) => r.ticketed)).toBe(true);
    expect(await sessionsOf('zhoujie')).toHaveLength(4);
  });
});
