import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { SsoMessage } from '@portal/shared';
import { apiAs } from './api-helpers.js';
import { type Person, openConsole } from './console-helpers.js';
import { addColleague, expect, test, uniqueTag } from './fixtures.js';

/**
 * An enterprise (this file's own, the tenant fixture) connects its own application to the central
 * login (应用列表), decides who may use it (应用授权), and its people open it from 我的应用.
 */

/**
 * The enterprise's application: a real HTTP server on this machine answering its home page. Its
 * address is on localhost (plain http allowed there) under a path no other run registered (addresses
 * of two applications may not overlap, whatever their enterprise).
 */
async function startApplication(): Promise<{ name: string; url: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>应用首页</title><h1>应用首页</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  const n = uniqueTag();
  return {
    name: `质量看板${n}`,
    url: `http://localhost:${port}/qa-${n}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function personPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

/** Opens the application's address through the central login as `person`, as its CAS client would. */
async function signInToApplication(page: Page, appUrl: string, person: Person): Promise<void> {
  await page.goto(`/cas/login?service=${encodeURIComponent(appUrl)}`, { waitUntil: 'commit' });
  await page.getByLabel('账号').fill(person.username);
  await page.getByLabel('密码', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test.describe('应用管理', () => {
  test('an administrator registers an application and authorizes a group; a member signs in to it and finds it in 我的应用, a non-member is refused', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    // Five people sign in (two of them set up first): more than one page's worth on a busy machine.
    test.slow();
    const app = await startApplication();
    // 周杰 of 质量部 and 刘洋 of 生产部, set up through the API.
    const zhoujie = await addColleague(browser, tenant, '周杰');
    const liuyang = await addColleague(browser, tenant, '刘洋');
    await openConsole(page, tenant.admin, '/console/app/list');
    const api = await apiAs(page);
    for (const [group, member] of [
      ['质量部', zhoujie],
      ['生产部', liuyang],
    ] as const) {
      const [created] = await api.post<{ id: number }>('/web-api/console/v1/account-group', { name: group, description: '', roleIds: [] });
      await api.post(`/web-api/console/v1/account-group/${created?.id ?? 0}/members`, { accountIds: [member.id] });
    }
    await page.getByRole('button', { name: /新增应用/ }).click();
    const drawer = page.getByRole('dialog', { name: '新增应用' });
    await drawer.getByLabel('名称', { exact: true }).fill(app.name);
    await drawer.getByLabel('分类').fill('质量管理');
    // The shared rule, checked before anything is sent: plain http only on this machine (localhost).
    await drawer.getByLabel('服务地址 1', { exact: true }).fill(`http://qa.e2e.example/`);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText(SsoMessage.serviceHttps)).toBeVisible();
    await drawer.getByLabel('服务地址 1', { exact: true }).fill(app.url);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: app.name });
    await expect(row).toContainText(app.url);
    await expect(row).toContainText('启用');

    // 集成配置: the CAS addresses an integrator copies.
    await row.getByRole('button', { name: '集成配置' }).click();
    const integration = page.getByRole('dialog', { name: `集成配置：${app.name}` });
    await expect(integration.getByText(`${baseURL}/cas/p3/serviceValidate`)).toBeVisible();
    await expect(integration.getByRole('button', { name: '复制' })).toHaveCount(6);
    await integration
      .getByRole('button', { name: /关\s*闭/ })
      .last()
      .click();

    // Nobody may sign in until 应用授权 says so.
    const outsider = await personPage(browser, baseURL);
    await signInToApplication(outsider, app.url, zhoujie);
    await expect(outsider.getByText('您无权访问该应用')).toBeVisible();

    await page.goto('/console/app/authorization');
    const picker = page.getByRole('combobox', { name: '选择应用' });
    await picker.click();
    await picker.fill(app.name);
    await page.getByTitle(app.name, { exact: true }).last().click();
    const grants = page.getByRole('region', { name: `${app.name}的授权` });
    await expect(grants.getByText('未授权任何人（默认无人可以登录该应用）')).toBeVisible();
    await grants.getByRole('combobox', { name: '添加账号组', exact: true }).click();
    await page.getByTitle('质量部', { exact: true }).last().click();
    await expect(grants.getByRole('region', { name: '已授权的账号组' })).toContainText('质量部');
    await grants.getByRole('button', { name: /保\s*存/ }).click();
    await expect(grants.getByRole('button', { name: /保\s*存/ })).toBeDisabled();
    // Saved: the page opened afresh shows the newest application (this one) with its group.
    await page.reload();
    await expect(page.getByRole('region', { name: `${app.name}的授权` }).getByRole('region', { name: '已授权的账号组' })).toContainText(
      '质量部',
    );

    // A member of 质量部 gets a ticket at the application's address; the session already open carries it.
    await outsider.goto(`/cas/login?service=${encodeURIComponent(app.url)}`);
    await expect(outsider).toHaveURL(new RegExp(`^${app.url}\\?ticket=ST-`));
    await expect(outsider.getByRole('heading', { name: '应用首页' })).toBeVisible();
    await outsider.goto('/my-apps');
    const card = outsider.getByRole('list', { name: '我的应用' }).getByRole('listitem').filter({ hasText: app.name });
    await expect(card.getByRole('link', { name: `打开${app.name}` })).toHaveAttribute('href', app.url);
    await outsider.context().close();

    // Someone of 生产部 is refused, with the application named, and gets no ticket.
    const other = await personPage(browser, baseURL);
    await signInToApplication(other, app.url, liuyang);
    await expect(other.getByText('您无权访问该应用')).toBeVisible();
    await expect(other.getByText(app.name)).toBeVisible();
    expect(other.url()).not.toContain('ticket=');
    await other.goto('/my-apps');
    await expect(other.getByRole('heading', { name: '我的应用' })).toBeVisible();
    // The list has answered (the applications, or none) before the refused one is looked for.
    await expect(other.getByRole('list', { name: '我的应用' }).or(other.getByText('暂无可用的应用'))).toBeVisible();
    await expect(other.getByText(app.name)).toHaveCount(0);
    await other.context().close();

    await page.screenshot({ path: test.info().outputPath('app-authorization-1440.png'), fullPage: true });
    await app.close();
  });

  test('应用列表, 应用授权 and 我的应用 fit a phone @mobile', async ({ tenant, page }) => {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const app = await startApplication();
    await openConsole(page, tenant.admin, '/console/app/list');
    // An application of the enterprise's own, as a row to fit.
    const api = await apiAs(page);
    await api.post('/web-api/console/v1/sso-app', {
      name: app.name,
      category: '质量管理',
      protocol: 'cas3',
      servicePrefixes: [app.url],
      attributes: [],
      status: 'enabled',
    });
    await page.reload();
    await expect(page.getByRole('button', { name: /新增应用/ })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('app-list-375.png'), fullPage: true });

    await page.goto('/console/app/authorization');
    await expect(page.getByRole('region', { name: /的授权$/ })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('app-authorization-375.png'), fullPage: true });

    await page.goto('/my-apps');
    await expect(page.getByRole('heading', { name: '我的应用' })).toBeVisible();
    await expect(page.getByRole('list', { name: '我的应用' }).or(page.getByText('暂无可用的应用'))).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('my-apps-375.png'), fullPage: true });
    await app.close();
  });
});
