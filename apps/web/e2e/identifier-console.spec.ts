import type { Browser, Locator, Page } from '@playwright/test';
import type { IdentifierTemplate } from '@portal/shared';
import { MACHINERY_TEMPLATE } from '../../server/src/seed/identifiers-data.js';
import { apiAs } from './api-helpers.js';
import { type Person, chooseSelectOption, openConsole, sidebarMenu } from './console-helpers.js';
import { type Tenant, addColleague, expect, freshContext, test, uniqueTag } from './fixtures.js';

/** A suffix no other test has used (tests of this file may share their enterprise). */
const unique = (head: string) => `${head}-${uniqueTag().toUpperCase()}`;

/**
 * This file's enterprise (the tenant fixture: certified, a prefix of its own) set up once per worker
 * as 恒岳 is seeded: the template 工程机械整机, one excavator registered under it, and a staff member.
 */
const setUps = new Map<number, Promise<{ staff: Person }>>();
function setUp(browser: Browser, tenant: Tenant & { prefix: string }): Promise<{ staff: Person }> {
  let done = setUps.get(tenant.id);
  if (!done) {
    // The template, a record and a colleague first: this test gets the slow tests' time.
    test.slow();
    done = (async () => {
      const context = await freshContext(browser);
      try {
        const page = await context.newPage();
        await openConsole(page, tenant.admin);
        const api = await apiAs(page);
        const [template] = await api.post<IdentifierTemplate>('/web-api/identity/v1/template', {
          prefix: tenant.prefix,
          ...MACHINERY_TEMPLATE,
        });
        const values = { productName: '中型履带式液压挖掘机', productModel: 'HY-E215', serialNumber: 'HYE2152400123' };
        await api.post('/web-api/identity/v1/record', {
          prefix: tenant.prefix,
          suffix: 'EX-2024-000123',
          templateId: template?.id,
          values: {
            ...values,
            productionDate: '2024-05-20',
            manufacturer: tenant.name,
            warrantyPeriod: '24 个月',
            serviceHotline: '400-820-8888',
          },
        });
      } finally {
        await context.close();
      }
      return { staff: await addColleague(browser, tenant, '李娜', ['普通员工'], { markSlow: false }) };
    })();
    setUps.set(tenant.id, done);
  }
  return done;
}

/** The required items of the template 工程机械整机 (as the demo 88.118.8 has it). */
const MACHINE = {
  产品名称: '电动小型挖掘机',
  产品型号: 'HY-E20E',
  出厂编号: 'HYE20E2600001',
  生产日期: '2026-03-18',
  生产厂家: '徐州恒岳重工机械有限公司',
  质保期: '24 个月',
  售后电话: '400-820-8888',
};

const recordsTable = (page: Page) => page.getByRole('region', { name: '标识记录' }).getByRole('table');
/** The table's data rows (the header row has column headers, not cells). */
const recordRows = (page: Page) =>
  recordsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
const rowOf = (page: Page, handle: string) => recordRows(page).filter({ hasText: handle });

async function fillItems(form: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
}

