import { expect, test } from './fixtures.js';
import { breadcrumb, currentTab, openConsole, sidebar, sidebarMenu, tab, tabLinks, tabs } from './console-helpers.js';

test.describe('console shell', () => {
  test('a visitor is sent to the central login and lands on the page they asked for', async ({ page }) => {
    await openConsole(page, 'operator', '/console/audit');
    await expect(page).toHaveURL(/\/console\/audit$/);
    await expect(page).toHaveTitle('操作日志 - Engineering e+');
    await expect(breadcrumb(page)).toHaveText(/操作日志/);
  });

  test('the root goes to the first permitted page; the breadcrumb follows the matched routes', async ({ page }) => {
    await openConsole(page, 'operator');
    await expect(page).toHaveURL(/\/console\/dashboard$/);
    await sidebarMenu(page).getByText('内容管理').click();
    await sidebarMenu(page).getByText('文章管理').click();
    await expect(page).toHaveURL(/\/console\/content\/article$/);
    await expect(breadcrumb(page)).toHaveText('内容管理/文章管理');
    await expect(page).toHaveTitle('文章管理 - Engineering e+');
    await expect(page.getByRole('banner')).toContainText('Engineering e+ 平台运营中心');
    await expect(page.getByRole('button', { name: '全屏' })).toBeVisible();
  });

  test('collapsing the sidebar is remembered across a reload (cookie sidebarStatus)', async ({ page, context }) => {
    await openConsole(page, 'operator');
    const aside = sidebar(page);
    await expect(aside).toHaveCSS('width', '210px');
    await page.getByRole('button', { name: '收起菜单' }).click();
    await expect(aside).toHaveCSS('width', '54px');
    expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await page.reload();
    await expect(sidebar(page)).toHaveCSS('width', '54px');
    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect(sidebar(page)).toHaveCSS('width', '210px');
    expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
  });

  test('tabs: added once per page, closing the active one goes to the last, close others keeps the affix tab', async ({ page }) => {
    await openConsole(page, 'operator');
    const menu = sidebarMenu(page);
    await menu.getByText('操作日志').click();
    await menu.getByText('内容管理').click();
    await menu.getByText('栏目管理').click();
    await menu.getByText('文章管理').click();
    await menu.getByText('操作日志').click();
    await expect(tabLinks(page)).toHaveText(['工作台', '操作日志', '栏目管理', '文章管理']);
    await expect(currentTab(page)).toHaveText('操作日志');
    // The affix tab has no close button.
    await expect(tabs(page).getByRole('button', { name: '关闭 工作台' })).toHaveCount(0);

    await tabs(page).getByRole('button', { name: '关闭 操作日志' }).click();
    await expect(page).toHaveURL(/\/console\/content\/article$/);
    await expect(tabLinks(page)).toHaveText(['工作台', '栏目管理', '文章管理']);

    await tab(page, '栏目管理').click({ button: 'right' });
    const contextMenu = page.getByRole('menu').filter({ hasText: '关闭其他' });
    await expect(contextMenu.getByRole('menuitem')).toHaveText(['刷新', '关闭', '关闭其他', '关闭所有']);
    await contextMenu.getByRole('menuitem', { name: '关闭其他' }).click();
    await expect(page).toHaveURL(/\/console\/content\/category$/);
    await expect(tabLinks(page)).toHaveText(['工作台', '栏目管理']);

    // The tabs survive a reload of the browser tab.
    await page.reload();
    await expect(tabLinks(page)).toHaveText(['工作台', '栏目管理']);

    await tab(page, '栏目管理').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭所有' }).click();
    await expect(page).toHaveURL(/\/console\/dashboard$/);
    await expect(tabLinks(page)).toHaveText(['工作台']);
  });

  test('tabs from the keyboard: Tab reaches a close button, Enter closes; Shift+F10 or the ContextMenu key opens the menu', async ({
    page,
  }) => {
    await openConsole(page, 'operator');
    const menu = sidebarMenu(page);
    await menu.getByText('操作日志').click();
    await menu.getByText('内容管理').click();
    await menu.getByText('栏目管理').click();
    await expect(tabLinks(page)).toHaveText(['工作台', '操作日志', '栏目管理']);

    // The close button follows its tab in the tab order and closes it; the focus moves to the next tab.
    await tab(page, '操作日志').focus();
    await page.keyboard.press('Tab');
    await expect(tabs(page).getByRole('button', { name: '关闭 操作日志' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tabLinks(page)).toHaveText(['工作台', '栏目管理']);
    await expect(tab(page, '栏目管理')).toBeFocused();
    await expect(page).toHaveURL(/\/console\/content\/category$/);

    // Shift+F10 opens the menu on its first item; Escape closes it and gives the focus back.
    await page.keyboard.press('Shift+F10');
    const contextMenu = page.getByRole('menu', { name: '标签“栏目管理”' });
    await expect(contextMenu.getByRole('menuitem', { name: '刷新' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(contextMenu).toHaveCount(0);
    await expect(tab(page, '栏目管理')).toBeFocused();

    // The ContextMenu key too; the arrows move, Space runs 关闭 and the last visited tab opens.
    await page.keyboard.press('ContextMenu');
    await expect(contextMenu.getByRole('menuitem', { name: '刷新' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(contextMenu.getByRole('menuitem', { name: '关闭', exact: true })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(contextMenu).toHaveCount(0);
    await expect(tabLinks(page)).toHaveText(['工作台']);
    await expect(page).toHaveURL(/\/console\/dashboard$/);
    await expect(currentTab(page)).toHaveText('工作台');
  });

  test('the context menu stays inside the bar (105 px allowance)', async ({ page }) => {
    await openConsole(page, 'operator');
    const bar = await tabs(page).boundingBox();
    await tab(page, '工作台').click({ button: 'right', position: { x: 5, y: 5 } });
    const menu = page.getByRole('menu').filter({ hasText: '关闭所有' });
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(bar && box).toBeTruthy();
    if (bar && box) expect(box.x).toBeLessThanOrEqual(bar.x + bar.width - 105);
    // Any click elsewhere closes it.
    await page.getByRole('main').click({ position: { x: 5, y: 5 } });
    await expect(menu).toHaveCount(0);
  });

  test('personal info shows 账号, 姓名 and 电话 read-only; the password dialog opens clean', async ({ page }) => {
    await openConsole(page, 'admin');
    await page.getByRole('button', { name: /用户菜单/ }).click();
    await page.getByRole('menuitem', { name: '个人信息' }).click();
    const info = page.getByRole('dialog', { name: '个人信息' });
    await expect(info.getByLabel('账号')).toHaveValue('admin');
    await expect(info.getByLabel('姓名')).toHaveValue('张伟');
    await expect(info.getByLabel('电话')).toHaveValue('13800000001');
    await expect(info.getByLabel('账号')).toHaveAttribute('readonly', '');
    await info.getByRole('button', { name: /确\s*定/ }).click();

    await page.getByRole('button', { name: /用户菜单/ }).click();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await expect(dialog.getByLabel('原密码')).toBeFocused();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog).toContainText('请输入原密码');
    await expect(dialog).toContainText('请输入密码');
    await expect(dialog).toContainText('请再次输入密码');
  });

  test('a staff member without the content authority sees neither the menu item nor the page, and the API refuses them', async ({
    page,
  }) => {
    await openConsole(page, 'staff');
    await expect(sidebarMenu(page)).not.toContainText('内容管理');
    await expect(sidebarMenu(page)).toContainText('工作台');
    await page.goto('/console/content/article');
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByText('当前账号无权限')).toBeVisible();
    const status = await page.evaluate(async () => {
      const res = await fetch('/web-api/cms/v1/article/page/list?offset=0&limit=10', {
        headers: { 'X-Requested-With': 'XMLHttpRequest', Authorization: sessionStorage.getItem('portal.token') ?? '' },
      });
      return res.status;
    });
    expect(status).toBe(403);
  });

  test('logout clears the tabs and ends at the central logout', async ({ page }) => {
    await openConsole(page, 'operator');
    await sidebarMenu(page).getByText('操作日志').click();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page).not.toHaveURL(/\/console/);
    expect(await page.evaluate(() => sessionStorage.getItem('portal.console.visited-views'))).toBe('[]');
    await page.goto('/console', { waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/cas\/login\?service=/);
  });
});

test.describe('console shell on a phone', () => {
  test('the sidebar is a drawer that closes on navigation and on a click outside; no fullscreen button @mobile', async ({ page }) => {
    await openConsole(page, 'operator');
    const aside = sidebar(page);
    await expect(aside).not.toBeInViewport();
    await expect(page.getByRole('button', { name: '全屏' })).toHaveCount(0);

    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect(aside).toBeInViewport();
    await sidebarMenu(page).getByText('操作日志').click();
    await expect(page).toHaveURL(/\/console\/audit$/);
    await expect(aside).not.toBeInViewport();

    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect(aside).toBeInViewport();
    // The dimmed page beside the drawer.
    await page.mouse.click(340, 400);
    await expect(aside).not.toBeInViewport();
  });
});
