import type { Browser, Page } from '@playwright/test';
import { base32Decode, totp, totpStepNow } from './api-helpers.js';
import { addColleague, expect, lastSms, test, uniquePhone, uniqueTag } from './fixtures.js';
import { openConsole, sidebarMenu } from './console-helpers.js';

/**
 * 安全设置 journeys at the central login: two-factor login for everyone (codes computed here, RFC 6238,
 * independently of the server's library), ending a session from 在线会话, and 忘记密码. Each test works
 * that changes 安全设置 works on an enterprise of its own, so no other test's accounts meet its policy.
 */

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

async function passwordStep(page: Page, username: string, password: string) {
  await page.goto('/console', { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test.describe('安全中心', () => {
  test('two-factor login for everyone: enrolment by key, a code at the next login, a replayed code refused; 在线会话 ends the other browser', async ({
    page,
    browser,
    baseURL,
    newTenant,
  }) => {
    test.setTimeout(180_000);
    const { admin } = await newTenant();
    await passwordStep(page, admin.username, admin.password);
    await expect(sidebarMenu(page).getByRole('menuitem', { name: /安全中心/ })).toBeVisible();
    await page.goto('/console/security/setting');
    await page.getByRole('radio', { name: '全员' }).check();
    await page
      .getByRole('form', { name: '安全策略' })
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();

    // The next login asks for enrolment: the key shown, a code computed from it.
    const second = await newPage(browser, baseURL);
    await passwordStep(second, admin.username, admin.password);
    await expect(second.getByRole('heading', { name: '绑定二次验证' })).toBeVisible();
    await expect(second.getByRole('img', { name: '二次验证二维码' })).toBeVisible();
    const secret = base32Decode((await second.locator('.cas-secret code').textContent()) ?? '');
    const enrolStep = totpStepNow();
    await second.getByLabel('动态验证码').fill(totp(secret, enrolStep));
    await second.getByRole('button', { name: '完成绑定' }).click();
    await expect(second.getByRole('heading', { name: '保存恢复码' })).toBeVisible();
    await expect(second.getByRole('listitem')).toHaveCount(10);
    await second.getByRole('button', { name: '我已保存，继续登录' }).click();
    await expect(sidebarMenu(second).getByRole('menuitem', { name: /工作台/ })).toBeVisible();

    // A third browser: the same code (same time step) is refused, the next step's code is accepted
    // (within the ±1 step the server allows, so nothing waits for the clock).
    const third = await newPage(browser, baseURL);
    await passwordStep(third, admin.username, admin.password);
    await expect(third.getByRole('heading', { name: '二次验证' })).toBeVisible();
    await third.getByLabel('动态验证码').fill(totp(secret, enrolStep));
    await third.getByRole('button', { name: /验\s*证/ }).click();
    await expect(third.getByRole('alert')).toBeVisible();
    await third.getByLabel('动态验证码').fill(totp(secret, Math.max(totpStepNow(), enrolStep + 1)));
    await third.getByRole('button', { name: /验\s*证/ }).click();
    await expect(sidebarMenu(third).getByRole('menuitem', { name: /工作台/ })).toBeVisible();

    // 在线会话 in the first browser lists the sessions; 强制下线 ends the third one.
    await page.goto('/console/security/session');
    const rows = page.getByRole('table').getByRole('row').filter({ hasText: admin.username });
    await expect(rows).toHaveCount(3);
    const other = rows.filter({ has: page.getByRole('button', { name: '强制下线' }) }).first();
    await other.getByRole('button', { name: '强制下线' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /强制下线|确\s*定/ })
      .click();
    // The server's answer first, so a failure says whether the session was ended or the list is stale.
    await expect(page.getByText('已下线')).toBeVisible();
    await expect(rows).toHaveCount(2);
    // Whichever of the other two browsers it was is sent back to the central login.
    await second.goto('/console/dashboard', { waitUntil: 'commit' });
    await third.goto('/console/dashboard', { waitUntil: 'commit' });
    await expect.poll(() => [second, third].filter((p) => /\/cas\/login/.test(p.url())).length, { timeout: 20_000 }).toBe(1);
    await second.context().close();
    await third.context().close();

    // 登录日志 shows the ended session as a 登出 row saying how it ended (by its own account, from another browser).
    await page.goto('/console/security/login-log');
    const ended = page.getByRole('table').getByRole('row').filter({ hasText: '从其他设备退出' });
    await expect(ended).toHaveCount(1);
    await expect(ended.getByText('登出', { exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('login-log-logout-1440.png') });
  });

  test('短信验证码 as the second factor with 信任此设备: the next sign-in in that browser skips the step', async ({
    page,
    browser,
    baseURL,
    newTenant,
  }) => {
    test.setTimeout(150_000);
    const { admin } = await newTenant();
    await passwordStep(page, admin.username, admin.password);
    await expect(sidebarMenu(page).getByRole('menuitem', { name: /安全中心/ })).toBeVisible();
    await page.goto('/console/security/setting');
    // 按角色 offers the enterprise's roles.
    await page.getByRole('radio', { name: '按角色' }).check();
    const card = page.locator('.ant-card').filter({ has: page.getByText('允许的验证方式') });
    // Retried, as a click while the dropdown opens can be lost.
    await expect(async () => {
      await card.getByRole('combobox', { name: '角色' }).click();
      await page.getByTitle('企业管理员', { exact: true }).last().click({ timeout: 2_000 });
      await expect(card.locator('.ant-select-selection-item').getByText('企业管理员')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await card.screenshot({ path: test.info().outputPath('security-setting-roles-1440.png') });
    await page.getByRole('radio', { name: '全员' }).check();
    await page.getByRole('checkbox', { name: '短信验证码' }).check();
    await page.getByLabel('信任此设备').fill('30');
    await card.screenshot({ path: test.info().outputPath('security-setting-mfa-1440.png') });
    await page
      .getByRole('form', { name: '安全策略' })
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();
    await page.setViewportSize({ width: 375, height: 812 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('security-setting-mfa-375.png') });

    // Another browser: no authenticator is bound, so the step offers the code by SMS.
    const second = await newPage(browser, baseURL);
    await passwordStep(second, admin.username, admin.password);
    await expect(second.getByRole('heading', { name: '二次验证' })).toBeVisible();
    await second.getByRole('button', { name: '获取短信验证码' }).click();
    await expect(second.getByText(`验证码已发送至 ${admin.phone.slice(0, 3)}****${admin.phone.slice(-4)}`)).toBeVisible();
    const { code } = await lastSms(second, admin.phone, 'login');
    await second.getByLabel('短信验证码').fill(code ?? '');
    await second.getByRole('checkbox', { name: /信任此设备/ }).check();
    await second.screenshot({ path: test.info().outputPath('two-factor-sms-1440.png') });
    await second.setViewportSize({ width: 375, height: 812 });
    await second.screenshot({ path: test.info().outputPath('two-factor-sms-375.png'), fullPage: true });
    await second.setViewportSize({ width: 1440, height: 900 });
    await second.getByRole('button', { name: /验\s*证/ }).click();
    await expect(sidebarMenu(second).getByRole('menuitem', { name: /工作台/ })).toBeVisible();

    // The browser closed and opened again: its session cookies are gone, the trusted device's stays.
    const kept = (await second.context().cookies()).filter((c) => c.expires > 0);
    expect(kept.map((c) => c.name)).toContain('CASTRUST');
    await second.context().clearCookies();
    await second.context().addCookies(kept);
    await passwordStep(second, admin.username, admin.password);
    await expect(sidebarMenu(second).getByRole('menuitem', { name: /工作台/ })).toBeVisible();

    // 个人信息 lists it.
    await second.getByRole('button', { name: /用户菜单/ }).click();
    await second.getByRole('menuitem', { name: '个人信息' }).click();
    await expect(second.getByRole('list', { name: '受信任的设备' }).getByRole('listitem')).toHaveCount(1);
    await second.context().close();
  });

  test('同时在线上限 with 拒绝新的登录: a second browser is refused at the central login, and 登录日志 says why', async ({
    page,
    browser,
    baseURL,
    newTenant,
  }) => {
    test.setTimeout(120_000);
    const { admin } = await newTenant();
    await passwordStep(page, admin.username, admin.password);
    await expect(sidebarMenu(page).getByRole('menuitem', { name: /安全中心/ })).toBeVisible();
    await page.goto('/console/security/setting');
    await page.getByLabel('同时在线上限').fill('1');
    await page.getByRole('radio', { name: '拒绝新的登录' }).check();
    await page.screenshot({ path: test.info().outputPath('session-cap-1440.png') });
    await page
      .getByRole('form', { name: '安全策略' })
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();

    const second = await newPage(browser, baseURL);
    await passwordStep(second, admin.username, admin.password);
    await expect(second.getByRole('alert')).toContainText('已达到同时在线会话数上限（1 个），请先在其他设备退出登录后再试');
    await expect(second).toHaveURL(/\/cas\/login/);
    await second.context().close();

    // 登录日志 names why the second sign-in was refused.
    await page.goto('/console/security/login-log');
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: '在线会话数已达上限' })).toHaveCount(1);
  });

  test('账号管理’s password hint follows 安全设置’s minimum; a common password is refused under 密码', async ({ page, newTenant }) => {
    test.setTimeout(120_000);
    const { admin } = await newTenant();
    await passwordStep(page, admin.username, admin.password);
    await expect(sidebarMenu(page).getByRole('menuitem', { name: /安全中心/ })).toBeVisible();
    await page.goto('/console/security/setting');
    await page.getByLabel('最小长度').fill('10');
    await page
      .getByRole('form', { name: '安全策略' })
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();

    await page.goto('/console/org/account');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const drawer = page.getByRole('dialog', { name: '新增账号' });
    const hint = '10-18位，区分大小写，不能使用常见密码；首次登录时须修改密码';
    await expect(drawer.getByText(hint)).toBeVisible();
    await expect(drawer.getByText(/6-18/)).toHaveCount(0);
    await drawer.getByLabel('账号', { exact: true }).fill(`pw${uniqueTag()}`);
    await drawer.getByLabel('姓名').fill('郑强');
    await drawer.getByLabel('手机号').fill(uniquePhone());
    // Shorter than the enterprise's 10: said before anything is sent.
    await drawer.getByLabel('密码', { exact: true }).fill('Start#202');
    await drawer.getByLabel('确认密码').fill('Start#202');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('密码至少10位')).toBeVisible();
    // Long enough but one of the commonest: the server's refusal, under the field.
    await drawer.getByLabel('密码', { exact: true }).fill('Password123');
    await drawer.getByLabel('确认密码').fill('Password123');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('该密码过于常见，请换一个更安全的密码')).toBeVisible();
    await expect(drawer).toBeVisible();
  });

  test('忘记密码: an SMS code and a new password; the old one stops working', async ({ page, browser, tenant }) => {
    // A colleague added in 账号管理: no verification code has gone to the phone, so no SMS interval applies.
    const person = await addColleague(browser, tenant, '郑强');
    await page.goto('/console', { waitUntil: 'commit' });
    await page.getByRole('link', { name: /忘记密码/ }).click();
    await expect(page.getByRole('heading', { name: '忘记密码' })).toBeVisible();
    await page.getByLabel('手机号').fill(person.phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect(page.getByRole('heading', { name: '重置密码' })).toBeVisible();
    const { code } = await lastSms(page, person.phone, 'reset');
    await page.getByLabel('短信验证码').fill(code ?? '');
    await page.getByLabel('新密码', { exact: true }).fill('Reset#2027');
    await page.getByLabel('确认新密码').fill('Reset#2027');
    await page.getByRole('button', { name: '重置密码' }).click();
    await expect(page.getByRole('heading', { name: '密码已重置' })).toBeVisible();

    await passwordStep(page, person.username, person.password);
    await expect(page.getByRole('alert')).toContainText('用户名或密码错误');
    await page.getByLabel('账号').fill(person.username);
    await page.getByLabel('密码', { exact: true }).fill('Reset#2027');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page).not.toHaveURL(/\/cas\/login/);
  });

  test('登录日志 and 操作日志: 校验完整性 proves the enterprise’s chain intact, with the hashes of its ends', async ({
    page,
    newTenant,
  }) => {
    // The administrator's own sign-in is the enterprise's first 登录日志 row; saving 安全设置 its 操作日志 row.
    const { admin } = await newTenant();
    await openConsole(page, admin, '/console/security/setting');
    const retention = page.getByRole('spinbutton', { name: '保留天数' });
    await expect(retention).toHaveValue('180');
    await retention.fill('365');
    await page
      .getByRole('button', { name: /保\s*存/ })
      .first()
      .click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();
    await expect(retention).toHaveValue('365');
    await page.screenshot({ path: test.info().outputPath('security-setting-1440.png') });

    for (const [path, name] of [
      ['/console/security/login-log', '登录日志'],
      ['/console/audit', '操作日志'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('button', { name: /校验完整性/ }).click();
      const dialog = page.getByRole('dialog', { name: `${name}完整性校验` });
      await expect(dialog.getByText('完整', { exact: true })).toBeVisible();
      await expect(dialog.getByText(/数据库中现存的 [1-9]\d* 条入链记录未被篡改、删除或插入。/)).toBeVisible();
      await expect(dialog.getByText(/^[0-9a-f]{64}$/).first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`verify-${path.split('/').pop()}-1440.png`) });
      await dialog
        .getByRole('button', { name: /关\s*闭/ })
        .last()
        .click();
      await expect(dialog).toBeHidden();
    }
  });

  test('安全设置, 在线会话, 登录日志 and 统计分析 fit a phone @mobile', async ({ page, tenant }) => {
    await openConsole(page, tenant.admin, '/console/security/setting');
    for (const [path, text] of [
      ['/console/security/setting', '二次验证'],
      ['/console/security/session', '当前'],
      ['/console/security/login-log', '导出'],
      ['/console/statistics', '统计分析'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByText(text).first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    // 校验完整性's answer fits too.
    await page.goto('/console/security/login-log');
    await page.getByRole('button', { name: /校验完整性/ }).click();
    await expect(page.getByRole('dialog', { name: '登录日志完整性校验' }).getByText('完整', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('verify-login-log-375.png') });
    // 单点登出记录 fits too (a delivered row is shown by the 强制下线 journey).
    await page.goto('/console/security/session');
    await page.getByRole('tab', { name: '单点登出记录' }).click();
    const deliveries = page.getByRole('region', { name: '单点登出记录' });
    await expect(deliveries.getByText('暂无单点登出记录').or(deliveries.getByRole('row').nth(1)).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('logout-deliveries-375.png') });
  });
});
