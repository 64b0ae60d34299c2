import { type Locator, type Page, expect } from '@playwright/test';

export const DEMO_PASSWORD = 'Portal@2026';

/** Someone who signs in at the central login with a password. */
export interface Person {
  username: string;
  password: string;
  name: string;
  phone: string;
}

/**
 * Opens the console as `account` (a seeded demo username, whose password is DEMO_PASSWORD, or a
 * person a test created): the guard sends a visitor to the central login and back.
 */
export async function openConsole(page: Page, account: string | Pick<Person, 'username' | 'password'>, path = '/console'): Promise<void> {
  const { username, password } = typeof account === 'string' ? { username: account, password: DEMO_PASSWORD } : account;
  // The guard leaves the app for the login page: do not wait for the app to become interactive.
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeAttached();
}

/**
 * A first login at the central login opened without a service: 修改初始密码 to `newPassword`, then
 * 登录成功; then 退出登录, so the set-up leaves no session for 在线会话 to list.
 */
export async function signInFirstTime(page: Page, person: Pick<Person, 'username' | 'password'>, newPassword: string): Promise<void> {
  await page.goto('/cas/login');
  await page.getByLabel('账号').fill(person.username);
  await page.getByLabel('密码', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
  await page.getByLabel('新密码', { exact: true }).fill(newPassword);
  await page.getByLabel('确认新密码').fill(newPassword);
  await page.getByRole('button', { name: '确认修改并登录' }).click();
  await expect(page.getByRole('heading', { name: '登录成功' })).toBeVisible();
  await page.goto('/cas/logout');
  await expect(page.getByRole('heading', { name: '您已安全退出' })).toBeVisible();
}

export const sidebar = (page: Page) => page.getByRole('complementary', { name: '侧边栏' });
export const breadcrumb = (page: Page) => page.getByRole('navigation', { name: '当前位置' });
export const sidebarMenu = (page: Page) => page.getByRole('navigation', { name: '控制台菜单' }).getByRole('menu').first();
/** The bar of open pages; each page is a link there, the open one marked `aria-current="page"`. */
export const tabs = (page: Page) => page.getByRole('navigation', { name: '已打开的页面' });
export const tabLinks = (page: Page) => tabs(page).getByRole('link');
export const tab = (page: Page, title: string) => tabs(page).getByRole('link', { name: title, exact: true });
export const currentTab = (page: Page) => tabs(page).locator('a[aria-current="page"]');

/**
 * Picks `option` in the tree select labelled `label` inside `scope` (a form) and waits until the
 * select shows it (antd puts the chosen label in a `title`). Under load a click can land while the
 * dropdown is still opening and be lost, so the pick is retried until it shows.
 */
export async function chooseTreeOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await expect(async () => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('treeitem', { name: option, exact: true }).click({ timeout: 2_000 });
    await expect(scope.getByTitle(option, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Picks `option` in the select labelled `label` inside `scope` and waits until the select shows it;
 * retried, as a click while the dropdown is still opening can be lost under load.
 */
export async function chooseSelectOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await expect(async () => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByTitle(option, { exact: true }).last().click({ timeout: 2_000 });
    await expect(scope.getByTitle(option, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
