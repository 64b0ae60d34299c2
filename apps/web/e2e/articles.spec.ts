import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** The article cards: links in the list of articles. */
const cards = (page: Page) => page.getByRole('list', { name: '文章' }).getByRole('link');
const pager = (page: Page) => page.getByRole('navigation', { name: '分页' });

/** Waits for the next published-list call and returns its query parameters. */
function nextListCall(page: Page) {
  return page
    .waitForRequest((r) => r.url().includes('/open-api/cms/v1/article/published/page/list'))
    .then((r) => Object.fromEntries(new URL(r.url()).searchParams));
}

/** How React escapes text in server-rendered HTML. */
function escapeHtml(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

test.describe('news and knowledge lists', () => {
  test('news: first category by default, 10 cards a page, paging by offset', async ({ page }) => {
    // The first page arrives rendered by the server with the default call (offset 0, limit 10, sort 6).
    const html = await (await page.request.get('/news', { headers: { accept: 'text/html' } })).text();
    const firstPage = (await (
      await page.request.get('/open-api/cms/v1/article/published/page/list?offset=0&limit=10&filterCategoryId=news&sortOrder=6')
    ).json()) as { data: { rows: { title: string }[] }[] };
    expect(firstPage.data[0]?.rows).toHaveLength(10);
    for (const row of firstPage.data[0]?.rows ?? []) expect(html).toContain(escapeHtml(row.title));
    await page.goto('/news');
    await expect(page.getByRole('tab', { name: '行业动态' })).toHaveAttribute('aria-selected', 'true');
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByText('共 20 条')).toBeVisible();
    await expect(page.getByPlaceholder('支持资讯标题快速过滤')).toBeVisible();
    const firstTitle = await cards(page).first().getByRole('heading', { level: 2 }).textContent();
    const second = nextListCall(page);
    await pager(page).getByLabel('第 2 页').click();
    expect(await second).toMatchObject({ offset: '10', limit: '10' });
    await expect(cards(page).first().getByRole('heading', { level: 2 })).not.toHaveText(firstTitle ?? '');
    // Changing the category goes back to page 1.
    const policy = nextListCall(page);
    await page.getByRole('tab', { name: '政策法规' }).click();
    expect(await policy).toMatchObject({ offset: '0', filterCategoryId: 'policy' });
    await expect(page.getByText('共 12 条')).toBeVisible();
  });

  test('news: search by Enter or button, empty result, reset', async ({ page }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    const search = page.getByPlaceholder('支持资讯标题快速过滤');
    await search.fill('挖掘机');
    const call = nextListCall(page);
    await search.press('Enter');
    expect(await call).toMatchObject({ searchKey: '挖掘机', offset: '0' });
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('挖掘机');
    await search.fill('不存在的关键词ZZZ');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await expect(page.getByText('暂无数据', { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(pager(page)).toHaveCount(0);
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await expect(search).toHaveValue('');
    await expect(page.getByText('共 20 条')).toBeVisible();
  });

  test('news: the date range sends 00:00:00 and 23:59:59 and clearing resets both', async ({ page }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    const paged = nextListCall(page);
    await pager(page).getByLabel('第 2 页').click();
    expect(await paged).toMatchObject({ offset: '10' });
    const call = nextListCall(page);
    await page.getByLabel('开始日期').fill('2020-01-01');
    await page.getByLabel('结束日期').fill('2099-12-31');
    expect(await call).toMatchObject({ filterStartTime: '2020-01-01 00:00:00', filterEndTime: '2099-12-31 23:59:59', offset: '0' });
    await expect(page.getByText('共 20 条')).toBeVisible();
    // The range's 清除 clears both days.
    await page.getByRole('group', { name: '发布日期' }).getByRole('button', { name: '清除', exact: true }).click();
    // Both bounds are gone (the unfiltered first page may come from the query cache).
    await expect(page.getByLabel('开始日期')).toHaveValue('');
    await expect(page.getByLabel('结束日期')).toHaveValue('');
    await expect(page.getByText('共 20 条')).toBeVisible();
    await expect(pager(page).getByLabel('第 1 页')).toHaveAttribute('aria-current', 'page');
  });

  test('news: sort order changes the order and returns to page 1', async ({ page }) => {
    await page.goto('/news');
    await expect(cards(page)).toHaveCount(10);
    const newest = await cards(page).first().getByRole('time').textContent();
    const call = nextListCall(page);
    await page.getByRole('combobox', { name: '排序方式' }).selectOption({ label: '最早发布' });
    expect(await call).toMatchObject({ sortOrder: '1', offset: '0' });
    await expect(cards(page).first().getByRole('time')).not.toHaveText(newest ?? '');
  });

  test('knowledge: its own tabs and placeholder; a broken image shows the placeholder', async ({ page }) => {
    await page.route('**/files/demo/thumb-*.svg', (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/knowledge');
    await expect(page.getByRole('tab', { name: '工业知识' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: '标准规范' })).toBeVisible();
    await expect(page.getByPlaceholder('支持标题快速过滤')).toBeVisible();
    await expect(page.getByAltText('图片加载失败').first()).toBeVisible();
  });
});

test.describe('article detail', () => {
  test('opens in a new window with date, number and expiry; a visitor is asked to log in', async ({ page, context, baseURL }) => {
    await page.goto('/news');
    await page.getByRole('tab', { name: '政策法规' }).click();
    await page.getByPlaceholder('支持资讯标题快速过滤').fill('指导意见');
    await page.getByPlaceholder('支持资讯标题快速过滤').press('Enter');
    await expect(cards(page)).toHaveCount(1);
    const listDate = await cards(page).first().getByRole('time').textContent();
    const [detail] = await Promise.all([context.waitForEvent('page'), cards(page).first().click()]);
    await expect(detail).toHaveURL(/\/news\/detail\?id=[0-9a-f-]{36}$/);
    await expect(detail.getByRole('heading', { level: 1 })).toHaveText('关于深化新一代信息技术与制造业融合发展的指导意见');
    // The demo document is numbered in the year the seed dates it.
    await expect(detail.getByText(`文号：国发〔${listDate?.trim().slice(0, 4)}〕41号`)).toBeVisible();
    await expect(detail.getByText('有效期：长期有效')).toBeVisible();
    await expect(detail.getByText(`发布日期：${listDate?.trim()}`)).toBeVisible();
    await expect(detail.getByText('来源：国务院')).toBeVisible();
    // 请先登录: 确定 goes to the central login.
    await expect(detail.getByRole('dialog', { name: '请先登录' })).toBeVisible();
    // The login starts at the portal (it binds the login to this browser), which sends it on to the CAS.
    await detail.route(`${baseURL}/cas/login**`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>cas</p>' }));
    await detail.getByRole('button', { name: /确\s*定/ }).click();
    await expect(detail).toHaveURL(new RegExp(`^${baseURL}/cas/login\\?service=`));
  });

  test('a news article shows no number or expiry; 取消 keeps the visitor on the page', async ({ page }) => {
    await page.goto('/news');
    const href = await cards(page).first().getAttribute('href');
    expect(await cards(page).first().getAttribute('target')).toBe('_blank');
    await page.goto(href!);
    await expect(page.getByRole('dialog', { name: '请先登录' })).toBeVisible();
    await page.getByRole('button', { name: /取\s*消/ }).click();
    await expect(page.getByRole('dialog', { name: '请先登录' })).toBeHidden();
    await expect(page.getByText(/^发布日期：\d{4}-\d{2}-\d{2}$/)).toBeVisible();
    await expect(page.getByText(/^文号：/)).toHaveCount(0);
    await expect(page.getByText(/^有效期：/)).toHaveCount(0);
  });

  test('an unknown article says so', async ({ page }) => {
    await page.goto('/knowledge/detail?id=00000000-0000-0000-0000-000000000000');
    await expect(page.getByText('文章不存在或已下线').first()).toBeVisible();
  });
});
