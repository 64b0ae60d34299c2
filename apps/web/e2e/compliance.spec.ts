import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { openConsole, sidebarMenu } from './console-helpers.js';
import { expect, test } from './fixtures.js';

/**
 * 安全设置's 等保三级 preset and 安全合规: the preview of the changes, the save, the controls it passes, and
 * the CSV and PDF evidence pack an assessor is handed. Works in an enterprise of its own (it changes 安全设置).
 */

async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const file = await (download as Download).path();
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

test.describe('安全合规', () => {
  test('apply 等保三级 with its preview, then 安全合规 shows the 等保 controls passing and exports CSV and PDF', async ({
    page,
    newTenant,
  }) => {
    test.setTimeout(120_000);
    const { admin } = await newTenant();
    await openConsole(page, admin, '/console/security/setting');

    await page.getByRole('button', { name: '应用等保三级' }).click();
    const dialog = page.getByRole('dialog', { name: '应用预设：等保三级' });
    const changes = dialog.getByRole('table', { name: '预设的修改' });
    await expect(changes.getByRole('row', { name: /密码有效期\s*永不过期\s*90 天/ })).toBeVisible();
    await expect(changes.getByRole('row', { name: /二次验证\s*关闭\s*仅管理员/ })).toBeVisible();
    await expect(changes.getByRole('row', { name: /会话空闲超时\s*120 分钟\s*30 分钟/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('preset-preview-1440.png') });
    await dialog.getByRole('button', { name: '应用并保存' }).click();
    await expect(page.getByText('安全设置已保存，下次登录起生效')).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: '有效期' })).toHaveValue('90');

    // 安全合规 sits under 安全中心 beside 安全设置.
    await expect(sidebarMenu(page).getByRole('menuitem', { name: /安全合规/ })).toBeAttached();
    await page.goto('/console/security/compliance');
    const djcp = page.getByRole('table', { name: /等保 2.0 第三级/ });
    const rows = djcp.getByRole('row').filter({ hasText: 'GB/T 22239-2019' });
    await expect(rows).toHaveCount(11);
    // Every control the enterprise sets passes; 身份鉴别 c) asks for HTTPS, which this test server does not serve.
    await expect(rows.filter({ hasText: '未通过' })).toHaveCount(1);
    await expect(rows.filter({ hasText: '未通过' })).toContainText('身份鉴别 c)');
    await expect(rows.filter({ hasText: '口令复杂度' })).toContainText('通过');
    // ASVS disagrees: composition rules and rotation fail there, with a way to 安全设置.
    const asvs = page.getByRole('table', { name: /OWASP ASVS/ });
    const composition = asvs.getByRole('row').filter({ hasText: 'ASVS 5.0 6.2.5' });
    await expect(composition).toContainText('未通过');
    await expect(composition.getByRole('link', { name: '前往安全设置' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: /等保 2.0 第三级.*得分/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('compliance-1440.png'), fullPage: true });

    const csv = await downloaded(page, '导出 CSV');
    expect(csv.name).toMatch(/^安全合规-\d{14}\.csv$/);
    const text = csv.bytes.toString('utf8');
    expect(text).toContain('"GB/T 22239-2019 8.1.4.1 身份鉴别 a)","口令复杂度"');
    expect(text.split('\r\n').filter((line) => line.includes('"GB/T 22239-2019') && line.includes('"通过"'))).toHaveLength(10);

    const pdf = await downloaded(page, '导出证据包');
    expect(pdf.name).toMatch(/^安全合规证据包-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await page.setViewportSize({ width: 375, height: 812 });
    await expect(
      page
        .getByRole('table', { name: /等保 2.0 第三级/ })
        .getByRole('row')
        .filter({ hasText: '口令复杂度' }),
    ).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('compliance-375.png') });
  });
});
