import type { NotificationRow } from '@portal/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient, outbox } from '../../org/__tests__/account-test-client.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const HENGYUE = '徐州恒岳重工机械有限公司';
const DAY = 86_400_000;

const CHROME_120_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CHROME_126_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** A browser that names itself with a User-Agent header, as real ones do. */
class Browser extends TestBrowser {
  constructor(
    base: string,
    private readonly userAgent: string,
  ) {
    super(base);
  }

  override fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    return super.fetch(url, { ...init, headers });
  }
}

/** The messages of 加入申请 and of security events, as the accounts see them in 消息中心. */
describe.each(testDialects())('join and security messages on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let c: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    c = consoleClient(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('sms_code').execute();
  });

  /** The account's messages as its 消息中心 lists them (newest first). */
  const messagesOf = async (username: string): Promise<NotificationRow[]> => {
    const res = await t.app.inject({
      url: '/web-api/console/v1/notification/page/list?limit=100',
      headers: { ...XHR, authorization: await tokenFor(t, username) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[0] as { rows: NotificationRow[] }).rows;
  };
  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const register = async (username: string, phone: string, enterpriseName: string) => {
    await t.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${phone}`, headers: XHR });
    const smsCode = (await outbox(t, phone)).find((m) => m.templateKey === 'register')?.params.code ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: '/web-api/register/v1/user',
      headers: XHR,
      payload: { username, phone, smsCode, enterpriseName, email: '', password: 'Notice#2026' },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** A sign-in at the central login from a browser with this User-Agent. */
  const signIn = async (username: string, password: string, userAgent: string) => {
    const [hop] = await new Browser(base, userAgent).casLogin(username, password);
    expect(hop?.status, hop?.text).toBe(200);
    expect(hop?.text).toContain('登录成功');
  };
  const newDeviceAlerts = async (username: string) => (await messagesOf(username)).filter((m) => m.title === '新设备登录提醒');

  it('a join request tells the enterprise’s administrators, not its staff nor other enterprises', async () => {
    await register('zhaomin', '13912345001', HENGYUE);
    const [message, ...others] = await messagesOf('admin');
    expect(others).toEqual([]);
    expect(message).toMatchObject({ kind: 'join', title: '新的加入申请', link: '/console/org/account?joins=1', read: false });
    expect(message?.content).toContain('zhaomin');
    expect(message?.content).toContain(HENGYUE);
    expect(await messagesOf('staff')).toEqual([]);
    expect(await messagesOf('rcadmin')).toEqual([]);
    expect(await messagesOf('zhaomin')).toEqual([]);
  });

  /** The one message the account has, which must be 密码已修改 saying how. */
  const expectPasswordMessage = async (username: string, how: string) => {
    const messages = await messagesOf(username);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: 'security', title: '密码已修改', link: '' });
    expect(messages[0]?.content).toMatch(new RegExp(`\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} 修改（${how}）`));
  };

  it('修改密码 in the portal tells the account', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/web/portal/account/password',
      headers: { ...XHR, authorization: await tokenFor(t, 'wangfang') },
      payload: {
        oldPassword: await c.encoded(DEMO_PASSWORD),
        newPassword: await c.encoded('Changed#2026'),
        confirmPassword: await c.encoded('Changed#2026'),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectPasswordMessage('wangfang', '本人修改');
  });

  const changeAtLogin = async (username: string, heading: string) => {
    const browser = new Browser(base, CHROME_120_WINDOWS);
    const [first] = await browser.casLogin(username, DEMO_PASSWORD);
    expect(first?.text).toContain(heading);
    const done = await browser.fetch('/cas/login/password', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        change: field(first?.text ?? '', 'change'),
        execution: field(first?.text ?? '', 'execution'),
        password: 'Changed#2026',
        confirm: 'Changed#2026',
      }).toString(),
    });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('登录成功');
  };

  it('修改初始密码 at the central login tells the account (and its first sign-in is no new browser)', async () => {
    await t.database.db.updateTable('account').set({ must_change_password: 1 }).where('username', '=', 'liuyang').execute();
    await changeAtLogin('liuyang', '修改初始密码');
    await expectPasswordMessage('liuyang', '本人修改');
  });

  it('密码已过期 at the central login tells the account', async () => {
    const admin = await tokenFor(t, 'admin');
    const policy = { ...t.app.config.securityDefaults, passwordExpiryDays: 30 };
    expect((await c.call(admin, 'PUT', '/security/policy', policy)).statusCode).toBe(200);
    await t.database.db
      .updateTable('account')
      .set({ password_changed_at: new Date(Date.now() - 31 * DAY).toISOString() })
      .where('username', '=', 'zhoujie')
      .execute();
    await changeAtLogin('zhoujie', '密码已过期');
    await expectPasswordMessage('zhoujie', '本人修改');
  });

  it('忘记密码 tells the account', async () => {
    const browser = new TestBrowser(base);
    const post = (path: string, page: BrowserResponse, fields: Record<string, string>) =>
      browser.fetch(`/cas/forgot-password${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ execution: field(page.text, 'execution'), ...fields }).toString(),
      });
    const start = await browser.fetch('/cas/forgot-password');
    const sent = await post('', start, { phone: '13800000021' });
    expect(sent.status).toBe(200);
    const code = (await outbox(t, '13800000021'))[0]?.params.code ?? '';
    const done = await post('/reset', sent, { phone: '13800000021', code, password: 'Changed#2026', confirm: 'Changed#2026' });
    expect(done.text).toContain('<h1>密码已重置</h1>');
    await expectPasswordMessage('rcadmin', '找回密码');
  });

  it('重置密码 by an administrator tells the account', async () => {
    const rcadmin = await tokenFor(t, 'rcadmin');
    const target = await c.row(rcadmin, 'service');
    const res = await c.call(rcadmin, 'POST', `/account/${target?.id}/password`, {
      passwordMode: 'manual',
      password: await c.encoded('Reset#2026'),
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectPasswordMessage('service', '管理员重置');
    expect(await messagesOf('rcadmin')).toHaveLength(1);
  });

  it('a sign-in from a browser the account never used tells it; the same browser, updated or not, does not', async () => {
    await signIn('staff', DEMO_PASSWORD, CHROME_120_WINDOWS);
    // The very first sign-in: every browser is new, nothing to tell.
    expect(await messagesOf('staff')).toEqual([]);
    await signIn('staff', DEMO_PASSWORD, CHROME_120_WINDOWS);
    await signIn('staff', DEMO_PASSWORD, CHROME_126_WINDOWS);
    expect(await messagesOf('staff')).toEqual([]);

    await signIn('staff', DEMO_PASSWORD, FIREFOX_WINDOWS);
    const [firefox, ...rest] = await messagesOf('staff');
    expect(rest).toEqual([]);
    expect(firefox).toMatchObject({ kind: 'security', title: '新设备登录提醒', read: false });
    expect(firefox?.content).toMatch(
      /^您的账号于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} 在一个新的浏览器上登录：浏览器 Firefox 128，系统 Windows 10，IP 127\.0\.0\.1。如非本人操作，请立即修改密码。$/,
    );
    // 普通员工 cannot open 在线会话: no link.
    expect(firefox?.link).toBe('');

    // Another system or device is another browser; each is told once.
    await signIn('staff', DEMO_PASSWORD, CHROME_MAC);
    await signIn('staff', DEMO_PASSWORD, SAFARI_IPHONE);
    await signIn('staff', DEMO_PASSWORD, FIREFOX_WINDOWS);
    await signIn('staff', DEMO_PASSWORD, SAFARI_IPHONE);
    const alerts = await newDeviceAlerts('staff');
    expect(alerts.map((m) => /浏览器 (.*)，系统 (.*)，IP/.exec(m.content)?.slice(1))).toEqual([
      ['Mobile Safari 17', 'iOS 17.5'],
      ['Chrome 120', 'Mac OS 10.15.7'],
      ['Firefox 128', 'Windows 10'],
    ]);
  });

  it('links to 在线会话 an account that may open it', async () => {
    await signIn('admin', DEMO_PASSWORD, CHROME_120_WINDOWS);
    expect(await newDeviceAlerts('admin')).toEqual([]);
    await signIn('admin', DEMO_PASSWORD, SAFARI_IPHONE);
    const [alert, ...rest] = await newDeviceAlerts('admin');
    expect(rest).toEqual([]);
    expect(alert?.link).toBe('/console/security/session');
  });

  it('the first sign-in of a new account is not a new browser; its second browser is', async () => {
    await register('qianlei', '13912345002', '');
    await signIn('qianlei', 'Notice#2026', SAFARI_IPHONE);
    expect(await messagesOf('qianlei')).toEqual([]);
    await signIn('qianlei', 'Notice#2026', SAFARI_IPHONE);
    expect(await messagesOf('qianlei')).toEqual([]);
    await signIn('qianlei', 'Notice#2026', FIREFOX_WINDOWS);
    expect(await newDeviceAlerts('qianlei')).toHaveLength(1);
  });
});
