import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

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
    const lookup = page.waitForRequest((r) => r.url().includes('/web-api/portal/v1/identity/query'));
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    expect(new URL((await lookup).url()).searchParams.get('handle')).toBe(HANDLE);
    // The page's title names the identifier (issue 21: shared links and search engines see it).
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
    // The QR code is drawn, and its address (shown on hover) is this lookup's, absolute.
    const qr = result(page).getByRole('img', { name: `${HANDLE} 的查询二维码` });
    await expect(qr).toBeVisible();
    await expect(qr).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByText('扫码查看此标识')).toBeVisible();
    await expect(result(page).getByRole('figure')).toHaveAttribute('title', `${baseURL}/mark?keyword=${encodeURIComponent(HANDLE)}`);
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

  test('an unknown identifier shows the empty notice 暂无数据; an empty keyword does not search', async ({ page }) => {
    await page.goto('/mark');
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/web-api/portal/v1/identity/query')) calls++;
    });
    await box(page).fill('   ');
    await box(page).press('Enter');
    await page.waitForTimeout(300);
    expect(calls).toBe(0);
    await box(page).fill('88.118.8/EX-2099-000001');
    await box(page).press('Enter');
    await expect(page.getByText('暂无数据', { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(result(page)).toHaveCount(0);
    expect(calls).toBe(1);
  });

  test('a failed search shows nothing: no toast, the page stays as it was', async ({ page }) => {
    await page.goto(`/mark?keyword=${encodeURIComponent(HANDLE)}`);
    await expect(result(page)).toBeVisible();
    const refused = page.waitForResponse((r) => r.url().includes('/web-api/portal/v1/identity/query') && r.status() === 400);
    await box(page).fill('no-slash-here');
    await box(page).press('Enter');
    await refused;
    await page.waitForTimeout(500);
    // No toast (antd's toasts are alerts).
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(result(page).getByRole('heading', { level: 2 })).toHaveText(HANDLE);
    await expect(page.getByText('暂无数据', { exact: true }).filter({ visible: true })).toHaveCount(0);
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
