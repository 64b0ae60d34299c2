import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { base32Decode, totp } from '../../../testing/totp.js';

type Answer = { code: number; msg: string; data: unknown[] };
const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
const MINUTE = 60_000;

describe.each(testDialects())('验证身份 before sensitive changes, and 退出其他设备, on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  /** staff's authenticator key (enrolled in beforeAll). */
  let staffKey: Buffer;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000', LOGIN_MAX_FAILURES: '3', REAUTH_MINUTES: '5' });
    base = await listen(t.app);
    // staff binds an authenticator, as the central login's enrolment does.
    const staff = await t.database.db.selectFrom('account').select('id').where('username', '=', 'staff').executeTakeFirstOrThrow();
    const secret = (await t.app.twoFactorService.pendingSecret(staff.id)) ?? '';
    staffKey = base32Decode(secret);
    expect(await t.app.twoFactorService.confirm(staff.id, totp(staffKey, Date.now() - 30_000), async () => {})).toHaveLength(10);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  /** Minutes pass for the server (its clock, not a wait). */
  const later = (minutes: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + minutes * MINUTE });
  };

  const signIn = async (username: string) => {
    const browser = new TestBrowser(base);
    await browser.portalLogin(username, DEMO_PASSWORD);
    const menus = await browser.json<{ data: { token: { access_token: string } }[] }>('/web/portal/menu/list');
    const token = `Bearer ${menus.body.data[0]?.token.access_token ?? ''}`;
    const call = (method: string, path: string, body?: unknown) =>
      browser.json<Answer>(`/web/portal/account${path}`, {
        method,
        ...(body === undefined
          ? { headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } }
          : { headers: { ...xhr, authorization: token }, body: JSON.stringify(body) }),
      });
    const encrypt = async (text: string) => {
      const { body } = await browser.json<{ data: { publicKey: string }[] }>('/web/portal/account/public-key');
      const key = createPublicKey({ key: Buffer.from(body.data[0]?.publicKey ?? '', 'base64'), format: 'der', type: 'spki' });
      return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text)).toString('base64');
    };
    const reauth = async (proof: { password: string } | { code: string }) =>
      call('POST', '/reauth', 'password' in proof ? { password: await encrypt(proof.password) } : proof);
    const signedIn = async () => (await browser.json<Answer>('/web/portal/menu/list')).body.data.length === 1;
    return { browser, call, reauth, signedIn };
  };
  const regenerate = (s: Awaited<ReturnType<typeof signIn>>) => s.call('POST', '/two-factor/recovery-codes');
  const loginLog = async (username: string) =>
    t.database.db.selectFrom('login_log').select(['result', 'reason']).where('username', '=', username).orderBy('id').execute();

  it('a fresh login changes factors at once; a stale session must prove itself again, by password or code', async () => {
    const staff = await signIn('staff');
    expect((await staff.call('GET', '/two-factor')).body.data).toEqual([{ enabled: true, recoveryCodesLeft: 10 }]);
    const fresh = await regenerate(staff);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ code: 20200, msg: '恢复码已重新生成' });
    expect((fresh.body.data[0] as { codes: string[] }).codes).toHaveLength(10);

    // Another browser of the same account, signed in now too.
    const second = await signIn('staff');
    later(6);
    const stale = await regenerate(staff);
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ code: 20403, msg: '请先验证身份' });

    // A wrong password is refused, counted like a wrong password at the central login, and stamps nothing.
    const before = (await loginLog('staff')).length;
    const wrong = await staff.reauth({ password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 1, msg: '密码错误，还可尝试 2 次' });
    expect((await loginLog('staff')).slice(before)).toEqual([{ result: 'failure', reason: 'bad-password' }]);
    expect((await regenerate(staff)).body.code).toBe(20403);
    expect((await staff.call('POST', '/reauth', { password: 'plain' })).body).toEqual({
      code: 1,
      msg: '密码数据无法解密，请刷新页面后重试',
    });
    expect((await staff.reauth({ password: '' })).body).toEqual({ code: 1, msg: '请输入当前密码或动态验证码' });
    expect((await staff.call('POST', '/reauth', {})).body).toEqual({ code: 1, msg: '请输入当前密码或动态验证码' });

    // The right password stamps this session: the change passes, and the wrong count starts again.
    expect((await staff.reauth({ password: DEMO_PASSWORD })).body).toEqual({ code: 20200, msg: '身份已验证', data: [] });
    expect((await regenerate(staff)).status).toBe(200);
    // The other browser's session was not stamped.
    expect((await regenerate(second)).body).toEqual({ code: 20403, msg: '请先验证身份' });
    const afterRight = await staff.reauth({ password: 'still-wrong' });
    expect(afterRight.body.msg).toBe('密码错误，还可尝试 2 次');

    // Later again: a code of the authenticator does as well; a wrong one is refused.
    later(12);
    expect((await regenerate(staff)).body.code).toBe(20403);
    expect((await staff.reauth({ code: '000000' })).body.msg).toMatch(/^验证码错误或已使用，还可尝试 \d 次$/);
    expect((await staff.reauth({ code: totp(staffKey, Date.now()) })).body.msg).toBe('身份已验证');
    expect((await regenerate(staff)).status).toBe(200);
  });

  it('a portal session opened by single sign-on counts from the SSO login, not from its own opening', async () => {
    const staff = await signIn('staff');
    later(6);
    // The same browser signs in to the portal again without a password (its SSO session answers).
    const hops = await staff.browser.navigate('/web/portal/cas/login?target=/console');
    expect(hops.at(-1)?.url).toMatch(/\/console$/);
    const menus = await staff.browser.json<{ data: { token: { access_token: string } }[] }>('/web/portal/menu/list');
    const token = `Bearer ${menus.body.data[0]?.token.access_token ?? ''}`;
    const res = await staff.browser.json<Answer>('/web/portal/account/two-factor/recovery-codes', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
    });
    expect(res.body).toEqual({ code: 20403, msg: '请先验证身份' });
  });

  it('wrong passwords at 验证身份 lock the account as at the central login', async () => {
    const operator = await signIn('operator');
    later(6);
    expect((await operator.reauth({ password: 'guess-1' })).body.msg).toBe('密码错误，还可尝试 2 次');
    expect((await operator.reauth({ password: 'guess-2' })).body.msg).toBe('密码错误，还可尝试 1 次');
    const locked = await operator.reauth({ password: 'guess-3' });
    expect(locked.status).toBe(423);
    expect(locked.body).toEqual({ code: 1, msg: '密码错误次数过多，账号已锁定，请 15 分钟后再试' });
    // Locked: the right password neither re-authenticates nor signs in at the CAS.
    expect((await operator.reauth({ password: DEMO_PASSWORD })).status).toBe(423);
    vi.useRealTimers();
    expect((await new TestBrowser(base).casLogin('operator', DEMO_PASSWORD))[0]?.status).toBe(423);
  });

  it('退出其他设备 ends the account’s other sessions with single logout, keeps this one and other accounts’', async () => {
    const here = await signIn('admin');
    const elsewhere = await signIn('admin');
    const someoneElse = await signIn('staff');
    const before = (await loginLog('admin')).length;

    const done = await here.call('DELETE', '/sessions');
    expect(done.body).toEqual({ code: 20200, msg: '已退出其他设备', data: [] });
    expect(await here.signedIn()).toBe(true);
    expect(await elsewhere.signedIn()).toBe(false);
    expect(await someoneElse.signedIn()).toBe(true);
    // The other browser's SSO session is over too: the CAS asks it for a password again.
    const casPage = await elsewhere.browser.fetch('/cas/login');
    expect(casPage.text).toContain('name="password"');
    expect((await loginLog('admin')).slice(before)).toEqual([{ result: 'logout', reason: 'signed-out-elsewhere' }]);
    const mine = await here.call('GET', '/sessions');
    expect((mine.body.data as { current: boolean }[]).map((s) => s.current)).toEqual([true]);
  });
});
