import fs from 'node:fs';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { IdentifierStats, IdentifierTemplate } from '@portal/shared';
import { type Api, apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { type Tenant, expect, test, uniquePrefix } from './fixtures.js';

const IDENTITY_QUERY = '/web-api/portal/v1/identity/query';

/**
 * A prefix of its own for each run and project (they share one server), so the figures shown are
 * exactly this test's lookups.
 */

interface Fixture {
  prefix: string;
  /** Two registered identifiers and the 产品型号 of each. */
  first: { handle: string; model: string };
  second: { handle: string; model: string };
  /** Whether the template counts 产品型号 (计入统计) on this server. */
  valuesCounted: boolean;
  admin: Page;
  adminApi: Api;
}

/**
 * The operator assigns a new prefix to this file's certified enterprise (the tenant fixture); its
 * administrator makes a template whose 产品型号 is counted in statistics and registers two identifiers under it.
 */
async function setUp(browser: Browser, baseURL: string | undefined, tenant: Tenant): Promise<Fixture> {
  const prefix = uniquePrefix();
  const operator = await (await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
  await openConsole(operator, 'operator');
  const operatorApi = await apiAs(operator);
  const enterprise = (await operatorApi.get<{ id: number; name: string }>('/web-api/identity/v1/enterprise/list')).find(
    (e) => e.id === tenant.id,
  );
  if (!enterprise) throw new Error(`no enterprise ${tenant.name}`);
  await operatorApi.post('/web-api/identity/v1/prefix', { prefix, name: '统计测试前缀', enterpriseId: enterprise.id });
  await operator.context().close();

  const admin = await (await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
  await openConsole(admin, tenant.admin);
  const adminApi = await apiAs(admin);
  const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
  const [template] = await adminApi.post<IdentifierTemplate>('/web-api/identity/v1/template', {
    prefix,
    name: '统计测试整机',
    items: [
      { name: '产品名称', idType: 'productName', required: true, metadata: text(64) },
      { name: '产品型号', idType: 'productModel', required: true, metadata: text(32), analytics: true },
    ],
  });
  if (!template) throw new Error('no template');
  const first = { handle: `${prefix}/EX-0001`, model: 'HY-E215' };
  const second = { handle: `${prefix}/EX-0002`, model: 'HY-E60' };
  for (const record of [first, second]) {
    await adminApi.post('/web-api/identity/v1/record', {
      prefix,
      suffix: record.handle.slice(prefix.length + 1),
      templateId: template.id,
      values: { productName: '履带式液压挖掘机', productModel: record.model },
    });
  }
  const valuesCounted = template.items.some((item) => item.idType === 'productModel' && item.analytics === true);
  return { prefix, first, second, valuesCounted, admin, adminApi };
}

/** A visitor's lookup through the portal's identity query (`src=qr`: opened from a label's QR code). */
async function identityQuery(request: APIRequestContext, handle: string, scanned = false) {
  const params = new URLSearchParams({ handle, ...(scanned ? { src: 'qr' } : {}) });
  return request.get(`${IDENTITY_QUERY}?${params}`);
}

/** Waits until the counter has written `lookups` lookups of the prefix (flushed every second in these tests). */
async function flushed(api: Api, prefix: string, lookups: number) {
  await expect
    .poll(async () => (await api.get<IdentifierStats>(`/web-api/identity/v1/stats?days=7&prefix=${prefix}`))[0]?.totals.lookups, {
      timeout: 15_000,
    })
    .toBe(lookups);
}

const panel = (page: Page, name: string) => page.getByRole('region', { name });
const tile = (page: Page, label: string) =>
  page.getByRole('list', { name: '统计概览' }).getByRole('listitem', { name: label, exact: true });
/** Rows of a panel's table, each as its cells' texts. */
async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const rows = panel(page, name)
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  return Promise.all((await rows.all()).map((row) => row.getByRole('cell').allTextContents()));
}

async function choosePrefix(page: Page, prefix: string) {
  await page.getByRole('combobox', { name: '标识前缀' }).click();
  await page.getByTitle(prefix, { exact: true }).last().click();
  await expect(page).toHaveURL((url) => url.searchParams.get('prefix') === prefix);
}

test.describe('标识统计', () => {
  test('after a series of lookups the owner sees them by channel, region and outcome, exports them, and an operator sees 运营统计', async ({
    certifiedTenant,
    browser,
    baseURL,
    request,
  }) => {
    // Three people sign in and a visitor opens /mark.
    test.slow();
    const { prefix, first, second, valuesCounted, admin, adminApi } = await setUp(browser, baseURL, certifiedTenant);
    const missing = `${prefix}/EX-9999`;
    const malformed = `${prefix}/`;

    // Lookups through the public API: scans, typed lookups, the Handle API, an unknown and a malformed identifier.
    for (let i = 0; i < 3; i++) expect((await identityQuery(request, first.handle, true)).ok()).toBe(true);
    expect((await identityQuery(request, first.handle)).ok()).toBe(true);
    for (let i = 0; i < 2; i++) expect((await request.get(`/api/handles/${second.handle}`)).ok()).toBe(true);
    for (let i = 0; i < 2; i++) expect((await (await identityQuery(request, missing)).json()).data).toEqual([]);
    expect((await request.get(`/api/handles/${missing}`)).status()).toBe(404);
    expect((await identityQuery(request, malformed)).status()).toBe(400);

    // A label's QR code opens /mark: the server renders the record (its own lookup is not counted), the
    // browser then asks as a scan; a search typed on that page afterwards is not one.
    const scanUrl = `/mark?keyword=${encodeURIComponent(second.handle)}&src=qr`;
    expect(await (await request.get(scanUrl, { headers: { accept: 'text/html' } })).text()).toContain(second.model);
    const visitor = await (await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
    const lookupOf = (handle: string) => (r: { url(): string }) => {
      const url = new URL(r.url());
      return url.pathname === IDENTITY_QUERY && url.searchParams.get('handle') === handle;
    };
    const scan = visitor.waitForRequest(lookupOf(second.handle));
    await visitor.goto(scanUrl);
    expect(new URL((await scan).url()).searchParams.get('src')).toBe('qr');
    const result = visitor.getByRole('region', { name: '查询结果' });
    await expect(result.getByRole('heading', { level: 2 })).toHaveText(second.handle);
    await expect(visitor.locator('html[data-app="ready"]')).toBeAttached();
    const typed = visitor.waitForRequest(lookupOf(first.handle));
    await visitor.getByPlaceholder('如 88.118.8/EX-2024-000123').fill(first.handle);
    await visitor.getByPlaceholder('如 88.118.8/EX-2024-000123').press('Enter');
    expect(new URL((await typed).url()).searchParams.has('src')).toBe(false);
    await expect(result.getByRole('heading', { level: 2 })).toHaveText(first.handle);
    await visitor.context().close();

    // first: 3 scans + 1 typed + 1 typed on /mark; second: 2 Handle API + 1 scan on /mark; missing: 2 + 1; malformed: 1.
    await flushed(adminApi, prefix, 12);

    // The enterprise administrator: 标识统计 of the new prefix, chosen in the filter and kept in the URL.
    await admin.goto('/console/identifier/stats');
    await expect(admin.getByRole('heading', { name: '标识统计', level: 4 })).toBeVisible();
    await admin.getByRole('combobox', { name: '标识前缀' }).click();
    // Only the enterprise's own prefixes are offered (tenancy: never 恒岳's 88.118.8 or 瑞驰's 88.118.16).
    await expect(admin.getByTitle(prefix, { exact: true }).last()).toBeAttached();
    await expect(admin.getByTitle('88.118.8', { exact: true })).toHaveCount(0);
    await expect(admin.getByTitle('88.118.16', { exact: true })).toHaveCount(0);
    await admin.keyboard.press('Escape');
    await choosePrefix(admin, prefix);
    await admin.getByRole('radiogroup', { name: '统计范围' }).getByText('近 7 天').click();
    await expect(admin).toHaveURL((url) => url.searchParams.get('days') === '7' && url.searchParams.get('prefix') === prefix);
    await expect(admin.getByText(`前缀 ${prefix} 下标识的查询情况`, { exact: false })).toBeVisible();

    await expect(tile(admin, '查询总量')).toHaveText('查询总量12日均 1.7 次');
    await expect(tile(admin, '找到')).toHaveText('找到8占 66.7%');
    await expect(tile(admin, '扫码查询')).toHaveText('扫码查询4占 33.3%');
    await expect(tile(admin, '未找到')).toHaveText('未找到4未登记 3 · 格式错误 1');
    await expect(tile(admin, '未找到率')).toHaveText('未找到率33.3%含格式错误的查询');
    await expect(panel(admin, '每日查询').getByRole('img', { name: '近 7 天每日按渠道的查询次数堆叠柱状图' })).toBeVisible();
    // Every lookup came from this machine: 内网.
    await expect(panel(admin, '地区分布').getByRole('listitem')).toHaveText(['1内网12100%']);
    await expect
      .poll(() => rowsOf(admin, '热门标识'))
      .toEqual([
        ['1', first.handle, '5占 41.7%'],
        ['2', second.handle, '3占 25%'],
      ]);
    await expect
      .poll(() => rowsOf(admin, '未找到的标识'))
      .toEqual([
        [missing, '未找到', '3'],
        [malformed, '格式错误', '1'],
      ]);
    await expect(panel(admin, '未找到的标识')).toContainText('未找到率 33.3%');
    if (valuesCounted) {
      await expect
        .poll(() => rowsOf(admin, '热门数据项取值'))
        .toEqual([
          ['1', '产品型号', first.model, '5'],
          ['2', '产品型号', second.model, '3'],
        ]);
    } else {
      await expect(panel(admin, '热门数据项取值')).toContainText('勾选“计入统计”');
    }
    await expect(admin.locator('[aria-busy="true"]')).toHaveCount(0);
    await admin.screenshot({ path: test.info().outputPath('identifier-stats-1440.png'), fullPage: true });

    // 每日查询 as CSV: today's lookups by channel.
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      panel(admin, '每日查询')
        .getByRole('button', { name: /导出 CSV/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^标识统计-daily-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toBe('日期,网页查询,扫码,Handle API,上游转发,合计');
    expect(csv).toHaveLength(8);
    expect(csv.at(-1)?.split(',').slice(1)).toEqual(['5', '4', '3', '0', '12']);

    // The operator sees the whole node as 运营统计, this prefix included.
    const operator = await (await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })).newPage();
    await openConsole(operator, 'operator', `/console/identifier/stats?days=7&prefix=${encodeURIComponent(prefix)}`);
    await expect(operator.getByRole('heading', { name: '运营统计', level: 4 })).toBeVisible();
    await expect(tile(operator, '查询总量')).toHaveText('查询总量12日均 1.7 次');
    await expect
      .poll(() => rowsOf(operator, '未找到的标识'))
      .toEqual([
        [missing, '未找到', '3'],
        [malformed, '格式错误', '1'],
      ]);
    await operator.getByRole('combobox', { name: '标识前缀' }).click();
    await expect(operator.getByTitle('88.118.16', { exact: true }).last()).toBeAttached();
    await operator.keyboard.press('Escape');
    await operator.context().close();
    await admin.context().close();
  });

  test('标识统计 fits a phone: figures, ranking and tables within the screen @mobile', async ({
    certifiedTenant,
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const { prefix, first, admin, adminApi } = await setUp(browser, baseURL, certifiedTenant);
    await admin.setViewportSize({ width: 375, height: 812 });
    const missing = `${prefix}/SOME-VERY-LONG-SUFFIX-THAT-SOMEONE-MISTYPED-0001`;
    for (let i = 0; i < 2; i++) await identityQuery(request, first.handle, true);
    await identityQuery(request, missing);
    await flushed(adminApi, prefix, 3);

    await admin.goto(`/console/identifier/stats?prefix=${encodeURIComponent(prefix)}`);
    await expect(tile(admin, '查询总量')).toHaveText('查询总量3日均 0.1 次');
    await expect(tile(admin, '扫码查询')).toHaveText('扫码查询2占 66.7%');
    await expect.poll(() => rowsOf(admin, '热门标识')).toEqual([['1', first.handle, '2占 66.7%']]);
    // On a phone the result sits under the handle.
    await expect.poll(() => rowsOf(admin, '未找到的标识')).toEqual([[`${missing}未找到`, '1']]);
    await expect(admin.locator('[aria-busy="true"]')).toHaveCount(0);
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const name of ['每日查询', '地区分布', '热门标识', '热门数据项取值', '未找到的标识']) {
      const box = await panel(admin, name).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, name).toBe(true);
    }
    await admin.screenshot({ path: test.info().outputPath('identifier-stats-375.png'), fullPage: true });
    await admin.context().close();
  });
});
