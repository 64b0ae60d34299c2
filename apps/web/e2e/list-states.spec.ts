import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

const LIST_CALL = '**/open-api/cms/v1/article/published/page/list**';
const cards = (page: Page) => page.getByRole('list', { name: '文章' }).getByRole('link');
const pager = (page: Page) => page.getByRole('navigation', { name: '分页' });
const search = (page: Page) => page.getByPlaceholder('支持资讯标题快速过滤');
const empty = (page: Page) => page.getByText('暂无数据', { exact: true }).filter({ visible: true });
const failure = (page: Page) => page.getByRole('alert', { name: '加载失败' });
const sort = (page: Page) => page.getByRole('combobox', { name: '排序方式' });
/** The order the sort box shows. */
const sortShown = (page: Page) => sort(page).locator('option:checked');

/** Waits for the next published-list call and returns its query parameters. */
function nextListCall(page: Page) {
  return page
    .waitForRequest((r) => r.url().includes('/open-api/cms/v1/article/published/page/list'))
    .then((r) => Object.fromEntries(new URL(r.url()).searchParams));
}

/** The titles of the cards shown. */
const titles = (page: Page) => cards(page).getByRole('heading', { level: 2 }).allTextContents();
/** The titles once the list has answered (the previous page stays on screen, marked busy, meanwhile). */
async function answeredTitles(page: Page) {
  await expect(page.getByRole('list', { name: '文章' })).toHaveAttribute('aria-busy', 'false');
  return titles(page);
}

