import type { Browser, Page } from '@playwright/test';
import type { MyAppSubscription, RecommendItem } from '@portal/shared';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * 应用订阅: an enterprise subscribes to an application of the application center (申请使用), an
 * operator decides in 应用订阅, and the application becomes a platform application in the
 * enterprise's 应用列表. The journey that applies works in this file's own certified enterprise; the
 * phone checks only look at 恒岳 (admin), which has one approved (智能运维) and one pending (能耗分析).
 */

/**
 * A published application on single sign-on that the signed-in user's enterprise never applied for.
 * Chosen from the data, not named: each run of the journey leaves a revoked subscription behind.
 */
async function unsubscribedApplication(page: Page): Promise<RecommendItem> {
  const api = await apiAs(page);
  for (const app of await api.get<RecommendItem>('/open-api/app/v1/list')) {
    const [mine] = await api.get<MyAppSubscription>(`/web-api/portal/v1/applications/${app.applicationUuid}/subscription`);
    if (mine?.status === 'none' && mine.canApply) return app;
  }
  throw new Error('every demo application has a subscription of this enterprise already');
}

const detailPath = (app: RecommendItem) => `/product/center/detail?uuid=${app.applicationUuid}`;
const panelOf = (page: Page) => page.getByRole('region', { name: '申请使用' });
/** No table is loading (antd marks a spinning table aria-busy): a screenshot shows the settled page. */
const settled = (page: Page) => expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function operatorPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1440, height: 900 },
  });
  const page = await context.newPage();
  await openConsole(page, 'operator', '/console/app/subscription');
  return page;
}

test.describe('申请使用 and 应用订阅', () => {
  test('an administrator applies to use an application, the operator approves, it is a read-only platform application in 应用列表, and the operator revokes it with a reason', async ({
    certifiedTenant,
    page,
    browser,
    baseURL,
  }) => {
    const { admin, name: enterprise } = certifiedTenant;
    const n = uniqueTag();
    const purpose = `液压泵装配车间 ${n}：设备点检与故障工单统一登录，约 40 人使用。`;
    const reason = `合同到期未续签（${n}）`;

    await openConsole(page, admin, '/console/app/list');
    const app = await unsubscribedApplication(page);
    await page.goto(detailPath(app));
    await expect(page.getByRole('heading', { level: 1, name: app.name })).toBeVisible();
    const panel = panelOf(page);
    await expect(panel.getByRole('button', { name: '申请使用' })).toBeEnabled();
    await page.screenshot({ path: test.info().outputPath('product-detail-apply-1440.png'), fullPage: true });

    await panel.getByRole('button', { name: '申请使用' }).click();
    const dialog = page.getByRole('dialog', { name: `申请使用「${app.name}」` });
    await dialog.getByLabel('申请说明').fill(purpose);
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByRole('button', { name: /待审核/ })).toBeDisabled();
    // The request stays pending through a reload.
    await page.reload();
    await expect(panelOf(page).getByRole('button', { name: /待审核/ })).toBeDisabled();

    // The operator finds it in the queue (待审核 by default) and approves it.
    const operator = await operatorPage(browser, baseURL);
    const request = operator.getByRole('row').filter({ hasText: enterprise }).filter({ hasText: app.name });
    await expect(request).toContainText(purpose);
    await expect(request).toContainText(`${admin.name}（${admin.username}）`);
    await expect(request).toContainText('待审核');
    await settled(operator);
    await operator.screenshot({ path: test.info().outputPath('app-subscription-1440.png'), fullPage: true });
    await request.getByRole('button', { name: '通过' }).click();
    const approve = operator.getByRole('dialog', { name: '通过申请' });
    await approve.getByRole('button', { name: /通\s*过/ }).click();
    await expect(approve).toBeHidden();
    await expect(request).toHaveCount(0);

    // The administrator's detail says 已订阅 and leads to 应用授权.
    await page.reload();
    await expect(panelOf(page)).toContainText('已订阅');
    await expect(panelOf(page).getByRole('link', { name: '前往应用授权' })).toBeVisible();

    // 应用列表: a platform application, authorized like any other, neither editable nor deletable.
    await page.goto('/console/app/list', { waitUntil: 'commit' });
    const row = page.getByRole('row').filter({ hasText: app.name });
    await expect(row).toContainText('平台应用');
    await expect(row).toContainText(app.provider);
    await expect(row.getByRole('button', { name: '授权' })).toBeVisible();
    await expect(row.getByRole('button', { name: '集成配置' })).toBeVisible();
    await expect(row.getByRole('button', { name: '编辑' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: '删除' })).toHaveCount(0);
    await settled(page);
    await page.screenshot({ path: test.info().outputPath('app-list-platform-1440.png'), fullPage: true });

    // The operator revokes it with a reason: the detail shows it, and the application leaves 应用列表.
    await operator.getByRole('combobox', { name: '状态' }).click();
    await operator.getByTitle('已订阅', { exact: true }).last().click();
    await operator.getByRole('textbox', { name: '企业或应用名称' }).fill(app.name);
    await operator.getByRole('button', { name: /查\s*询/ }).click();
    const subscription = operator.getByRole('row').filter({ hasText: enterprise }).filter({ hasText: app.name });
    await expect(subscription).toContainText('已订阅');
    await subscription.getByRole('button', { name: '撤销' }).click();
    const revoke = operator.getByRole('dialog', { name: '撤销订阅' });
    await revoke.getByLabel('撤销原因').fill(reason);
    await revoke.getByRole('button', { name: /撤\s*销/ }).click();
    await expect(revoke).toBeHidden();
    await expect(subscription).toHaveCount(0);
    await operator.context().close();

    await page.goto(detailPath(app));
    await expect(panelOf(page)).toContainText('已撤销');
    await expect(panelOf(page)).toContainText(`原因：${reason}`);
    await expect(panelOf(page).getByRole('button', { name: '重新申请' })).toBeEnabled();
    await page.goto('/console/app/list', { waitUntil: 'commit' });
    await expect(page.getByRole('button', { name: /新增应用/ })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: app.name })).toHaveCount(0);
  });

  test('申请使用 and 应用列表 with a platform row fit a phone @mobile', async ({ page }) => {
    // 恒岳's administrator: read only here, so the desktop journey's enterprise is never touched.
    await openConsole(page, 'admin', '/console/app/list');
    const platform = page.getByRole('row').filter({ hasText: '智能运维' });
    await expect(platform).toContainText('平台应用');
    await expect(platform.getByRole('button', { name: '编辑' })).toHaveCount(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await settled(page);
    await page.screenshot({ path: test.info().outputPath('app-list-platform-375.png'), fullPage: true });

    const app = await unsubscribedApplication(page);
    await page.goto(detailPath(app));
    await expect(panelOf(page).getByRole('button', { name: '申请使用' })).toBeEnabled();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('product-detail-apply-375.png'), fullPage: true });
  });

  test('应用订阅 fits a phone @mobile', async ({ page }) => {
    await openConsole(page, 'operator', '/console/app/subscription');
    // 恒岳's demo request for 能耗分析 waits in the queue.
    await expect(page.getByRole('row').filter({ hasText: '能耗分析' })).toContainText('徐州恒岳重工机械有限公司');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await settled(page);
    await page.screenshot({ path: test.info().outputPath('app-subscription-375.png'), fullPage: true });
  });
});
