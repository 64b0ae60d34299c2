import type { Page } from '@playwright/test';
import { expect, renderingSettled, test } from './fixtures.js';

/** The article cards of a list. */
const cards = (page: Page) => page.getByRole('list', { name: '文章' }).getByRole('link');
const prompt = (page: Page) => page.getByRole('dialog', { name: '请先登录' });
const menusAnswered = (page: Page) => page.waitForResponse((r) => r.url().includes('/web/portal/menu/list'));

/**
 * The prompt is decided once the page knows the visitor is not logged in (the menus answer) and has
 * drawn what it shows: that answer rendered, its effect run and a dialog it opened drawn, before
 * saying that no prompt came.
 */
async function settled(page: Page, menus: Promise<unknown>): Promise<void> {
  await menus;
  await renderingSettled(page);
}

test.describe('请先登录 on article details', () => {
  test('asks a visitor once per browser session, over an article and never over the not-found state', async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    // An unknown article: HTTP 404, the not-found state, and no prompt over it.
    const notFoundMenus = menusAnswered(page);
    const missing = await page.goto('/news/detail?id=00000000-0000-0000-0000-000000000000');
    expect(missing?.status()).toBe(404);
    await expect(page.getByText('文章不存在或已下线')).toBeVisible();
    await settled(page, notFoundMenus);
    await expect(prompt(page)).toHaveCount(0);

    // The first article read in this session asks, inviting to the platform's services.
    await page.goto('/news');
    const [first] = await Promise.all([context.waitForEvent('page'), cards(page).nth(0).click()]);
    await expect(prompt(first)).toBeVisible();
    await expect(prompt(first)).toContainText('登录后即可使用标识解析、应用中心、开放服务等平台服务');
    await expect(prompt(first)).not.toContainText('完整内容');
    // 取消 stays on the article.
    const url = first.url();
    await first.getByRole('button', { name: /取\s*消/ }).click();
    await expect(prompt(first)).toBeHidden();
    expect(first.url()).toBe(url);
    await expect(first.getByRole('heading', { level: 1 })).toBeVisible();

    // The next article, in another tab of the same session, and a reload: no prompt.
    const [second] = await Promise.all([context.waitForEvent('page'), cards(page).nth(1).click()]);
    const secondMenus = menusAnswered(second);
    await expect(second.getByRole('heading', { level: 1 })).toBeVisible();
    await settled(second, secondMenus);
    await expect(prompt(second)).toHaveCount(0);
    const reloadMenus = menusAnswered(second);
    await second.reload();
    await expect(second.getByRole('heading', { level: 1 })).toBeVisible();
    await settled(second, reloadMenus);
    await expect(prompt(second)).toHaveCount(0);

    // A new browser session asks again; 确定 goes to the central login.
    const fresh = await browser.newContext({ baseURL });
    try {
      const again = await fresh.newPage();
      await again.goto(url);
      await expect(prompt(again)).toBeVisible();
      await again.route(`${baseURL}/cas/login**`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>cas</p>' }));
      await again.getByRole('button', { name: /确\s*定/ }).click();
      await expect(again).toHaveURL(new RegExp(`^${baseURL}/cas/login\\?service=`));
    } finally {
      await fresh.close();
    }
  });
});