test.describe('标识管理 in the console', () => {
  test('staff registers an identifier under the enterprise’s prefix and a visitor finds it with its values on /mark', async ({
    identifierTenant,
    page,
    browser,
    baseURL,
  }) => {
    const { prefix } = identifierTenant;
    const { staff } = await setUp(browser, identifierTenant);
    const suffix = unique('E2E');
    const handle = `${prefix}/${suffix}`;
    await openConsole(page, staff, '/console/identifier/record');
    await expect(page).toHaveURL(/\/console\/identifier\/record$/);
    await page.getByRole('button', { name: /新建标识/ }).click();
    const form = page.getByRole('dialog', { name: '新建标识' });
    await expect(form.getByText(`${prefix}/`, { exact: true })).toBeVisible();

    // The client checks the template's rules before sending.
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(form.getByText('“产品名称”为必填项')).toBeVisible();
    await expect(form.getByText('标识后缀不能为空')).toBeVisible();
    // 生产日期 is a date item: a date not written YYYY-MM-DD is refused with the server's words.
    await form.getByLabel('生产日期', { exact: true }).fill('2026-3-18');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(form.getByText('“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01')).toBeVisible();

    await form.getByLabel('标识后缀').fill(suffix);
    await fillItems(form, MACHINE);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('标识已创建')).toBeVisible();
    await expect(form).toBeHidden();
    const row = rowOf(page, handle);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('电动小型挖掘机 · HY-E20E');

    // The row's lookup opens the public page in a new window.
    const [popup] = await Promise.all([page.waitForEvent('popup'), row.getByRole('link', { name: `在标识查询中查看 ${handle}` }).click()]);
    await expect(popup).toHaveURL(`${baseURL}/mark?keyword=${encodeURIComponent(handle)}`);
    await popup.close();

    // A visitor (no session) finds it with the values.
    const visitor = await browser.newContext({ baseURL });
    const lookup = await visitor.newPage();
    await lookup.goto(`/mark?keyword=${encodeURIComponent(handle)}`);
    const result = lookup.getByRole('region', { name: '查询结果' });
    await expect(result.getByRole('heading', { level: 2 })).toHaveText(handle);
    const labels = await result.getByRole('term').allTextContents();
    const values = await result.getByRole('definition').allTextContents();
    const shown = Object.fromEntries(labels.map((label, i) => [label, values[i]]));
    expect(shown).toMatchObject(MACHINE);
    await visitor.close();
  });

  test('a CSV import with one bad row reports its line number and writes nothing; the corrected file is written whole', async ({
    identifierTenant,
    page,
    browser,
  }) => {
    const { prefix } = identifierTenant;
    await setUp(browser, identifierTenant);
    const head = unique('CSV');
    // Importing takes identifier:record:manage: the administrator's, not the staff's.
    await openConsole(page, identifierTenant.admin, '/console/identifier/record');
    await page.getByRole('button', { name: /批量导入/ }).click();
    const dialog = page.getByRole('dialog', { name: '批量导入标识' });
    // The template is chosen, not assumed.
    await chooseSelectOption(page, dialog, '导入模板', `${prefix} · 工程机械整机（v1）`);
    const rows = (date: string) =>
      [
        '标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,质保期,售后电话',
        `${head}-1,轮式装载机,HY-L30,HYL30260001,2026-01-05,徐州恒岳重工机械有限公司,12 个月,400-820-8888`,
        `${head}-2,轮式装载机,HY-L30,HYL30260002,${date},徐州恒岳重工机械有限公司,12 个月,400-820-8888`,
        `${head}-3,轮式装载机,HY-L50,HYL50260003,2026-01-07,徐州恒岳重工机械有限公司,12 个月,400-820-8888`,
      ].join('\r\n');
    await dialog.getByLabel('导入文件').setInputFiles({ name: 'loaders.csv', mimeType: 'text/csv', buffer: Buffer.from(rows('2026-1-5')) });
    await dialog.getByRole('button', { name: /开始导入/ }).click();

    const summary = dialog.getByRole('region', { name: '导入结果' });
    await expect(summary.getByRole('list', { name: '导入统计' }).getByRole('listitem')).toHaveText([
      /数据行\s*3/,
      /成功导入\s*0/,
      /失败\s*1/,
    ]);
    const bad = summary.getByRole('row').filter({ hasText: '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01' });
    await expect(bad.getByRole('cell').first()).toHaveText('3');
    await expect(summary.getByText('1 行有误，未写入任何标识，原因见下表。修改后重新导入整个文件。')).toBeVisible();

    await dialog.getByRole('button', { name: /继续导入/ }).click();
    await dialog
      .getByLabel('导入文件')
      .setInputFiles({ name: 'loaders.csv', mimeType: 'text/csv', buffer: Buffer.from(rows('2026-01-06')) });
    await dialog.getByRole('button', { name: /开始导入/ }).click();
    await expect(summary.getByText('全部 3 行已导入')).toBeVisible();
    await dialog.getByRole('button', { name: /完\s*成/ }).click();

    await page.getByPlaceholder('按标识或后缀开头搜索').fill(head);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect(recordRows(page)).toHaveCount(3);
    await expect(rowOf(page, `${prefix}/${head}-2`)).toHaveCount(1);
  });

  test('staff does not see 前缀与模板 and its address goes to /403', async ({ identifierTenant, page, browser }) => {
    const { staff } = await setUp(browser, identifierTenant);
    await openConsole(page, staff);
    await sidebarMenu(page).getByText('标识管理').click();
    await expect(sidebarMenu(page)).toContainText('标识记录');
    await expect(sidebarMenu(page)).not.toContainText('前缀与模板');
    await page.goto('/console/identifier/template');
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByText('当前账号无权限')).toBeVisible();
  });
});

test.describe('标识管理 on a phone', () => {
  test('the record page lists identifiers and the create form fits the screen @mobile', async ({ identifierTenant, page, browser }) => {
    const { staff } = await setUp(browser, identifierTenant);
    await openConsole(page, staff, '/console/identifier/record');
    await expect(recordRows(page).first()).toBeVisible();
    // No sideways scrolling of the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: /新建标识/ }).click();
    const form = page.getByRole('dialog', { name: '新建标识' });
    await expect(form.getByLabel('产品名称', { exact: true })).toBeVisible();
    // The drawer slides in: measure once it has arrived.
    await expect.poll(async () => (await form.boundingBox())?.x).toBe(0);
    expect((await form.boundingBox())?.width).toBeLessThanOrEqual(375);
    for (const field of [
      form.getByLabel('标识后缀'),
      form.getByLabel('产品名称', { exact: true }),
      form.getByRole('button', { name: /保\s*存/ }),
    ]) {
      const b = await field.boundingBox();
      expect(b && b.x >= 0 && b.x + b.width <= 375, await field.evaluate((el) => el.outerHTML.slice(0, 80))).toBe(true);
    }
    // Nothing inside the drawer scrolls sideways.
    const sideways = await form.evaluate(
      (dialog) =>
        [...dialog.querySelectorAll('*')].filter(
          (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth,
        ).length,
    );
    expect(sideways).toBe(0);
  });
});
