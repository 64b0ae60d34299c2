import type { Page } from '@playwright/test';
import { expect, renderingSettled, scrollStill, test } from './fixtures.js';

const HANDLE = '88.118.8/EX-2024-000123';
const box = (page: Page) => page.getByPlaceholder('如 88.118.8/EX-2024-000123');
const result = (page: Page) => page.getByRole('region', { name: '查询结果' });

/** The label → value pairs the result shows, in order. */
async function fields(page: Page) {
  const labels = await result(page).getByRole('term').allTextContents();
  const values = await result(page).getByRole('definition').allTextContents();
  return labels.map((label, i) => [label, values[i]]);
}

test.describe('标识查询 /mark', () => {
  test('?keyword= fills the box and shows the result at once, scrolled to 400 px, with a QR code of the lookup address', async ({
    page,
    baseURL,
  }) => {
    // The search runs at once, on the server: the page arrives with the record in its HTML.
    const html = await (await page.request.get(`/mark?keyword=${encodeURIComponent(HANDLE)}`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('中型履带式液压挖掘机');
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    // The page's title names the identifier (shared links and search engines see it).
    await expect(page).toHaveTitle(`${HANDLE} - 标识查询 - Engineering e+`);
    await expect(box(page)).toHaveValue(HANDLE);
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText(HANDLE);
    expect((await fields(page)).slice(0, 4)).toEqual([
      ['产品名称', '中型履带式液压挖掘机'],
      ['产品型号', 'HY-E215'],
      ['出厂编号', 'HYE21524000123'],
      ['生产日期', '2024-11-19'],
    ]);
    expect(await result(page).getByRole('term').allTextContents()).toEqual([
      '产品名称',
      '产品型号',
      '出厂编号',
      '生产日期',
      '生产厂家',
      '生产工厂',
      '主要参数',
      '发动机型号',
      '质保期',
      '售后电话',
      '服务网点',
    ]);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(400);
    // The QR code is drawn, and its address (shown on hover) is this lookup's, absolute, marked as a scan.
    const qr = result(page).getByRole('img', { name: `${HANDLE} 的查询二维码` });
    await expect(qr).toBeVisible();
    await expect(qr).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByText('扫码查看此标识')).toBeVisible();
    await expect(result(page).getByRole('figure')).toHaveAttribute('title', `${baseURL}/mark?keyword=${encodeURIComponent(HANDLE)}&src=qr`);
  });

  test('Enter searches, the address keeps the keyword, and the clear action empties the result', async ({ page }) => {
    await page.goto('/mark');
    await expect(result(page)).toHaveCount(0);
    await box(page).fill(' 88.118.16/HP-2024-000101 ');
    await box(page).press('Enter');
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText('88.118.16/HP-2024-000101');
    expect((await fields(page))[0]).toEqual(['产品名称', '斜轴式柱塞泵']);
    await expect(page).toHaveURL(/\/mark\?keyword=88\.118\.16%2FHP-2024-000101$/);
    await page.getByRole('button', { name: '清空结果' }).click();
    await expect(result(page)).toHaveCount(0);
    await expect(box(page)).toHaveValue('');
    await expect(page).toHaveURL(/\/mark$/);
  });

  test('an unknown identifier shows 未找到该标识 with how one is written, without scrolling; an empty keyword does not search', async ({
    page,
  }) => {
    await page.goto('/mark');
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/web-api/portal/v1/identity/query')) calls++;
    });
    await box(page).fill('   ');
    await box(page).press('Enter');
    await renderingSettled(page);
    expect(calls).toBe(0);
    // A search sent for the empty keyword would have gone before this one: the count below says none did.
    const answered = page.waitForResponse((r) => r.url().includes('/web-api/portal/v1/identity/query'));
    await box(page).fill('88.118.8/EX-2099-000001');
    await box(page).press('Enter');
    await answered;
    const missing = page.getByRole('region', { name: '未找到该标识' });
    await expect(missing.getByRole('heading', { name: '未找到该标识' })).toBeVisible();
    await expect(missing.getByText('88.118.8/EX-2099-000001', { exact: true })).toBeVisible();
    await expect(missing).toContainText('前缀/后缀');
    await expect(missing).toContainText(HANDLE);
    await expect(missing).toBeInViewport();
    await expect(result(page)).toHaveCount(0);
    expect(calls).toBe(1);
    // Nothing scrolls once the answer is drawn (a found record would be brought into view).
    await scrollStill(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("a good then a bad search: the record goes at once, the server's reason shows under the box, no toast", async ({ page }) => {
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText(HANDLE);
    const refused = page.waitForResponse((r) => r.url().includes('/web-api/portal/v1/identity/query') && r.status() === 400);
    await box(page).fill('no-slash-here');
    await box(page).press('Enter');
    await refused;
    const reason = page.getByRole('status').filter({ hasText: '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123' });
    await expect(reason).toBeVisible();
    await expect(reason).toBeInViewport();
    await expect(box(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(result(page)).toHaveCount(0);
    await expect(page.getByText('HY-E215')).toHaveCount(0);
    await expect(page.getByRole('region', { name: '未找到该标识' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/mark\?keyword=no-slash-here$/);
    // No toast (antd's toasts are alerts).
    await expect(page.getByRole('alert')).toHaveCount(0);
    // A reload shows the same refusal, never the earlier record.
    await page.reload();
    await expect(page.getByText('标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123')).toBeVisible();
    await expect(result(page)).toHaveCount(0);
  });

  test('a result, then a slow unknown search: the old record is gone while the server answers', async ({ page }) => {
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    await expect(result(page)).toBeVisible();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/web-api/portal/v1/identity/query**', async (route) => {
      await held;
      await route.continue();
    });
    await box(page).fill('88.118.8/EX-2099-000001');
    await box(page).press('Enter');
    await expect(result(page)).toHaveCount(0);
    await expect(page.getByText('HY-E215')).toHaveCount(0);
    release();
    await expect(page.getByRole('heading', { name: '未找到该标识' })).toBeVisible();
    await expect(result(page)).toHaveCount(0);
  });

  for (const [name, input, reason] of [
    ['markup', '<img src=x onerror="window.__hit=1">', '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123'],
    ['300 characters', `88.118.8/${'A'.repeat(291)}`, '标识过长：最多 255 个字符'],
  ] as const) {
    test(`input with ${name} shows the reason and is never rendered as markup`, async ({ page }) => {
      await page.goto('/mark');
      await box(page).fill(input);
      await box(page).press('Enter');
      await expect(page.getByRole('status').filter({ hasText: reason })).toBeVisible();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      expect(await page.evaluate(() => (window as { __hit?: number }).__hit)).toBeUndefined();
      await expect(box(page)).toHaveValue(input);
    });
  }

  test('a control character typed into the box shows the reason', async ({ page }) => {
    await page.goto('/mark');
    await box(page).fill('88.118.8/EX\u001b[31m');
    await box(page).press('Enter');
    await expect(page.getByRole('status').filter({ hasText: '查询参数 handle 含有不允许的控制字符' })).toBeVisible();
    await expect(result(page)).toHaveCount(0);
  });

  test('a link whose identifier looks like markup shows it as text', async ({ page }) => {
    await page.goto(`/mark?keyword=${encodeURIComponent('88.118.8/<b>x</b>')}`);
    const missing = page.getByRole('region', { name: '未找到该标识' });
    await expect(missing.getByText('88.118.8/<b>x</b>', { exact: true })).toBeVisible();
    await expect(missing.locator('b')).toHaveCount(0);
  });

  test('on a phone the result fits the screen @mobile', async ({ page }) => {
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText(HANDLE);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    const box375 = await result(page).boundingBox();
    expect(box375?.width).toBeLessThanOrEqual(375);
    // Fields stack in one column: every label starts at the same x.
    const xs = await result(page)
      .getByRole('term')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(xs).size).toBe(1);
    await box(page).fill('88.118.8/LD-2024-000101');
    await box(page).press('Enter');
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText('88.118.8/LD-2024-000101');
  });
});
