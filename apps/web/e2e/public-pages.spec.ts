import { expect, scrollStill, silentCheckDone, test } from './fixtures.js';

test.describe('other public pages', () => {
  test('/product lists applications by category and opens a detail', async ({ page }) => {
    await page.goto('/product');
    await expect(page).toHaveTitle('应用推荐 - Engineering e+');
    const apps = page.getByRole('list', { name: '应用' }).getByRole('link');
    await expect(apps).toHaveCount(10);
    await page.getByText('运维服务', { exact: true }).first().click();
    await expect(apps).toHaveCount(2);
    await apps.filter({ hasText: '智能运维' }).click();
    await expect(page).toHaveURL(/\/product\/center\/detail\?uuid=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: '智能运维' })).toBeVisible();
    await expect(page.getByText('核心功能')).toBeVisible();
  });

  test('/settled shows both steps and its menu highlights the section in view', async ({ page }) => {
    await page.goto('/settled');
    await expect(page.getByRole('heading', { level: 2, name: '第一步 注册登录' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '第二步 企业认证' })).toBeAttached();
    const menu = page.getByRole('complementary', { name: '本页目录' });
    const highlighted = menu.locator('[aria-current="location"]');
    await menu.getByRole('link', { name: '第二步 企业认证' }).click();
    await expect(highlighted).toHaveText('第二步 企业认证');
    // The menu scrolls to the section in steps; scrolling by hand starts once it has arrived.
    await scrollStill(page);
    await page.getByRole('heading', { level: 2, name: '常见问题' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(highlighted).toHaveText('常见问题');
    // An answer shows under its question once asked, by pointer or keyboard, and hides again.
    const question = page.getByText('收不到短信验证码怎么办？');
    const answer = page.getByText('同一手机号 60 秒内只能获取一次');
    await expect(answer).toBeHidden();
    await question.click();
    await expect(answer).toBeVisible();
    await question.press('Enter');
    await expect(answer).toBeHidden();
  });

  test('/remote shows its static page /static/remote.htm: rendered by the server, loaded by the browser on the way there', async ({
    page,
  }) => {
    // A visitor landing on /remote gets the page's text in the HTML.
    const html = await (await page.request.get('/remote', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<h2>服务流程</h2>');
    // Reached from another page, the browser loads the static page itself.
    await page.goto('/');
    const loaded = page.waitForResponse((r) => r.url().endsWith('/static/remote.htm') && r.status() === 200);
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '远程运维' }).click();
    await loaded;
    await expect(page.getByRole('heading', { level: 1, name: '远程运维' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '服务流程' })).toBeVisible();
  });

  test('/privacy and /service show the same agreement page', async ({ page }) => {
    await page.goto('/privacy');
    await expect(page.getByRole('tab', { name: '隐私协议' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { level: 1, name: '隐私协议' })).toBeVisible();
    await page.getByRole('tab', { name: '服务协议' }).click();
    await expect(page).toHaveURL(/\/service$/);
    await expect(page.getByRole('heading', { level: 1, name: '服务协议' })).toBeVisible();
    await page.goto('/service');
    await expect(page.getByRole('tab', { name: '服务协议' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a visitor browses every public page without being sent to log in', async ({ page, baseURL }) => {
    for (const path of ['/', '/news', '/knowledge', '/product', '/settled', '/remote', '/privacy', '/service', '/mark', '/open-service']) {
      await page.goto(path);
      await silentCheckDone(page);
      expect(page.url()).toBe(`${baseURL}${path}`);
    }
  });
});
