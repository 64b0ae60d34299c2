import { expect, test } from './fixtures.js';

test.describe('home', () => {
  test('the first view arrives rendered by the server and the app hydrates it without errors', async ({ page }) => {
    const html = await (await page.request.get('/', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<title>首页 - Engineering e+</title>');
    for (const text of ['工业互联网平台 赋能智能制造', '新闻资讯', '应用推荐', '接入设备']) expect(html).toContain(text);
    expect(html).toContain('id="portal-state"');

    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    for (const path of ['/', '/news', '/knowledge']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-app', 'ready');
    }
    expect(errors).toEqual([]);
  });

  test('renders every section with data from the server', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('首页 - Engineering e+');
    for (const heading of ['新闻资讯', '应用推荐', '资源地图', '荣誉资质', '供需互助', '关于我们', '平台优势', '开发者工具']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByText('工业互联网平台 赋能智能制造').first()).toBeAttached();
    await expect(page.getByText('接入设备').first()).toBeVisible();
    // News: 3 articles, one highlighted, dates split into day and month; the link goes to /news.
    await expect(page.locator('.home-news__lead')).toHaveCount(1);
    await expect(page.locator('.home-news__list li')).toHaveCount(2);
    await expect(page.locator('.home-news .home-date strong').first()).toHaveText(/^\d{2}$/);
    await expect(page.locator('.home-news .home-date span').first()).toHaveText(/^\d{4}-\d{2}$/);
    await expect(page.getByRole('link', { name: /更多资讯/ })).toHaveAttribute('href', '/news');
    // Six advantages and six developer tools with fixed ids 01–06.
    for (const a of ['通用', '安全', '易用', '可扩展', '稳定', '灵活'])
      await expect(page.locator('.home-advantage strong', { hasText: a })).toHaveCount(1);
    await expect(page.locator('.home-tool')).toHaveCount(6);
    for (const id of ['01', '02', '03', '04', '05', '06']) {
      await expect(page.locator(`#tool-${id}`)).toHaveAttribute('href', new RegExp(`/open-service\\?toolId=${id}$`));
    }
  });

  test('the recommended-application carousel: at most 6, 3 per view, advances by itself, opens the app center', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/');
    const carousel = page.locator('.home-recommend');
    await carousel.scrollIntoViewIfNeeded();
    const bullets = carousel.locator('.swiper-pagination-bullet');
    await expect(bullets).toHaveCount(6);
    await expect(carousel.locator('.swiper-slide-visible, .swiper-slide').first()).toBeVisible();
    const visibleCards = await carousel.locator('.home-recommend__card').evaluateAll(
      (cards) =>
        cards.filter((c) => {
          const r = c.getBoundingClientRect();
          const box = c.closest('.swiper')!.getBoundingClientRect();
          return r.left >= box.left - 1 && r.right <= box.right + 1;
        }).length,
    );
    expect(visibleCards).toBe(3);
    const activeBefore = await bullets.evaluateAll((b) => b.findIndex((x) => x.classList.contains('swiper-pagination-bullet-active')));
    // Autoplay: 3000 ms per step.
    await expect
      .poll(() => bullets.evaluateAll((b) => b.findIndex((x) => x.classList.contains('swiper-pagination-bullet-active'))), {
        timeout: 8000,
      })
      .not.toBe(activeBefore);
    await page.route('**/product/center/detail**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>app</p>' }));
    await carousel.locator('.swiper-slide-active .home-recommend__card').click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/product/center/detail\\?uuid=[0-9a-f-]{36}$`));
  });

  test('the floating tools appear after 400 px of scroll and show the app QR code on hover', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('.home-tool')).toHaveCount(6);
    await expect(page.getByRole('complementary', { name: '悬浮工具' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 390));
    await page.waitForTimeout(400);
    await expect(page.getByRole('complementary', { name: '悬浮工具' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 420));
    const tools = page.getByRole('complementary', { name: '悬浮工具' });
    await expect(tools).toBeVisible();
    await tools.getByRole('button', { name: '下载 App' }).hover();
    await expect(page.locator('.float-tools__qr canvas')).toBeVisible();
    await tools.getByRole('button', { name: '回到顶部' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(400);
    await expect(tools).toBeHidden();
  });

  test('the home page fits a phone @mobile', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: '新闻资讯' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
