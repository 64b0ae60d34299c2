import type { Locator, Page } from '@playwright/test';
import { EnterpriseMessage, creditCodeCheckChar } from '@portal/shared';
import { apiAs } from './api-helpers.js';
import { addColleague, expect, test } from './fixtures.js';
import { openConsole, sidebarMenu } from './console-helpers.js';

/**
 * 账号组, 角色管理 and 租户管理 in a real browser. Groups and roles are written in this file's own
 * enterprise (the tenant fixture); the seeded enterprises are only looked at in 租户管理.
 */

/** A suffix no other run of this spec used (both projects share one database). */
const unique = () => (Date.now() % 100_000_000).toString(36).toUpperCase() + Math.floor(Math.random() * 10);

const rowOf = (scope: Page | Locator, text: string) => scope.getByRole('row').filter({ hasText: text });

/** Picks `option` in the select labelled `label` by typing part of it, as a keyboard user does. */
async function pick(page: Page, scope: Locator, label: string, typed: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await select.click();
  await select.fill(typed);
  await page.getByTitle(option, { exact: true }).last().click();
  await select.press('Escape');
}

/** 租户管理 filtered to enterprises named like `name`: the list (newest first) grows with every run's enterprises. */
async function findTenant(page: Page, name: string) {
  await page.getByLabel('企业名称').fill(name);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(rowOf(page, name)).toBeVisible();
}

/** Confirms the open confirm dialog titled `title` with its `button`. */
async function confirm(page: Page, title: string, button: RegExp) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

test.describe('账号组 and 角色管理', () => {
  test('a custom role picked from the tree reaches the members of a group granted it, at their next token', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    // The colleague is set up (two sign-ins) before three browsers work: more than one page's worth on a busy machine.
    test.slow();
    const n = unique();
    const colleague = await addColleague(browser, tenant, '李娜');
    const roleName = `日志查看${n}`;
    const groupName = `审计组${n}`;

    // The custom role: 操作日志 only, picked in the tree.
    await openConsole(page, tenant.admin, '/console/org/role');
    await expect(rowOf(page, '企业管理员')).toBeVisible();
    await expect(rowOf(page, '企业管理员').getByRole('button', { name: /编\s*辑/ })).toHaveCount(0);
    await page.getByRole('button', { name: /新建角色/ }).click();
    const roleForm = page.getByRole('dialog', { name: '新建角色' });
    await roleForm.getByLabel('名称').fill(roleName);
    await roleForm.getByLabel('编码').fill(`role_e2e${n.toLowerCase()}`);
    await roleForm.getByRole('checkbox', { name: '操作日志' }).click();
    await roleForm.getByRole('button', { name: /保\s*存/ }).click();
    await expect(roleForm).toBeHidden();
    await expect(rowOf(page, roleName)).toContainText(`ROLE_E2E${n}`);

    // The staff member has no 操作日志 yet.
    const staff = await (await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
    await openConsole(staff, colleague);
    await expect(sidebarMenu(staff).getByRole('menuitem', { name: /工作台/ })).toBeVisible();
    await expect(sidebarMenu(staff).getByRole('menuitem', { name: /操作日志/ })).toHaveCount(0);

    // A group granted the role, with the staff member in it.
    await page.goto('/console/org/group');
    await page.getByRole('button', { name: /新建账号组/ }).click();
    const groupForm = page.getByRole('dialog', { name: '新建账号组' });
    await groupForm.getByLabel('名称').fill(groupName);
    await pick(page, groupForm, '角色', roleName, roleName);
    await groupForm.getByRole('button', { name: /保\s*存/ }).click();
    await expect(groupForm).toBeHidden();
    await expect(rowOf(page, groupName)).toContainText(roleName);
    await rowOf(page, groupName)
      .getByRole('button', { name: /成\s*员/ })
      .click();
    const members = page.getByRole('dialog', { name: `「${groupName}」的成员` });
    await expect(members.getByText('暂无成员')).toBeVisible();
    await members.getByRole('button', { name: /添加成员/ }).click();
    const add = page.getByRole('dialog', { name: `添加成员到「${groupName}」` });
    await pick(page, add, '选择账号', colleague.username, `李娜（${colleague.username}）`);
    await add.getByRole('button', { name: /添\s*加/ }).click();
    await expect(add).toBeHidden();
    await expect(rowOf(members, colleague.username)).toContainText('李娜');

    // The next token carries the group's role: 操作日志 appears without logging in again.
    await staff.reload();
    await expect(sidebarMenu(staff).getByRole('menuitem', { name: /操作日志/ })).toBeVisible();

    // Removed from the group, the staff member loses it again.
    await rowOf(members, colleague.username).getByRole('button', { name: '移除 李娜' }).click();
    await confirm(page, '移除成员', /移\s*除/);
    await expect(members.getByText('暂无成员')).toBeVisible();
    await staff.reload();
    await expect(sidebarMenu(staff).getByRole('menuitem', { name: /工作台/ })).toBeVisible();
    await expect(sidebarMenu(staff).getByRole('menuitem', { name: /操作日志/ })).toHaveCount(0);
    await staff.context().close();

    // Clean up: the group, then the role.
    await page.keyboard.press('Escape');
    await expect(members).toBeHidden();
    await rowOf(page, groupName)
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await confirm(page, '删除账号组', /删\s*除/);
    await expect(rowOf(page, groupName)).toHaveCount(0);
    await page.goto('/console/org/role');
    await rowOf(page, roleName)
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await confirm(page, '删除角色', /删\s*除/);
    await expect(rowOf(page, roleName)).toHaveCount(0);
  });
});

