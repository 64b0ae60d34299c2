import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

/** 修改初始密码: an account whose password an administrator set changes it at its first login, at the central login. */
describe.each(testDialects())('first login with an initial password on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let service: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    await t.database.db.updateTable('account').set({ must_change_password: 1 }).where('username', '=', 'liuyang').execute();
  });
  afterAll(() => t.close());

  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const submit = (browser: TestBrowser, fields: Record<string, string>) =>
    browser.fetch(`/cas/login/password?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('asks for a new password before any ticket, checks it, then logs in with it', async () => {
    const browser = new TestBrowser(base);
    const [first] = await browser.casLogin('liuyang', DEMO_PASSWORD, service);
    expect(first?.status).toBe(200);
    expect(first?.text).toContain('修改初始密码');
    expect(first?.text).toContain('刘洋');
    expect(browser.cookies.has('TGC')).toBe(false);
    const change = field(first?.text ?? '', 'change');
    const execution = field(first?.text ?? '', 'execution');

    const mismatch = await submit(browser, { change, execution, password: 'Liuyang#2026', confirm: 'Liuyang#2027' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('两次输入密码不一致');
    const short = await submit(browser, { change, execution, password: 'abc', confirm: 'abc' });
    expect(short.text).toContain('密码至少6位');
    const same = await submit(browser, { change, execution, password: DEMO_PASSWORD, confirm: DEMO_PASSWORD });
    expect(same.text).toContain('新密码不能与初始密码相同');
    expect(browser.cookies.has('TGC')).toBe(false);

    const done = await submit(browser, { change, execution, password: 'Liuyang#2026', confirm: 'Liuyang#2026' });
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/ticket=ST-/);
    expect(browser.cookies.has('TGC')).toBe(true);
    // The form's proof is spent with the old password.
    const replay = await submit(browser, { change, execution, password: 'Other#2026', confirm: 'Other#2026' });
    expect(replay.text).toContain('修改密码页面已过期');

    const audit = await t.database.db.selectFrom('audit_log').select('action').where('username', '=', 'liuyang').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['password-first-change', 'login']);

    const later = new TestBrowser(base);
    expect((await later.casLogin('liuyang', DEMO_PASSWORD, service))[0]?.text).toContain('用户名或密码错误');
    const [hop] = await later.casLogin('liuyang', 'Liuyang#2026', service);
    expect(hop?.status).toBe(303);
  });

  it('refuses a forged or tampered proof', async () => {
    const browser = new TestBrowser(base);
    const form = await browser.fetch('/cas/login');
    const execution = field(form.text, 'execution');
    const forged = await submit(browser, { change: 'eyJhIjoxfQ.AAAA', execution, password: 'Liuyang#2026', confirm: 'Liuyang#2026' });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('修改密码页面已过期');
  });
});
