import type { Browser, Locator, Page } from '@playwright/test';
import { addColleague, expect, lastSms, test, uniquePhone, uniqueTag } from './fixtures.js';
import { openConsole, sidebarMenu } from './console-helpers.js';

/**
 * An enterprise administrator runs their team in 账号管理; the people feel it at the central login.
 * The enterprise is this file's own (the tenant fixture); the seeded demo enterprises are only looked at.
 */

/** A username and phone no other test used. */
function newPerson() {
  return { username: `e2e${uniqueTag()}`, phone: uniquePhone() };
}

const accountsTable = (page: Page) => page.getByRole('table');
const rowOf = (page: Page, username: string) => accountsTable(page).getByRole('row').filter({ hasText: username });

/** Picks `option` in the multiple select labelled `label` by typing it, as a keyboard user does. */
async function pick(page: Page, scope: Locator, label: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await select.click();
  await select.fill(option);
  await page.getByTitle(option, { exact: true }).last().click();
  await select.press('Escape');
}

async function searchAccount(page: Page, username: string) {
  await page.getByRole('searchbox', { name: '搜索账号' }).or(page.getByLabel('搜索账号')).first().fill(username);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rowOf(page, username)).toHaveCount(1);
}

/** A second person's browser: logs in at the central login from the console. */
async function personPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

