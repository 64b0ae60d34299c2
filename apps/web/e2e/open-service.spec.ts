import type { Page } from '@playwright/test';
import type { OpenServiceToolAdmin, OpenServiceToolBody } from '@portal/shared';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, test } from './fixtures.js';

/**
 * 开放服务: the open-service centre (spec section 9: tools of fixed ids 01–06, `?toolId=` details),
 * its API reference, and the operators' 开放服务 page the centre follows.
 */

const TOOLS: [id: string, title: string][] = [
  ['01', '移动开发平台及 SDK'],
  ['02', '可视化编辑器'],
  ['03', '统一身份认证集成'],
  ['04', '物联网平台'],
  ['05', '微服务集群'],
  ['06', '工业机理模型'],
];

const cards = (page: Page) => page.getByRole('list', { name: '开发者工具' }).getByRole('link');
const notice = (page: Page, id: string) => page.getByRole('alert').filter({ hasText: `未找到编号为「${id}」的工具` });
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('开放服务中心', () => {
  test('every tool card opens its detail, which leads back to the centre', async ({ page }) => {
    await page.goto('/open-service');
    await expect(page.getByRole('heading', { level: 1, name: '开放服务中心' })).toBeVisible();
    await expect(cards(page)).toHaveCount(TOOLS.length);
    for (const [id, title] of TOOLS) {
      const card = cards(page).filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });
      await expect(card).toHaveAttribute('href', `/open-service?toolId=${id}`);
      // The number is a watermark only: the link reads as its title and summary.
      await expect(card).toHaveAccessibleName(new RegExp(`^${title} `));
      await expect(card).not.toHaveAccessibleName(new RegExp(`${id}$`));
      await card.click();
      await expect(page).toHaveURL(new RegExp(`/open-service\\?toolId=${id}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const article = page.getByRole('article', { name: title });
      await expect(article).toContainText(`工具编号 ${id}`);
      await expect(article.getByRole('heading', { level: 2 }).first()).toBeVisible();
      await article.getByRole('link', { name: /返回开放服务中心/ }).click();
      await expect(page).toHaveURL(/\/open-service$/);
      await expect(page.getByRole('heading', { level: 1, name: '开放服务中心' })).toBeVisible();
    }
    await page.screenshot({ path: test.info().outputPath('open-service-1440.png'), fullPage: true });
    await page.goto('/open-service?toolId=04');
    await expect(page.getByRole('heading', { level: 1, name: '物联网平台' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('open-service-detail-1440.png'), fullPage: true });
  });

  test('an unknown tool id shows the centre with a notice', async ({ page }) => {
    for (const id of ['99', 'abc']) {
      await page.goto(`/open-service?toolId=${id}`);
      await expect(notice(page, id)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: '开放服务中心' })).toBeVisible();
      await expect(cards(page)).toHaveCount(TOOLS.length);
    }
  });

  test('the API reference lists the public operations, each with a curl call', async ({ page, baseURL }) => {
    await page.goto('/open-service');
    await page.getByRole('link', { name: 'API 参考' }).first().click();
    await expect(page).toHaveURL(/\/open-service\/api$/);
    await expect(page.getByRole('heading', { level: 1, name: 'API 参考' })).toBeVisible();
    for (const group of ['资讯内容', '标识查询', 'Handle API', '统一身份认证（CAS 3.0）']) {
      await expect(page.getByRole('heading', { level: 2, name: group })).toBeVisible();
    }
    const operations = page.getByRole('article');
    const count = await operations.count();
    expect(count).toBeGreaterThanOrEqual(8);
    // Every operation has its curl call, against this portal.
    const curls = page.getByRole('figure', { name: /^curl / });
    await expect(curls).toHaveCount(count);
    for (const path of ['/api/handles/{handle}', '/cas/p3/serviceValidate', '/web-api/portal/v1/identity/query']) {
      const operation = operations.filter({ has: page.getByRole('code').filter({ hasText: new RegExp(`^${escape(path)}$`) }) });
      await expect(operation).toHaveCount(1);
      await expect(operation.getByRole('figure', { name: /^curl / })).toContainText(`curl -`);
      await expect(operation.getByRole('figure', { name: /^curl / })).toContainText(`${baseURL}${path.split('{')[0]}`);
    }
    await page.screenshot({ path: test.info().outputPath('api-reference-1440.png'), fullPage: true });
  });

  // The six tools are the platform's fixed rows (no test can make its own): renaming and taking one
  // offline runs alone, after every other journey (the `shared-content` project of playwright.config.ts).
  test(
    'an operator renames a tool and takes it offline; the public centre follows, and it comes back',
    { tag: '@shared-content' },
    async ({ page }) => {
      const [id, title] = TOOLS[5]!;
      const renamed = `${title}库`;
      await openConsole(page, 'operator', '/console/content/open-service');
      const api = await toolsApi(page);
      const original = await api.tool(id);
      try {
        const row = page.getByRole('row').filter({ hasText: title });
        await row.getByRole('button', { name: '编辑' }).click();
        const drawer = page.getByRole('dialog', { name: `编辑工具 ${id}「${title}」` });
        await drawer.getByLabel('工具名称').fill(renamed);
        await drawer.getByRole('button', { name: /保\s*存/ }).click();
        await expect(drawer).toBeHidden();
        const renamedRow = page.getByRole('row').filter({ hasText: renamed });
        await expect(renamedRow).toBeVisible();

        const visitor = await page.context().newPage();
        await shows(visitor, '/open-service', () => expect(cards(visitor).filter({ hasText: renamed })).toBeVisible({ timeout: 1_000 }));
        await shows(visitor, `/open-service?toolId=${id}`, () =>
          expect(visitor.getByRole('heading', { level: 1, name: renamed })).toBeVisible({ timeout: 1_000 }),
        );

        // 下线: the card goes, the shared link shows the centre with the notice.
        await renamedRow.getByRole('button', { name: '下线' }).click();
        const confirm = page.getByRole('dialog', { name: '下线工具' });
        await confirm.getByRole('button', { name: /下\s*线/ }).click();
        await expect(confirm).toBeHidden();
        await expect(renamedRow.getByRole('button', { name: '上线' })).toBeVisible();
        await shows(visitor, '/open-service', () => expect(cards(visitor)).toHaveCount(TOOLS.length - 1, { timeout: 1_000 }));
        await expect(cards(visitor).filter({ hasText: renamed })).toHaveCount(0);
        await shows(visitor, `/open-service?toolId=${id}`, () => expect(notice(visitor, id)).toBeVisible({ timeout: 1_000 }));
        await expect(visitor.getByRole('heading', { level: 1, name: renamed })).toHaveCount(0);
        await expect(cards(visitor)).toHaveCount(TOOLS.length - 1);

        // Back as it was: online under its own title.
        await renamedRow.getByRole('button', { name: '上线' }).click();
        const online = page.getByRole('dialog', { name: '上线工具' });
        await online.getByRole('button', { name: /上\s*线/ }).click();
        await expect(online).toBeHidden();
        await expect(renamedRow.getByRole('button', { name: '下线' })).toBeVisible();
        await renamedRow.getByRole('button', { name: '编辑' }).click();
        const again = page.getByRole('dialog', { name: `编辑工具 ${id}「${renamed}」` });
        await again.getByLabel('工具名称').fill(title);
        await again.getByRole('button', { name: /保\s*存/ }).click();
        await expect(again).toBeHidden();
        await shows(visitor, `/open-service?toolId=${id}`, () =>
          expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible({ timeout: 1_000 }),
        );
        await shows(visitor, '/open-service', () => expect(cards(visitor)).toHaveCount(TOOLS.length, { timeout: 1_000 }));
        await visitor.close();
      } finally {
        // Whatever happened above, the centre other tests see is the one they expect.
        await api.restore(original);
      }
    },
  );

  test('the centre, a detail and the API reference fit a phone @mobile', async ({ page }) => {
    await page.goto('/open-service');
    // Not a count: the desktop project may have a tool offline meanwhile (the operator's test above).
    await expect(cards(page).first()).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('open-service-375.png'), fullPage: true });

    await cards(page).filter({ hasText: '统一身份认证集成' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '统一身份认证集成' })).toBeVisible();
    await expect(page.getByRole('link', { name: '以企业管理员身份登录' })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('open-service-detail-375.png'), fullPage: true });

    await page.goto('/open-service/api');
    await expect(page.getByRole('heading', { level: 2, name: '统一身份认证（CAS 3.0）' })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('api-reference-375.png'), fullPage: true });
  });
});

/**
 * Opens `url` until `check` passes: the server renders public pages and shares a render for a few
 * seconds (plugins/page-renderer.ts), so a write shows there within that time, not at once.
 */
async function shows(page: Page, url: string, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout: 20_000 });
}

/** A RegExp source matching `text` literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The operator's console API on `page`: reads a tool before the test changes it and puts it back
 * afterwards, whatever happened.
 */
async function toolsApi(page: Page) {
  const api = await apiAs(page);
  const list = () => api.get<OpenServiceToolAdmin>('/web-api/console/v1/open-service/tool/list');
  return {
    async tool(id: string): Promise<OpenServiceToolAdmin> {
      const tool = (await list()).find((t) => t.id === id);
      if (!tool) throw new Error(`tool ${id} not listed`);
      return tool;
    },
    async restore(original: OpenServiceToolAdmin): Promise<void> {
      const now = (await list()).find((t) => t.id === original.id);
      if (now && now.title === original.title && now.status === original.status) return;
      const { title, summary, body, icon, sort, status } = original;
      await api.put(`/web-api/console/v1/open-service/tool/${original.id}`, {
        title,
        summary,
        body,
        icon,
        sort,
        status,
      } satisfies OpenServiceToolBody);
    },
  };
}
