import type { Page } from '@playwright/test';
import { type Tenant, expect, test, uniqueTag } from './fixtures.js';
import { chooseSelectOption, openConsole } from './console-helpers.js';

/** A name no other test has used (tests of this file may share their enterprise). */
const unique = (head: string) => `${head}-${uniqueTag().toUpperCase()}`;

const DATE_MESSAGE = '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01';

/** The page scrolls only up and down. */
async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/**
 * Bulk upkeep of identifiers as an owner does it: a template with a date item, a record whose impossible date
 * the form refuses, records added by import, a new version that retires an item, an 更新 import
 * (an unknown handle writes nothing), and 批量迁移 of every record to the new version after its preview.
 */
async function bulkUpkeep(page: Page, width: number, tenant: Tenant & { prefix: string }) {
  test.setTimeout(240_000);
  const { prefix } = tenant;
  const template = unique('批量');
  const head = unique('BK');
  const handle = (n: number) => `${prefix}/${head}-${n}`;

  // 1. The template: 产品名称 (text), 生产日期 (date), 颜色 (text), under the enterprise's own prefix (the tenant fixture).
  await openConsole(page, tenant.admin, '/console/identifier/template');
  await page.getByRole('button', { name: /新建模板/ }).click();
  const editor = page.getByRole('dialog', { name: '新建模板' });
  await editor.getByLabel('模板名称').fill(template);
  await editor.getByLabel('第 1 项 名称').fill('产品名称');
  await editor.getByLabel('第 1 项 类型标识').fill('productName');
  await editor.getByRole('button', { name: /添加数据项/ }).click();
  await editor.getByLabel('第 2 项 名称').fill('生产日期');
  await editor.getByLabel('第 2 项 类型标识').fill('productionDate');
  await chooseSelectOption(page, editor, '第 2 项 值类型', '日期');
  await expect(editor.getByText('YYYY-MM-DD，须为有效日期')).toBeVisible();
  await editor.getByRole('button', { name: /添加数据项/ }).click();
  await editor.getByLabel('第 3 项 名称').fill('颜色');
  await editor.getByLabel('第 3 项 类型标识').fill('color');
  await editor.getByRole('button', { name: /创建模板/ }).click();
  await expect(page.getByText('模板已创建')).toBeVisible();
  await expect(editor).toBeHidden();

  // 2. A record: the form refuses a day February does not have.
  await page.goto('/console/identifier/record');
  await page.getByRole('button', { name: /新建标识/ }).click();
  const form = page.getByRole('dialog', { name: '新建标识' });
  await chooseSelectOption(page, form, '模板', `${template}（v1）`);
  await form.getByLabel('标识后缀').fill(`${head}-1`);
  await form.getByLabel('产品名称', { exact: true }).fill('挖掘机');
  const date = form.getByLabel('生产日期', { exact: true });
  // The calendar opens under the box; a pointer resting over one of its days would preview that day in the box.
  await page.mouse.move(0, 0);
  await date.fill('2024-02-30');
  await expect(date).toHaveValue('2024-02-30');
  // Leaving the box is what makes the picker hand over what was typed.
  await date.blur();
  await expect(form.getByText(DATE_MESSAGE)).toBeVisible();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form.getByText(DATE_MESSAGE)).toBeVisible();
  await page.mouse.move(0, 0);
  await date.fill('2024-02-29');
  await date.press('Enter');
  await expect(form.getByText(DATE_MESSAGE)).toBeHidden();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('标识已创建')).toBeVisible();
  await expect(form).toBeHidden();

  // 3. Two more by import (新增), with colours.
  await page.getByRole('button', { name: /批量导入/ }).click();
  const importer = page.getByRole('dialog', { name: '批量导入标识' });
  await chooseSelectOption(page, importer, '导入模板', `${prefix} · ${template}（v1）`);
  const csv = (lines: string[]) => ({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  await importer
    .getByLabel('导入文件')
    .setInputFiles(csv(['标识后缀,产品名称,生产日期,颜色', `${head}-2,装载机,2025-04-01,红色`, `${head}-3,起重机,2025-05-02,黄色`]));
  await importer.getByRole('button', { name: /开始导入/ }).click();
  const summary = importer.getByRole('region', { name: '导入结果' });
  await expect(summary.getByText('全部 2 行已导入')).toBeVisible();
  await importer.getByRole('button', { name: /完\s*成/ }).click();

  // 4. Version 2 retires 颜色.
  await page.goto('/console/identifier/template');
  const templateRow = page.getByRole('region', { name: '元数据模板' }).getByRole('row').filter({ hasText: template });
  await templateRow.getByRole('button', { name: /编\s*辑/ }).click();
  const edit = page.getByRole('dialog', { name: new RegExp(`^编辑模板「${template}」`) });
  await edit.getByRole('switch', { name: '第 3 项 在用' }).click();
  await edit.getByRole('button', { name: /保存为新版本/ }).click();
  await expect(page.getByText('模板已保存为版本 2')).toBeVisible();
  await expect(edit).toBeHidden();

  // 5. 更新 import: an unknown handle is listed and nothing is written; the corrected file updates.
  await page.goto('/console/identifier/record');
  await page.getByRole('button', { name: /批量导入/ }).click();
  await chooseSelectOption(page, importer, '导入模板', `${prefix} · ${template}（v2）`);
  await importer.getByRole('radio', { name: '更新已有标识' }).check();
  await expect(importer.getByRole('checkbox', { name: '同时迁移到最新版本（v2）' })).toBeVisible();
  if (width < 768) await noSidewaysScroll(page, width);
  await importer.getByLabel('导入文件').setInputFiles(csv(['标识,产品名称', `${handle(2)},轮式装载机`, `${prefix}/${head}-404,不存在`]));
  await importer.getByRole('button', { name: /开始导入/ }).click();
  await expect(
    summary
      .getByRole('row')
      .filter({ hasText: `标识 ${prefix}/${head}-404 不存在` })
      .getByRole('cell')
      .first(),
  ).toHaveText('3');
  await expect(summary.getByText('1 行有误，未写入任何标识，原因见下表。修改后重新导入整个文件。')).toBeVisible();
  await importer.getByRole('button', { name: /继续导入/ }).click();
  await importer.getByLabel('导入文件').setInputFiles(csv(['标识,产品名称', `${handle(2)},轮式装载机`]));
  await importer.getByRole('button', { name: /开始导入/ }).click();
  await expect(summary.getByText('已更新 1 个标识')).toBeVisible();
  await importer.getByRole('button', { name: /完\s*成/ }).click();

  // 6. 批量迁移: the preview lists the colours that go, then every record moves to v2.
  await page.goto('/console/identifier/template');
  await templateRow.getByRole('button', { name: /批量迁移/ }).click();
  const migration = page.getByRole('dialog', { name: `批量迁移「${template}」的标识到 v2` });
  const preview = migration.getByRole('region', { name: '迁移预览' });
  await expect(preview.getByRole('list', { name: '迁移统计' }).getByRole('listitem')).toHaveText([
    /迁移标识\s*3/,
    /丢失数据\s*2/,
    /不符合新规则\s*0/,
  ]);
  await expect(preview.getByRole('row').filter({ hasText: handle(3) })).toContainText('颜色：黄色');
  await expect(preview.getByText('3 个标识将迁移到 v2，其中 2 个将丢失已停用或删除的数据项的值：颜色（2 个标识）')).toBeVisible();
  if (width < 768) await noSidewaysScroll(page, width);
  await migration.getByRole('button', { name: /确认迁移/ }).click();
  await expect(page.getByText('已将 3 个标识迁移到 v2')).toBeVisible();
  await expect(migration).toBeHidden();

  // 7. The records are at v2; the colour is gone from the public lookup.
  await page.goto('/console/identifier/record');
  await page.getByPlaceholder('按标识或后缀开头搜索').fill(head);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const rows = page
    .getByRole('region', { name: '标识记录' })
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) await expect(row.getByText('v2', { exact: true })).toBeVisible();
  const answer = await page.request.get(`/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle(3))}`);
  const [entry] = ((await answer.json()) as { data: { template: { version: number }; identity: { value: { type: string }[] } }[] }).data;
  expect(entry?.template.version).toBe(2);
  expect(entry?.identity.value.map((v) => v.type)).toEqual(['productName', 'productionDate']);
}

test.describe('标识 bulk upkeep', () => {
  test('a date item, an impossible date refused, 更新 import and 批量迁移 after its preview', async ({ identifierTenant, page }) => {
    await bulkUpkeep(page, 1440, identifierTenant);
  });

  test('the same upkeep on a phone, without sideways scrolling @mobile', async ({ identifierTenant, page }) => {
    await bulkUpkeep(page, 375, identifierTenant);
  });
});
