import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { callerFor, createTestApp, type TestApp, testClock, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const MINUTE = 60_000;
type Answer = { code: number; msg: string; data: unknown[] };

describe.each(testDialects())('the console session follows 安全设置 会话空闲超时 and 会话最长时长, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  const clock = testClock();
  beforeAll(async () => {
    // Platform defaults for enterprises without a policy of their own: 45 minutes idle, 3 hours at most.
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', CAS_TGT_IDLE_MINUTES: '45', CAS_TGT_HOURS: '3' }, { clock });
    base = await listen(t.app);
    const admin = await callerFor(t, 'admin');
    const policy = await t.app.securityPolicyRepository.ofEnterprise(admin.enterpriseId);
    await t.app.securityService.savePolicy(admin.enterpriseId ?? 0, { ...policy, sessionIdleMinutes: 10, sessionMaxHours: 1 }, admin);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  /** Minutes pass for the server (its clock and its caches' clock, not a wait). */
  const later = (minutes: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + minutes * MINUTE });
    clock.advance(minutes * MINUTE);
  };

  const signIn = async (username: string) => {
    const browser = new TestBrowser(base);
    await browser.portalLogin(username, DEMO_PASSWORD);
    const menus = await browser.json<{ data: { token: { access_token: string } }[] }>('/web/portal/menu/list');
    const authorization = `Bearer ${menus.body.data[0]?.token.access_token ?? ''}`;
    const signedIn = async () => (await browser.json<Answer>('/web/portal/menu/list')).body.data.length === 1;
    const renew = () => browser.json<Answer>('/web/portal/oauth/token');
    const profile = () =>
      browser.json<Answer>('/web/portal/account/two-factor', { headers: { 'x-requested-with': 'XMLHttpRequest', authorization } });
    return { signedIn, renew, profile };
  };

  it("ends a session idle for longer than its enterprise's 会话空闲超时, counted from its last use", async () => {
    const staff = await signIn('staff');
    later(8);
    expect(await staff.signedIn()).toBe(true);
    // 16 minutes after login, but only 8 since it was last used.
    later(8);
    expect(await staff.signedIn()).toBe(true);
    later(11);
    // Answered as an expired session is: the web's 登录已失效 path.
    const renewed = await staff.renew();
    expect(renewed.status).toBe(401);
    expect(renewed.body).toEqual({ code: 1, msg: '登录已失效，请重新登录' });
    expect(await staff.signedIn()).toBe(false);
  });

  it("ends a session in use once it is older than its enterprise's 会话最长时长", async () => {
    const staff = await signIn('staff');
    for (let i = 0; i < 6; i++) {
      later(9);
      expect(await staff.signedIn()).toBe(true);
    }
    later(7); // 61 minutes after login, 7 since last use
    expect(await staff.signedIn()).toBe(false);
  });

  it('an API call with a token of the ended session is refused like one of an expired session', async () => {
    const staff = await signIn('staff');
    expect((await staff.profile()).status).toBe(200);
    later(11);
    const refused = await staff.profile();
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 20302 });
  });

  it('an enterprise without a policy of its own follows the platform defaults', async () => {
    const service = await signIn('service');
    later(40);
    expect(await service.signedIn()).toBe(true);
    later(46);
    expect(await service.signedIn()).toBe(false);

    const again = await signIn('service');
    for (let i = 0; i < 4; i++) {
      later(44);
      expect(await again.signedIn()).toBe(true);
    }
    later(5); // 181 minutes after login
    expect(await again.signedIn()).toBe(false);
  });

  it('a saved policy applies to open sessions at once', async () => {
    const service = await signIn('service');
    later(20);
    expect(await service.signedIn()).toBe(true);
    const rcadmin = await callerFor(t, 'service');
    const policy = await t.app.securityPolicyRepository.ofEnterprise(rcadmin.enterpriseId);
    await t.app.securityService.savePolicy(rcadmin.enterpriseId ?? 0, { ...policy, sessionIdleMinutes: 15 }, rcadmin);
    later(16);
    expect(await service.signedIn()).toBe(false);
  });
});
