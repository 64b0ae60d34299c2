import { type Locator, type Page, expect } from '@playwright/test';

export const DEMO_PASSWORD = 'Portal@2026';

/** Opens the console as `username`: the guard sends a visitor to the central login and back. */
export async function openConsole(page: Page, username: string, path = '/console'): Promise<void> {
  // The guard leaves the app for the login page: do not wait for the app to become interactive.
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeAttached();
}

export const sidebarMenu = (page: Page) => page.getByRole('navigation', { name: '控制台菜单' }).getByRole('menu').first();
/** The bar of open pages; each page is a link there, the open one marked `aria-current="page"`. */
export const tabs = (page: Page) => page.getByRole('navigation', { name: '已打开的页面' });
export const tabLinks = (page: Page) => tabs(page).getByRole('link');
export const tab = (page: Page, title: string) => tabs(page).getByRole('link', { name: title, exact: true });
export const currentTab = (page: Page) => tabs(page).locator('a[aria-current="page"]');

/**
 * Picks `option` in an antd select and waits until the select shows it. Under load a click can land
 * while the dropdown is still opening and be lost, so the pick is retried until it shows.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await expect(async () => {
    await select.click();
    await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click({ timeout: 2_000 });
    await expect(select).toContainText(option, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
