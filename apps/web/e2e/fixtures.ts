import { type Locator, type Page, test as base, expect } from '@playwright/test';

/**
 * Public pages arrive rendered by the server and become interactive once the app has hydrated them
 * (`<html data-app="ready">`). `page.goto` here also waits for that, so a test never clicks a button
 * whose handler is not attached yet.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      // Pages of the app (not the CAS login page or static pages) wait for hydration.
      // A test that asks only for the commit (`waitUntil: 'commit'`) looks at the page as it loads.
      if (options?.waitUntil === 'commit') return response;
      if (response?.headers()['content-type']?.includes('text/html') && (await page.locator('#root').count()) > 0) {
        await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
      }
      return response;
    };
    await use(page);
  },
});

export { expect };

/**
 * A visitor's first page runs the silent single sign-on check (hidden iframe, once per tab). Resolves
 * once it has answered, so a redirect it caused could not be missed.
 */
export async function silentCheckDone(page: Page): Promise<void> {
  await page.waitForFunction(() => sessionStorage.getItem('portal.sso-checked') === '1' && !document.querySelector('iframe[title="sso"]'));
}

/**
 * Resolves once `locator`'s element and its ancestors have finished animating: antd slides menus and
 * dialogs in, and an item clicked while it moves can be missed.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate(async (el) => {
    const running: Animation[] = [];
    for (let node: Element | null = el; node; node = node.parentElement) running.push(...node.getAnimations());
    await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
  });
}
