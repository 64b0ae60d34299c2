import { expect, freshContext, test } from './fixtures.js';
import { openConsole } from './console-helpers.js';

/**
 * 退出其他设备 in 个人信息: the administrator of this file's enterprise (the tenant fixture) is signed in
 * in two browsers; from one, every other browser signs out, and its console goes to the central login
 * at its next visit. 个人信息 also shows the account's 二次验证.
 */
test.describe('退出其他设备', () => {
  test('个人信息 signs the account out of every other browser, keeping this one', async ({ tenant, page, browser }) => {
    test.slow();
    const other = await (await freshContext(browser)).newPage();
    await openConsole(other, tenant.admin);
    await openConsole(page, tenant.admin);

    await page.getByRole('button', { name: /用户菜单/ }).click();
    await page.getByRole('menuitem', { name: '个人信息' }).click();
    const info = page.getByRole('dialog', { name: '个人信息' });
    const sessions = info.getByRole('list', { name: '我的登录会话' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(info.getByText('未绑定身份验证器')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('personal-info-1440.png') });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: test.info().outputPath('personal-info-375.png') });
    await page.setViewportSize({ width: 1440, height: 900 });

    await info.getByRole('button', { name: '退出其他设备' }).click();
    const confirm = page.getByRole('tooltip');
    await expect(confirm).toContainText('除本浏览器外，该账号在其他设备上的登录都将退出');
    await confirm.getByRole('button', { name: /退\s*出/ }).click();
    await expect(page.getByText('已退出其他设备')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByRole('listitem').getByText('当前')).toBeVisible();
    await expect(info.getByRole('button', { name: '退出其他设备' })).toBeDisabled();

    // The other browser is signed out, at the portal and at the central login.
    await other.goto('/console', { waitUntil: 'commit' });
    await expect(other).toHaveURL(/\/cas\/login\?service=/);
    await expect(other.getByLabel('密码', { exact: true })).toBeVisible();
    // This one still works.
    await page.reload();
    await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeAttached();
    await other.context().close();
  });
});
