import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** Relative luminance of an `rgb(…)` colour (WCAG 2.1). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Whether two boxes share any area. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
/**
 * Tab from the day field named `label` until the focus leaves it: the browser's day field takes Tab
 * through its parts (year, month, day, its calendar button) first. A field that keeps the focus
 * longer than that is a trap.
 */
async function tabOutOf(page: Page, label: string) {
  for (let press = 0; press < 6 && (await focused(page)) === label; press++) await page.keyboard.press('Tab');
}

test.describe('the public site at its edges', () => {
  for (const path of ['/news', '/knowledge']) {
    test(`Tab moves on from the date range of ${path} (no keyboard trap)`, async ({ page }) => {
      await page.goto(path);
      await page.getByLabel('开始日期').focus();
      await tabOutOf(page, '开始日期');
      await expect.poll(() => focused(page)).toBe('结束日期');
      await tabOutOf(page, '结束日期');
      // Past the range: the sort order.
      await expect(page.getByRole('combobox', { name: '排序方式' })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect.poll(() => focused(page)).toBe('结束日期');
    });
  }

  for (const path of ['/redirect//example.com/x', '/redirect/%2F%2Fexample.com', '/redirect/%5Cexample.com']) {
    test(`${path} ends on 页面不存在 on this site, never on another`, async ({ page, baseURL }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: '页面不存在' })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(baseURL);
      await expect(page.getByText(/Unexpected Application Error|Hey developer/)).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }

  test('a page past the last says so and leads to the last page, whose pager agrees', async ({ page }) => {
    await page.goto('/news');
    const total = Number(/共 (\d+) 条/.exec((await page.getByText(/^共 \d+ 条$/).textContent()) ?? '')?.[1]);
    const lastPage = Math.ceil(total / 10);
    await page.goto('/news?page=99999');
    await expect(page.getByText(`第 99999 页没有内容：共 ${total} 条，${lastPage} 页`)).toBeVisible();
    // No pager marking a page the address does not name.
    await expect(page.getByRole('navigation', { name: '分页' })).toHaveCount(0);
    await page.getByRole('link', { name: `前往第 ${lastPage} 页` }).click();
    await expect(page).toHaveURL(new RegExp(`/news\\?page=${lastPage}$`));
    await expect(page.getByRole('list', { name: '文章' }).getByRole('listitem').first()).toBeVisible();
    const pager = page.getByRole('navigation', { name: '分页' });
    await expect(pager.getByRole('listitem', { name: String(lastPage) })).toHaveClass(/ant-pagination-item-active/);
  });

  test("a page address with a broken %-escape shows 请求地址有误 in the site's frame, with HTTP 400", async ({ page }) => {
    // A page without the app's scripts: nothing hydrates, so the test looks at it as it arrives.
    const response = await page.goto('/%E0%A4%A', { waitUntil: 'commit' });
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { level: 1, name: '请求地址有误' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page.getByText('"code"')).toHaveCount(0);
    await page.getByRole('link', { name: '返回首页' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });

  test('/, /403 and /404 each have one h1; the logo link is named by the words it shows', async ({ page }) => {
    for (const [path, name] of [
      ['/', 'Engineering e+ 工业互联网平台'],
      ['/403', '当前账号无权限'],
      ['/404', '页面不存在'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1, name })).toBeAttached();
    }
    await page.goto('/');
    const logo = page.getByRole('banner').getByRole('link').first();
    await expect(logo).toHaveAccessibleName(/^Engineering e\+\s*工业互联网平台$/);
  });

  test('the /403 footer is in Chinese', async ({ page }) => {
    await page.goto('/403');
    const footer = page.locator('.error-page__footer');
    await expect(footer).toHaveText(/^© \d{4} .+ 版权所有$/);
    await expect(footer).not.toContainText(/Copyright|All Rights Reserved/);
  });

  test('the method badges of the API reference have at least 4.5:1 contrast', async ({ page }) => {
    await page.goto('/open-service/api');
    const badges = page.getByText(/^(GET|POST|PUT|DELETE)$/);
    await expect(badges.first()).toBeVisible();
    const colours = await badges.evaluateAll((els) =>
      els.map((el) => {
        const style = getComputedStyle(el);
        return { text: el.textContent, color: style.color, background: style.backgroundColor, size: style.fontSize };
      }),
    );
    expect(colours.map((c) => c.text)).toContain('GET');
    for (const c of colours) expect(contrast(c.color, c.background), `${c.text} at ${c.size}`).toBeGreaterThanOrEqual(4.5);
  });
});

test.describe('the home page on a phone', () => {
  const leadTitle = (page: Page): Locator => page.getByRole('region', { name: '新闻资讯' }).getByRole('heading', { level: 3 }).first();

  test('the recommended-application carousel has arrows and one dot per application @mobile', async ({ page }) => {
    await page.goto('/');
    const carousel = page.getByRole('group', { name: '推荐应用' });
    await carousel.scrollIntoViewIfNeeded();
    const dots = carousel.getByRole('button', { name: /^第 \d+ 个应用$/ });
    await expect(dots).toHaveCount(6);
    for (const dot of await dots.all()) await expect(dot).toBeVisible();
    await expect(carousel.getByRole('button', { name: '上一个' })).toBeVisible();
    await expect(carousel.getByRole('button', { name: '下一个' })).toBeVisible();
    // A dot chooses its application.
    await dots.nth(3).click();
    await expect(dots.nth(3)).toHaveAttribute('aria-current', 'true');
  });

  test('the floating tools and their bubbles leave the lead news title uncovered @mobile', async ({ page }) => {
    await page.goto('/');
    const title = leadTitle(page);
    await expect(title).toBeVisible();
    const tools = page.getByRole('complementary', { name: '悬浮工具' });
    // Where the widget first shows (spec: 400 px), the lead title is lowest on the screen.
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(tools).toBeVisible();
    const covered = async () => {
      const titleBox = (await title.boundingBox())!;
      const boxes = [await tools.boundingBox()];
      for (const bubble of await page.getByRole('tooltip').all()) if (await bubble.isVisible()) boxes.push(await bubble.boundingBox());
      return boxes.some((box) => box !== null && overlap(box, titleBox));
    };
    expect(await covered()).toBe(false);
    // Touching or focusing App opens no QR bubble over the page: on a phone it is the download page's link.
    await tools.getByRole('link', { name: '下载 App' }).focus();
    expect(await covered()).toBe(false);
    await expect(tools.getByRole('link', { name: '下载 App' })).toHaveAttribute('href', '/app-download');
    await expect(tools.getByRole('link', { name: '联系我们' })).toHaveAttribute('href', /^tel:/);
  });
});