test.describe('租户管理', () => {
  test('operators list the enterprises; 停用 asks first, saying every account is signed out', async ({ page }) => {
    await openConsole(page, 'operator', '/console/tenant');
    // The columns of the unfiltered list first.
    for (const column of ['名称', '认证状态', '状态', '账号数', '管理员', '创建时间', '操作']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeInViewport();
    }
    // The operators' own enterprise offers no 停用.
    await findTenant(page, '平台运营中心');
    await expect(rowOf(page, '平台运营中心').getByRole('button', { name: /停\s*用/ })).toHaveCount(0);
    await findTenant(page, '徐州恒岳重工机械有限公司');
    const hengyue = rowOf(page, '徐州恒岳重工机械有限公司');
    await expect(hengyue).toContainText('已认证');
    await expect(hengyue).toContainText('张伟');
    await hengyue.getByRole('button', { name: /停\s*用/ }).click();
    const ask = page.getByRole('dialog', { name: '停用企业' });
    await expect(ask).toContainText('全部账号');
    await expect(ask).toContainText('将立即退出登录，且无法再登录');
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await expect(ask).toBeHidden();
    await expect(hengyue).toContainText('正常');
  });
});

test.describe('租户管理: 新建企业', () => {
  test('an operator creates an enterprise with its administrator; the administrator signs in with the SMS password and must change it', async ({
    page,
    browser,
    baseURL,
  }) => {
    const stamp = String(Date.now()).slice(-9);
    const name = `无锡精工${unique()}科技有限公司`;
    const first17 = `91320200${stamp}`;
    const creditCode = `${first17}${creditCodeCheckChar(first17)}`;
    const username = `ent${stamp}`;
    const phone = `139${stamp.slice(-8)}`;

    await openConsole(page, 'operator', '/console/tenant');
    await page.getByRole('button', { name: /新建企业/ }).click();
    const dialog = page.getByRole('dialog', { name: '新建企业' });
    await dialog.getByLabel('企业名称').fill('徐州恒岳重工机械有限公司');
    // The credit code's check character is checked before anything is sent, as certification checks it.
    await dialog.getByLabel('统一社会信用代码').fill(`${first17}${creditCode.endsWith('0') ? '1' : '0'}`);
    await dialog.getByLabel('管理员姓名').fill('赵新');
    await dialog.getByLabel('管理员账号').fill(username);
    await dialog.getByLabel('管理员手机号').fill(phone);
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    await expect(dialog.getByText(EnterpriseMessage.creditCodeCheck)).toBeVisible();
    await dialog.getByLabel('统一社会信用代码').fill(creditCode);
    // The server refuses a name another enterprise has, under the field.
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    await expect(dialog.getByText(EnterpriseMessage.nameTaken)).toBeVisible();
    await dialog.getByLabel('企业名称').fill(name);
    await page.screenshot({ path: test.info().outputPath('tenant-create-1440.png') });
    await dialog.getByRole('button', { name: /创\s*建/ }).click();
    await expect(page.getByText('企业已创建，管理员的初始密码已通过短信发送')).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, name);
    await expect(row).toContainText('未认证');
    await expect(row).toContainText('赵新');

    // The administrator's phone got the initial password; the first sign-in asks for a new one.
    let password = '';
    await expect
      .poll(async () => {
        const outbox = await page.request.get(`/dev/sms-outbox?phone=${phone}`);
        password = ((await outbox.json()) as { data: { params: { password?: string } }[] }).data[0]?.params.password ?? '';
        return password;
      })
      .toMatch(/^[A-Za-z0-9]{10,18}$/);
    const administrator = await (await browser.newContext({ baseURL, locale: 'zh-CN' })).newPage();
    await administrator.goto('/console', { waitUntil: 'commit' });
    await expect(administrator).toHaveURL(/\/cas\/login\?service=/);
    await administrator.getByLabel('账号').fill(username);
    await administrator.getByLabel('密码').fill(password);
    await administrator.getByRole('button', { name: /登\s*录/ }).click();
    await expect(administrator.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
    await administrator.getByLabel('新密码', { exact: true }).fill('Jinggong#2026');
    await administrator.getByLabel('确认新密码').fill('Jinggong#2026');
    await administrator.getByRole('button', { name: '确认修改并登录' }).click();
    // The new enterprise's administrator has its console.
    await expect(sidebarMenu(administrator).getByRole('menuitem', { name: /组织与账号/ })).toBeVisible();
    await administrator.context().close();
  });
});

