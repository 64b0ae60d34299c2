import { expect, test } from './fixtures.js';
import { breadcrumb, chooseTreeOption, openConsole, sidebarMenu, tab, tabLinks, tabs } from './console-helpers.js';

test.describe('console pages in the shell', () => {
  test('a half-typed form survives a tab switch, refresh clears it; close others keeps the affix tab; closing the active tab goes to the last', async ({
    page,
  }) => {
    await openConsole(page, 'operator');
    const menu = sidebarMenu(page);
    await menu.getByText('内容管理').click();
    await menu.getByText('文章管理').click();
    const search = page.getByPlaceholder('按标题或摘要搜索');
    await search.fill('半截的关键');
    await menu.getByText('栏目管理').click();
    await menu.getByText('操作日志').click();
    await expect(tabLinks(page)).toHaveText(['工作台', '文章管理', '栏目管理', '操作日志']);

    // Back to the article tab: the text typed there is still there.
    await tab(page, '文章管理').click();
    await expect(page).toHaveURL(/\/console\/content\/article$/);
    await expect(page.getByPlaceholder('按标题或摘要搜索')).toHaveValue('半截的关键');

    // Refresh drops the page's kept state.
    await tab(page, '文章管理').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await expect(page).toHaveURL(/\/console\/content\/article$/);
    await expect(page.getByPlaceholder('按标题或摘要搜索')).toHaveValue('');

    // Close others: the affix tab stays.
    await tab(page, '文章管理').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await expect(tabLinks(page)).toHaveText(['工作台', '文章管理']);

    // Closing the active tab goes to the last one left.
    await menu.getByText('操作日志').click();
    await tabs(page).getByRole('button', { name: '关闭 操作日志' }).click();
    await expect(page).toHaveURL(/\/console\/content\/article$/);
  });

  test('an operator publishes an article; a visitor sees it on /knowledge and the audit log shows the publish', async ({
    page,
    browser,
  }) => {
    // Two browsers, the console's drawer and the public list's cache: more than one page's 30 s on a busy machine.
    test.slow();
    const title = `控制台发布验证 ${Date.now()}`;
    await openConsole(page, 'operator', '/console/content/article');
    await page.getByRole('button', { name: /新建文章/ }).click();
    const drawer = page.getByRole('dialog', { name: '新建文章' });
    await drawer.getByLabel('标题').fill(title);
    // 标准规范: no journey counts its articles or looks for its first one (行业动态's 共 20 条 is counted
    // on /news, and another journey expects its own article first in 企业新闻).
    await chooseTreeOption(page, drawer, '分类', '标准规范');
    await drawer.getByLabel('摘要').fill('端到端测试：由控制台发布的资讯。');
    await drawer.getByRole('textbox', { name: '正文' }).fill('这是一篇由平台运营在控制台撰写并发布的资讯正文。');
    await drawer.getByRole('button', { name: '保存并发布' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('已发布');

    // A visitor, in a browser of their own, finds it on /knowledge (the public list is cached up to 5 s).
    const visitor = await browser.newPage();
    await expect(async () => {
      await visitor.goto('/knowledge');
      await visitor.getByRole('tab', { name: '标准规范' }).click();
      await expect(visitor.getByText(title)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await visitor.close();

    await sidebarMenu(page).getByText('操作日志').click();
    const publish = page.getByRole('row').filter({ hasText: title }).filter({ hasText: '发布文章' });
    await expect(publish).toHaveCount(1);
    await expect(publish).toContainText('operator');
  });
});

test.describe('console pages on a phone', () => {
  test('pages fit the screen: nothing but the tables scrolls sideways @mobile', async ({ page }) => {
    await openConsole(page, 'operator');
    for (const [group, item] of [
      [null, '操作日志'],
      ['内容管理', '文章管理'],
      [null, '工作台'],
    ] as const) {
      await page.getByRole('button', { name: '展开菜单' }).click();
      if (group) await sidebarMenu(page).getByText(group).click();
      await sidebarMenu(page).getByText(item).click();
      await expect(breadcrumb(page)).toContainText(item);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, item).toBeLessThanOrEqual(0);
    }
  });
});