test.describe('news and knowledge lists: states and the view in the URL', () => {
  test('a failed list call shows 加载失败 with 重试, not 暂无数据; 重试 loads the page', async ({ page }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    // The next list call fails once, as a server in trouble would answer.
    let failed = 0;
    await page.route(LIST_CALL, async (route) => {
      if (failed++ === 0) await route.fulfill({ status: 503, json: { code: 1, msg: '服务暂不可用，请稍后再试' } });
      else await route.fallback();
    });
    await pager(page).getByLabel('第 2 页').click();
    await expect(failure(page)).toBeVisible();
    await expect(failure(page)).toContainText('服务暂不可用，请稍后再试');
    await expect(empty(page)).toHaveCount(0);
    await expect(cards(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/news\?page=2$/);
    const retried = nextListCall(page);
    await failure(page)
      .getByRole('button', { name: /重\s*试/ })
      .click();
    expect(await retried).toMatchObject({ offset: '10', limit: '10' });
    await expect(cards(page)).toHaveCount(10);
    await expect(failure(page)).toHaveCount(0);
    await expect(pager(page).getByLabel('第 2 页')).toHaveAttribute('aria-current', 'page');
  });

  test('an empty result is 暂无数据, not an error', async ({ page }) => {
    await page.goto(`/knowledge?keyword=${encodeURIComponent('不存在的关键词ZZZ')}`);
    await expect(empty(page)).toBeVisible();
    await expect(failure(page)).toHaveCount(0);
    await expect(pager(page)).toHaveCount(0);
    await expect(page.getByPlaceholder('支持标题快速过滤')).toHaveValue('不存在的关键词ZZZ');
  });

  test('tab, search, sort, date range and page live in the URL: a reload, a shared link and the server render keep them', async ({
    page,
    context,
  }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    await page.getByRole('tab', { name: '政策法规' }).click();
    await expect(page.getByText('共 12 条')).toBeVisible();
    await sort(page).selectOption({ label: '最早发布' });
    await page.getByLabel('开始日期').fill('2020-01-01');
    await page.getByLabel('结束日期').fill('2099-12-31');
    await expect(page).toHaveURL(/from=2020-01-01&to=2099-12-31/);
    await pager(page).getByLabel('第 2 页').click();
    await expect(pager(page).getByLabel('第 2 页')).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveURL(/\/news\?category=policy&page=2&sort=1&from=2020-01-01&to=2099-12-31$/);
    // The second page of 12 holds the last two.
    await expect(cards(page)).toHaveCount(2);
    const shown = await titles(page);
    expect(shown).toHaveLength(2);

    const expectSameView = async (view: Page) => {
      await expect(view.getByRole('tab', { name: '政策法规' })).toHaveAttribute('aria-selected', 'true');
      await expect(view.getByLabel('开始日期')).toHaveValue('2020-01-01');
      await expect(view.getByLabel('结束日期')).toHaveValue('2099-12-31');
      await expect(sortShown(view)).toHaveText('最早发布');
      await expect(pager(view).getByLabel('第 2 页')).toHaveAttribute('aria-current', 'page');
      expect(await titles(view)).toEqual(shown);
    };
    await page.reload();
    await expectSameView(page);

    // A shared link opens the same view; the server already renders it.
    const url = page.url();
    const html = await (await page.request.get(url, { headers: { accept: 'text/html' } })).text();
    for (const title of shown) expect(html).toContain(title);
    const other = await context.newPage();
    await other.goto(url);
    await expectSameView(other);
    await other.close();

    // A search starts again at page 1 (spec section 4) and is in the URL too.
    await search(page).fill('指导意见');
    await search(page).press('Enter');
    await expect(cards(page)).toHaveCount(1);
    await expect(page).toHaveURL(
      /\/news\?category=policy&keyword=%E6%8C%87%E5%AF%BC%E6%84%8F%E8%A7%81&sort=1&from=2020-01-01&to=2099-12-31$/,
    );
    await page.reload();
    await expect(search(page)).toHaveValue('指导意见');
    await expect(cards(page)).toHaveCount(1);
  });

  test('back and forward step through the views; leaving and coming back keeps the view', async ({ page }) => {
    await page.goto('/news');
    const first = await answeredTitles(page);
    await pager(page).getByLabel('第 2 页').click();
    await expect(page).toHaveURL(/\/news\?page=2$/);
    await expect(pager(page).getByLabel('第 2 页')).toHaveAttribute('aria-current', 'page');
    const second = await answeredTitles(page);
    await search(page).fill('挖掘机');
    await search(page).press('Enter');
    await expect(cards(page)).toHaveCount(1);
    await page.goBack();
    await expect(page).toHaveURL(/\/news\?page=2$/);
    await expect(search(page)).toHaveValue('');
    await expect.poll(() => titles(page)).toEqual(second);
    await page.goBack();
    await expect.poll(() => titles(page)).toEqual(first);
    await page.goForward();
    await expect.poll(() => titles(page)).toEqual(second);
    // Another page and back: the list is where it was.
    await page.getByRole('banner').getByRole('link', { name: '标识查询' }).click();
    await expect(page).toHaveURL(/\/mark$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/news\?page=2$/);
    await expect.poll(() => titles(page)).toEqual(second);
  });

  test('malformed URL parameters fall back to the defaults', async ({ page }) => {
    const call = nextListCall(page);
    await page.goto('/news?category=%3Cscript%3E&page=-2&sort=99&from=2026-02-30&to=tomorrow');
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByRole('tab', { name: '行业动态' })).toHaveAttribute('aria-selected', 'true');
    // Other journeys publish news too: the total is the default query's, read from the API.
    const defaults = await page.request.get(
      '/open-api/cms/v1/article/published/page/list?offset=0&limit=10&filterCategoryId=news&sortOrder=6',
    );
    const { total } = ((await defaults.json()) as { data: { total: number }[] }).data[0]!;
    await expect(page.getByText(`共 ${total} 条`)).toBeVisible();
    await expect(pager(page).getByLabel('第 1 页')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('开始日期')).toHaveValue('');
    await expect(sortShown(page)).toHaveText('最新发布');
    // The first view came from the server; paging on asks with the defaults.
    await pager(page).getByLabel('第 2 页').click();
    expect(await call).toMatchObject({ offset: '10', limit: '10', filterCategoryId: 'news', sortOrder: '6' });
    expect(await call).not.toHaveProperty('filterStartTime');
  });
});

test.describe('the date range on a phone', () => {
  test('two day fields that fit the screen and filter by whole days @mobile', async ({ page }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    const width = page.viewportSize()!.width;
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' }));
    const range = page.getByRole('group', { name: '发布日期' });
    // The browser's own day fields: their calendar is the phone's, one month, always on screen.
    for (const label of ['开始日期', '结束日期']) {
      await expect(range.getByLabel(label)).toHaveAttribute('type', 'date');
      const box = (await range.getByLabel(label).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await range.getByLabel('开始日期').fill(today);
    await expect(range.getByLabel('开始日期')).toHaveValue(today);
    // A start alone filters nothing yet.
    await expect(page).toHaveURL(/\/news$/);
    const call = nextListCall(page);
    await range.getByLabel('结束日期').fill(today);
    expect(await call).toMatchObject({ filterStartTime: `${today} 00:00:00`, filterEndTime: `${today} 23:59:59`, offset: '0' });
    await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}$`));
    // Nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The range survives a reload on the phone too.
    await page.reload();
    await expect(page.getByLabel('开始日期')).toHaveValue(today);
    await expect(page.getByLabel('结束日期')).toHaveValue(today);
  });
});
