import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { readLabelPdf } from '../../server/src/testing/label-pdf-reader.js';
import { openConsole } from './console-helpers.js';
import { expect, test } from './fixtures.js';

const recordRows = (page: Page) =>
  page
    .getByRole('region', { name: '标识记录' })
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });

/** Searches the demo excavators EX-2023-000101 … 000109, ticks the first two rows and answers their handles. */
async function selectTwo(page: Page): Promise<string[]> {
  await openConsole(page, 'staff', '/console/identifier/record');
  await page.getByPlaceholder('按标识或后缀开头搜索').fill('EX-2023-00010');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(recordRows(page)).toHaveCount(9);
  const handles: string[] = [];
  for (const row of [recordRows(page).nth(0), recordRows(page).nth(1)]) {
    handles.push((await row.textContent())!.match(/88\.118\.8\/EX-2023-\d{6}/)![0]);
    await row.getByRole('checkbox').check();
  }
  return handles;
}

/** 打印标签 → 生成 PDF; answers the download once it arrived. */
async function download(page: Page) {
  const dialog = page.getByRole('dialog', { name: '打印标签' });
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: /生成 PDF/ }).click()]);
  expect(file.suggestedFilename()).toMatch(/^标识标签-\d{4}-\d{2}-\d{2}\.pdf$/);
  const bytes = fs.readFileSync(await file.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(dialog).toBeHidden();
  return bytes;
}

test.describe('打印标签 in 标识记录', () => {
  test('staff prints labels of two selected records: the PDF carries their QR codes and fields', async ({ page, baseURL }) => {
    const handles = await selectTwo(page);
    await page.getByRole('button', { name: /打印标签/ }).click();
    const dialog = page.getByRole('dialog', { name: '打印标签' });
    await expect(dialog.getByRole('radio', { name: '已选标识（2 个）' })).toBeChecked();
    await dialog.getByRole('combobox', { name: '数据项' }).click();
    await page.getByTitle('产品型号', { exact: true }).last().click();
    await expect(dialog.getByTitle('产品型号', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    const bytes = await download(page);

    const pages = await readLabelPdf(bytes);
    expect(pages).toHaveLength(1);
    // Each code opens /mark for its record, counted as 扫码; the e2e server has no PUBLIC_URL, so its own loopback address.
    const port = new URL(baseURL!).port;
    expect(
      pages[0]!.qr.map((url) => new URL(url)).map((url) => [url.pathname, url.searchParams.get('keyword'), url.searchParams.get('src')]),
    ).toEqual([...handles].sort().map((handle) => ['/mark', handle, 'qr']));
    expect(pages[0]!.qr.every((url) => new URL(url).port === port)).toBe(true);
    expect(pages[0]!.text).toContain('产品型号：HY-');
  });
});

test.describe('打印标签 on a phone', () => {
  test('two selected records download as a PDF; the dialog fits the screen @mobile', async ({ page }) => {
    await selectTwo(page);
    await page.getByRole('button', { name: /打印标签/ }).click();
    const dialog = page.getByRole('dialog', { name: '打印标签' });
    await expect(dialog.getByRole('radio', { name: '已选标识（2 个）' })).toBeChecked();
    // Button-style radios: the visible button is the label.
    await dialog.getByText('单张标签', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: '单张标签' })).toBeChecked();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const pages = await readLabelPdf(await download(page));
    expect(pages.map((p) => p.size)).toEqual([
      [50, 30],
      [50, 30],
    ]);
  });
});