test.describe('账号管理', () => {
  test('an administrator adds a colleague with an initial password; the colleague must change it, sees only their menus, gains a menu with a role and is signed out by 停用', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    const person = newPerson();
    await openConsole(page, tenant.admin, '/console/org/account');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const drawer = page.getByRole('dialog', { name: '新增账号' });
    await drawer.getByLabel('账号', { exact: true }).fill(person.username);
    await drawer.getByLabel('姓名').fill('吴磊');
    // The shared rule, checked before anything is sent.
    await drawer.getByLabel('手机号').fill('12345');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('请输入正确的手机号')).toBeVisible();
    await drawer.getByLabel('手机号').fill(person.phone);
    await pick(page, drawer, '角色', '普通员工');
    await drawer.getByLabel('密码', { exact: true }).fill('Start#2026');
    await drawer.getByLabel('确认密码').fill('Start#2026');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer).toBeHidden();
    await searchAccount(page, person.username);
    await expect(rowOf(page, person.username)).toContainText('普通员工');
    await expect(rowOf(page, person.username)).toContainText('从未登录');

    // The colleague logs in with the initial password and is made to change it first.
    const colleague = await personPage(browser, baseURL);
    await colleague.goto('/console', { waitUntil: 'commit' });
    await expect(colleague).toHaveURL(/\/cas\/login\?service=/);
    await colleague.getByLabel('账号').fill(person.username);
    await colleague.getByLabel('密码').fill('Start#2026');
    await colleague.getByRole('button', { name: /登\s*录/ }).click();
    await expect(colleague.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
    await colleague.getByLabel('新密码', { exact: true }).fill('Mine#2026');
    await colleague.getByLabel('确认新密码').fill('Mine#2027');
    await colleague.getByRole('button', { name: '确认修改并登录' }).click();
    await expect(colleague.getByRole('alert')).toHaveText('两次输入密码不一致');
    await colleague.getByLabel('新密码', { exact: true }).fill('Mine#2026');
    await colleague.getByLabel('确认新密码').fill('Mine#2026');
    await colleague.getByRole('button', { name: '确认修改并登录' }).click();
    const menu = sidebarMenu(colleague);
    await expect(menu.getByRole('menuitem', { name: /工作台/ })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: /标识管理/ })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: /组织与账号/ })).toHaveCount(0);

    // A role change shows at the colleague's next token, without logging in again.
    await rowOf(page, person.username).getByRole('button', { name: '编辑' }).click();
    const edit = page.getByRole('dialog', { name: `编辑账号 ${person.username}` });
    await pick(page, edit, '角色', '企业管理员');
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await expect(edit).toBeHidden();
    await expect(rowOf(page, person.username)).toContainText('企业管理员');
    await colleague.reload();
    await expect(sidebarMenu(colleague).getByRole('menuitem', { name: /组织与账号/ })).toBeVisible();

    // 停用 ends the colleague's live session: the next page sends them to the central login, which refuses them.
    await rowOf(page, person.username).getByRole('button', { name: '停用' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /停\s*用/ })
      .click();
    await expect(rowOf(page, person.username)).toContainText('停用');
    await colleague.goto('/console/dashboard', { waitUntil: 'commit' });
    await expect(colleague).toHaveURL(/\/cas\/login\?service=/);
    await colleague.getByLabel('账号').fill(person.username);
    await colleague.getByLabel('密码').fill('Mine#2026');
    await colleague.getByRole('button', { name: /登\s*录/ }).click();
    await expect(colleague.getByRole('alert')).toHaveText('账号已停用，请联系企业管理员');
    await colleague.context().close();
  });

  test('an administrator approves a join request; the applicant then works in the enterprise', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    // Someone registers naming this enterprise (public API, the SMS code from the development outbox) and waits.
    const joiner = newPerson();
    const headers = { 'x-requested-with': 'XMLHttpRequest' };
    expect((await page.request.post(`/web-api/register/v1/sms?phone=${joiner.phone}`, { headers })).status()).toBe(200);
    const { code } = await lastSms(page, joiner.phone, 'register');
    const registered = await page.request.post('/web-api/register/v1/user', {
      headers,
      data: { ...joiner, email: '', enterpriseName: tenant.name, password: 'Portal@2026', smsCode: code },
    });
    expect(registered.status(), await registered.text()).toBe(200);
    await openConsole(page, tenant.admin, '/console/org/account');
    await page.getByRole('button', { name: /加入申请/ }).click();
    const drawer = page.getByRole('dialog', { name: '加入申请', exact: true });
    const request = drawer.getByRole('row').filter({ hasText: joiner.username });
    await request.getByRole('button', { name: '通过' }).click();
    await page
      .getByRole('dialog', { name: '通过加入申请' })
      .getByRole('button', { name: /通\s*过/ })
      .click();
    await expect(request).toHaveCount(0);
    await drawer.getByRole('button', { name: '关闭' }).click();
    await expect(drawer).toBeHidden();
    await searchAccount(page, joiner.username);
    await expect(rowOf(page, joiner.username)).toContainText('普通员工');

    const applicant = await personPage(browser, baseURL);
    await applicant.goto('/console', { waitUntil: 'commit' });
    await applicant.getByLabel('账号').fill(joiner.username);
    await applicant.getByLabel('密码').fill('Portal@2026');
    await applicant.getByRole('button', { name: /登\s*录/ }).click();
    await expect(sidebarMenu(applicant).getByRole('menuitem', { name: /标识管理/ })).toBeVisible();
    await expect(applicant.getByText(tenant.name).first()).toBeVisible();
    await applicant.context().close();
  });

  test('another enterprise never sees these people', async ({ tenant, page }) => {
    // This file's enterprise next to the seeded 恒岳: none of 恒岳's people shows.
    await openConsole(page, tenant.admin, '/console/org/account');
    await expect(accountsTable(page).getByRole('row').filter({ hasText: tenant.admin.username })).toHaveCount(1);
    await expect(accountsTable(page).getByText('13800000001')).toHaveCount(0);
    await expect(accountsTable(page).getByText('wangfang')).toHaveCount(0);
  });

  test('fits a phone: each row shows its 状态 and its 操作 on screen, and they work @mobile', async ({ tenant, browser, page }) => {
    const colleague = await addColleague(browser, tenant, '王芳');
    await openConsole(page, tenant.admin, '/console/org/account');
    const row = rowOf(page, colleague.username);
    await expect(row).toBeVisible();
    await expect(page.getByRole('button', { name: /新\s*增/ })).toBeVisible();
    // Nothing of a row lies off-screen: the page never scrolls sideways, and neither does the table.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Scrolled down to the row (its start, at the table's left edge): what the row holds must be on screen then.
    await row.scrollIntoViewIfNeeded();
    await expect(row.getByText('正常', { exact: true })).toBeInViewport({ ratio: 1 });
    for (const action of [/编\s*辑/, /停\s*用/, /更多操作/])
      await expect(row.getByRole('button', { name: action })).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: test.info().outputPath('accounts-375.png'), fullPage: true });
    // The actions answer a tap.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const edit = page.getByRole('dialog', { name: `编辑账号 ${colleague.username}` });
    await expect(edit).toBeVisible();
    await edit.getByRole('button', { name: /取\s*消/ }).click();
    await expect(edit).toBeHidden();
    await row.getByRole('button', { name: /更多操作/ }).click();
    await expect(page.getByRole('menuitem', { name: '重置密码' })).toBeVisible();
  });

  test('at 1440 px every column shows without scrolling', async ({ tenant, page }) => {
    await openConsole(page, tenant.admin, '/console/org/account');
    for (const column of ['账号', '姓名', '手机号', '邮箱', '账号组', '角色', '状态', '最近登录', '创建时间', '操作']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeInViewport();
    }
    await page.screenshot({ path: test.info().outputPath('accounts-1440.png'), fullPage: true });
  });
});
