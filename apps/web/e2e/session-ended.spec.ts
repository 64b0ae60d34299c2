import type { Browser, Page } from '@playwright/test';
import { expect, test, uniquePhone, uniqueTag } from './fixtures.js';
import { openConsole, sidebarMenu } from './console-helpers.js';

/**
 * A session ended elsewhere: an administrator forces a signed-in colleague out (在线会话) or disables
 * them (账号管理). The colleague's open console takes them to the central login at their next action
 * and back to the page they were on after signing in again; a disabled colleague is told why. The
 * enterprise is this file's own (the tenant fixture).
 */

const INITIAL = 'Start#2026';
const OWN = 'Mine#2026';

function newPerson() {
  return { username: `se${uniqueTag()}`, phone: uniquePhone() };
}

const accountRow = (page: Page, username: string) => page.getByRole('table').getByRole('row').filter({ hasText: username });

async function freshPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test.describe('会话在别处结束', () => {
  test('强制下线 sends the colleague’s open console to the central login and back to the same page; 停用 shows the reason', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    const person = newPerson();

    // The administrator adds a colleague with an initial password.
    await openConsole(page, tenant.admin, '/console/org/account');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const drawer = page.getByRole('dialog', { name: '新增账号' });
    await drawer.getByLabel('账号', { exact: true }).fill(person.username);
    await drawer.getByLabel('姓名').fill('郑洁');
    await drawer.getByLabel('手机号').fill(person.phone);
    const roles = drawer.getByRole('combobox', { name: '角色' });
    await roles.click();
    await roles.fill('普通员工');
    await page.getByTitle('普通员工', { exact: true }).last().click();
    await roles.press('Escape');
    await drawer.getByLabel('密码', { exact: true }).fill(INITIAL);
    await drawer.getByLabel('确认密码').fill(INITIAL);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer).toBeHidden();

    // The colleague signs in (changing the initial password) and works on 企业信息.
    const colleague = await freshPage(browser, baseURL);
    await colleague.goto('/console/enterprise', { waitUntil: 'commit' });
    await signIn(colleague, person.username, INITIAL);
    await expect(colleague.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
    await colleague.getByLabel('新密码', { exact: true }).fill(OWN);
    await colleague.getByLabel('确认新密码').fill(OWN);
    await colleague.getByRole('button', { name: '确认修改并登录' }).click();
    await expect(colleague).toHaveURL(/\/console\/enterprise$/);
    await expect(sidebarMenu(colleague).getByRole('menuitem', { name: /工作台/ })).toBeVisible();

    // 在线会话: the administrator forces the colleague out.
    await page.goto('/console/security/session');
    const sessionRow = page.getByRole('table').getByRole('row').filter({ hasText: person.username });
    await expect(sessionRow).toHaveCount(1);
    await sessionRow.getByRole('button', { name: '强制下线' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /强制下线|确\s*定/ })
      .click();
    await expect(page.getByText('已下线')).toBeVisible();
    // 单点登出记录: the portal, where the colleague's session was signed in, heard of it.
    await page.getByRole('tab', { name: '单点登出记录' }).click();
    const delivery = page.getByRole('region', { name: '单点登出记录' }).getByRole('row').filter({ hasText: person.username });
    await expect(delivery).toHaveCount(1);
    await expect(delivery).toContainText('门户');
    await expect(delivery).toContainText('已送达');
    await page.screenshot({ path: test.info().outputPath('logout-deliveries-1440.png') });

    // The colleague's next action (opening 工作台) lands on the central login, not on a dead page.
    await sidebarMenu(colleague)
      .getByRole('menuitem', { name: /工作台/ })
      .click();
    await signIn(colleague, person.username, OWN);
    // Signed in again: back on the page they were on.
    await expect(colleague).toHaveURL(/\/console\/dashboard$/);
    await expect(sidebarMenu(colleague).getByRole('menuitem', { name: /工作台/ })).toBeVisible();
    // The figures have arrived (the subtitle names the enterprise only then), so no failure can follow.
    await expect(colleague.getByText(/以下为本企业（.+）实时数据/)).toBeVisible();
    await expect(colleague.getByText('工作台数据加载失败')).toHaveCount(0);
    await colleague.screenshot({ path: test.info().outputPath('session-ended-back-1440.png') });

    // 停用 in 账号管理: the colleague's next action goes to the central login, which says why they cannot sign in.
    await page.goto('/console/org/account');
    await page.getByLabel('搜索账号').fill(person.username);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(accountRow(page, person.username)).toHaveCount(1);
    await accountRow(page, person.username).getByRole('button', { name: '停用' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /停\s*用/ })
      .click();
    await expect(accountRow(page, person.username)).toContainText('停用');

    // 企业信息 has not been loaded since the colleague signed in again: opening it asks the server.
    await sidebarMenu(colleague)
      .getByRole('menuitem', { name: /企业信息/ })
      .click();
    await signIn(colleague, person.username, OWN);
    await expect(colleague.getByRole('alert')).toHaveText('账号已停用，请联系企业管理员');
    await colleague.screenshot({ path: test.info().outputPath('session-ended-disabled-1440.png') });
    await colleague.context().close();
  });
});
