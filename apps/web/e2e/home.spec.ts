import type { Page } from '@playwright/test';
import { DEMO_PASSWORD } from './console-helpers.js';
import { expect, renderingSettled, test } from './fixtures.js';

/** The developer tools' links (开发者工具). */
const devTools = (page: Page) => page.getByRole('region', { name: '开发者工具' }).getByRole('link');

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

  test('every server-rendered page hydrates without errors, for a visitor and for a signed-in user', async ({ page }) => {
    // The page's parts hydrate one after another (Suspense boundaries); a part hydrated after the menus
    // call has answered must still draw what the server drew.
    const api = async <T>(url: string) => ((await (await page.request.get(url)).json()) as { data: T[] }).data;
    const [news] = await api<{ rows: { uuid: string }[] }>(
      '/open-api/cms/v1/article/published/page/list?offset=0&limit=1&filterCategoryId=news',
    );
    const [app] = await api<{ applicationUuid: string }>('/open-api/app/v1/list');
    const paths = [
      '/settled',
      '/mark',
      `/mark?keyword=${encodeURIComponent('88.118.8/EX-2024-000123')}`,
      `/news/detail?id=${news!.rows[0]!.uuid}`,
      '/product',
      `/product/center/detail?uuid=${app!.applicationUuid}`,
      '/open-service?toolId=03',
    ];
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    for (const path of paths) await page.goto(path);

    await page.goto('/');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /登\s*录/ })
      .click();
    await page.getByLabel('账号').fill('admin');
    await page.getByLabel('密码').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page.getByRole('banner').getByRole('button', { name: /^张伟/ })).toBeVisible();
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByRole('banner').getByRole('button', { name: /^张伟/ })).toBeVisible();
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
    // News: 3 articles, one highlighted (the lead, outside the list of the other two), dates split
    // into day and month; the link goes to /news.
    const news = page.getByRole('region', { name: '新闻资讯' });
    await expect(news.getByRole('heading', { level: 3 })).toHaveCount(3);
    await expect(news.getByRole('list').getByRole('listitem')).toHaveCount(2);
    await expect(news.getByRole('time').first()).toHaveText(/^\d{2}\d{4}-\d{2}$/);
    await expect(page.getByRole('link', { name: /更多资讯/ })).toHaveAttribute('href', '/news');
    // Six advantages and six developer tools with fixed ids 01–06.
    const advantages = page.getByRole('region', { name: '平台优势' });
    for (const a of ['通用', '安全', '易用', '可扩展', '稳定', '灵活'])
      await expect(advantages.getByText(a, { exact: true })).toHaveCount(1);
    const tools = devTools(page);
    await expect(tools).toHaveCount(6);
    for (const [i, id] of ['01', '02', '03', '04', '05', '06'].entries()) {
      await expect(tools.nth(i)).toHaveAttribute('id', `tool-${id}`);
      await expect(tools.nth(i)).toHaveAttribute('href', new RegExp(`/open-service\\?toolId=${id}$`));
    }
  });

  test('the recommended-application carousel: at most 6, 3 per view, advances by itself, opens the app center', async ({
    page,
    baseURL,
  }) => {
    // The page's timers on a clock the test moves: autoplay's step is run out, not waited for.
    await page.clock.install();
    await page.goto('/');
    const carousel = page.getByRole('group', { name: '推荐应用' });
    await carousel.scrollIntoViewIfNeeded();
    // Swiper has taken over once its dots are buttons, one per app.
    const bullets = carousel.getByRole('button', { name: /^第 \d+ 个应用$/ });
    await expect(bullets).toHaveCount(6);
    const slides = carousel.getByRole('group', { name: /^\d+ \/ 6$/ });
    await expect(slides.first()).toBeVisible();
    const box = (await carousel.boundingBox())!;
    const edges = await slides.evaluateAll((els) => els.map((e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().right]));
    expect(edges.filter(([left, right]) => left! >= box.x - 1 && right! <= box.x + box.width + 1)).toHaveLength(3);
    const current = () => bullets.evaluateAll((b) => b.findIndex((x) => x.getAttribute('aria-current') === 'true'));
    const activeBefore = await current();
    // Autoplay: 3000 ms per step.
    await page.clock.runFor(3_100);
    await expect.poll(current).not.toBe(activeBefore);
    await page.route('**/product/center/detail**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>app</p>' }));
    // The active slide (its dot is current) is the first one in view.
    await carousel
      .getByRole('group', { name: `${(await current()) + 1} / 6` })
      .getByRole('button')
      .click();
    await expect(page).toHaveURL(new RegExp(`^${baseURL}/product/center/detail\\?uuid=[0-9a-f-]{36}$`));
  });

  test('the floating tools appear after 400 px of scroll and show the app QR code on hover', async ({ page }) => {
    // The page's timers on a clock the test moves: the scroll handler's throttle (300 ms) is run out, not waited for.
    await page.clock.install();
    await page.goto('/');
    await expect(devTools(page)).toHaveCount(6);
    await expect(page.getByRole('complementary', { name: '悬浮工具' })).toHaveCount(0);
    // The scroll event delivered (to the widget's listener first, registered earlier), then its throttle's time run out.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          window.addEventListener('scroll', () => resolve(), { once: true });
          window.scrollTo(0, 390);
        }),
    );
    await page.clock.runFor(400);
    await renderingSettled(page);
    await expect(page.getByRole('complementary', { name: '悬浮工具' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 420));
    const tools = page.getByRole('complementary', { name: '悬浮工具' });
    await expect(tools).toBeVisible();
    await tools.getByRole('link', { name: '下载 App' }).hover();
    const qr = tools.getByRole('img', { name: '下载 App 的二维码' });
    await expect(qr).toBeVisible();
    // Drawn: the busy placeholder box has given way to the code.
    await expect(qr).not.toHaveAttribute('aria-busy', 'true');
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
