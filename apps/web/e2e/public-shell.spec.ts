import { decodeRuntimeConfig } from '../../../packages/shared/src/runtime-config.js';
import { expect, test } from './fixtures.js';

test.describe('public shell', () => {
  test('an unknown path shows the 404 page, whose back button logs out', async ({ page, baseURL }) => {
    await page.goto('/no/such/page?x=1');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle('页面不存在 - Engineering e+');
    // Logout goes to the central logout address with the home page as the service.
    await page.route('**/cas/logout**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>logged out</p>' }));
    await page.evaluate(() => sessionStorage.setItem('portal.token', 'bearer abc'));
    await page.getByRole('button', { name: /返\s*回/ }).click();
    await expect(page).toHaveURL(`${baseURL}/cas/logout?service=${encodeURIComponent(`${baseURL}/`)}`);
    expect(await page.evaluate(() => sessionStorage.getItem('portal.token'))).toBeNull();
  });

  test('/config.js defines the global function with the documented keys', async ({ page, baseURL }) => {
    await page.goto('/');
    const encoded = await page.evaluate(() => (window as unknown as { getPortalConfig?: () => string }).getPortalConfig?.() ?? '');
    const config = decodeRuntimeConfig(encoded);
    expect(config.casLoginUrl).toBe(`${baseURL}/cas/login`);
    expect(config.homeUrl).toBe(baseURL);
    expect(config.fileStaticUrl).toBe(`${baseURL}/files`);
  });

  test('page titles are the route title plus the product title', async ({ page }) => {
    await page.goto('/mark');
    await expect(page).toHaveTitle('标识查询 - Engineering e+');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '行业资讯' }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(page).toHaveTitle('行业资讯 - Engineering e+');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Engineering e\+/ })
      .click();
    await expect(page).toHaveTitle('首页 - Engineering e+');
  });

  test('/redirect/{path*} replaces the route and keeps the query', async ({ page }) => {
    await page.goto('/redirect/knowledge/detail?id=abc');
    await expect(page).toHaveURL(/\/knowledge\/detail\?id=abc$/);
    await expect(page).toHaveTitle('知识详情 - Engineering e+');
  });

  test('/403 shows 当前账号无权限 with links to the main site', async ({ page, baseURL }) => {
    await page.goto('/403');
    await expect(page.getByText('当前账号无权限')).toBeVisible();
    await expect(page.getByRole('link', { name: '工程机械集团有限公司' })).toHaveAttribute('href', `${baseURL}/`);
    await expect(page.getByRole('link', { name: /返回首页/ })).toHaveAttribute('href', `${baseURL}/`);
  });

  test('footer shows the address, links, legal statement, support and app QR code', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByText('江苏省徐州市经济技术开发区工业互联网产业园 8 号楼')).toBeVisible();
    await expect(footer.getByText('技术支持：', { exact: false })).toBeVisible();
    const qr = footer.getByRole('img', { name: '下载 App 的二维码' });
    await expect(qr).toBeVisible();
    // Drawn: the busy placeholder box has given way to the code.
    await expect(qr).not.toHaveAttribute('aria-busy', 'true');
    await expect(footer.getByText('扫码下载 App')).toBeVisible();
    // The legal statement's link in the bottom line (the link groups have one too).
    await footer.getByText('法律声明：').getByRole('link', { name: '用户协议' }).click();
    await expect(page).toHaveURL(/\/agreement\.html$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('用户协议');
  });

  test('the header logo returns home and the login button goes to the central login', async ({ page, baseURL }) => {
    await page.goto('/settled');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Engineering e\+/ })
      .click();
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole('heading', { name: '应用推荐' })).toBeVisible();
    const login = page.getByRole('banner').getByRole('link', { name: /登\s*录/ });
    // The login address comes back to the page the visitor is on now.
    await expect(login).toHaveAttribute('href', `${baseURL}/web/portal/cas/login?target=%2F`);
  });

  test('a progress bar shows while a route loads', async ({ page }) => {
    // Hold the 入驻指南 page's code so the navigation to it stays in flight.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/settled-page-.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '入驻指南' }).click();
    await expect(page.getByRole('progressbar', { name: '页面加载中' })).toBeAttached();
    release();
    await expect(page.getByRole('heading', { level: 1, name: '入驻指南' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: '页面加载中' })).toHaveCount(0);
  });
});