test.describe('组织与账号 and 租户管理 on a phone', () => {
  test('账号组, 角色管理, 租户管理 and 工作台 fit 375 px without sideways scrolling @mobile', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    await openConsole(page, tenant.admin, '/console/org/group');
    // A group of the enterprise's own, with a description, as a row to fit.
    const api = await apiAs(page);
    await api.post('/web-api/console/v1/account-group', { name: '质量部', description: '来料检验、过程质量与出厂检验', roleIds: [] });
    await page.reload();
    await expect(rowOf(page, '质量部')).toBeVisible();
    await noSidewaysScroll(page);
    await page.goto('/console/org/role');
    await expect(rowOf(page, '企业管理员')).toBeVisible();
    await noSidewaysScroll(page);
    await page.getByRole('button', { name: /新建角色/ }).click();
    const roleForm = page.getByRole('dialog', { name: '新建角色' });
    await expect(roleForm.getByRole('checkbox', { name: '操作日志' })).toBeVisible();
    await expect.poll(async () => (await roleForm.boundingBox())?.x).toBe(0);
    expect((await roleForm.boundingBox())?.width).toBeLessThanOrEqual(375);
    await page.goto('/console/dashboard');
    await expect(page.getByText('本企业账号')).toBeVisible();
    await noSidewaysScroll(page);

    const operator = await (await browser.newContext({ baseURL, locale: 'zh-CN', viewport: { width: 375, height: 812 } })).newPage();
    await openConsole(operator, 'operator', '/console/tenant');
    await findTenant(operator, tenant.name);
    await noSidewaysScroll(operator);
    await operator.context().close();
  });
});
