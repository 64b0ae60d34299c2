import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startCasClientApp } from '../../server/src/testing/cas-client-app.js';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * Passkeys with Chromium's virtual authenticator (DevTools `WebAuthn` domain: a platform
 * authenticator with resident keys and user verification): registered in 个人信息, then 通行密钥登录
 * without a password starting at an enterprise's application on another origin, the passkey as the
 * second factor in a fresh browser holding the same device's credential, and its removal. WebAuthn
 * refuses an IP address as the relying party's id, so the portal is opened as `localhost` here; the
 * application (a CAS 3.0 client stand-in of this file's own) listens on 127.0.0.1, another site.
 */

const local = () => (process.env.E2E_BASE_URL ?? '').replace('//127.0.0.1:', '//localhost:');

async function localPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: local(), locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce' });
  return { context, page: await context.newPage() };
}

/** A virtual platform authenticator on `page` that verifies its user at once; answers its id and the CDP session. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    add: (credential: Awaited<ReturnType<typeof cdp.send<'WebAuthn.getCredentials'>>>['credentials'][number]) =>
      cdp.send('WebAuthn.addCredential', { authenticatorId, credential }),
  };
}

async function openPersonalInfo(page: Page) {
  await page.getByRole('button', { name: /用户菜单/ }).click();
  await page.getByRole('menuitem', { name: '个人信息' }).click();
  return page.getByRole('dialog', { name: '个人信息' });
}

test.describe('passkeys', () => {
  test('register in 个人信息, 通行密钥登录 at an application on another origin, the second factor, removal', async ({
    browser,
    tenant,
  }) => {
    test.slow();
    const admin = tenant.admin;
    const casApp = await startCasClientApp({ casServerUrlPrefix: `${local()}/cas` });
    const { context, page } = await localPage(browser);
    try {
      const device = await virtualAuthenticator(page);
      await openConsole(page, admin);
      const api = await apiAs(page);
      const appHome = `${casApp.origin}/passkeys-${uniqueTag()}/`;
      const [app] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
        name: `远程运维${uniqueTag()}`,
        category: '设备管理',
        protocol: 'cas3',
        servicePrefixes: [appHome],
        attributes: [],
        status: 'enabled',
      });
      const [accounts] = await api.get<{ rows: { id: number; username: string }[] }>(
        `/web-api/console/v1/account/page/list?keyword=${admin.username}`,
      );
      const adminId = accounts?.rows.find((row) => row.username === admin.username)?.id ?? 0;
      await api.put(`/web-api/console/v1/sso-app/${app?.id ?? 0}/grants`, {
        allMembers: false,
        groupIds: [],
        roleIds: [],
        accountIds: [adminId],
      });

      // 个人信息: 添加通行密钥, named; the authenticator creates a discoverable credential.
      let info = await openPersonalInfo(page);
      await expect(info.getByText('尚未添加通行密钥')).toBeVisible();
      await info.getByRole('button', { name: '添加通行密钥' }).click();
      const naming = page.getByRole('dialog', { name: '添加通行密钥' });
      await naming.getByLabel('通行密钥名称').fill('办公电脑');
      await naming.getByRole('button', { name: /确\s*定/ }).click();
      await expect(page.getByText('通行密钥已添加')).toBeVisible();
      const list = info.getByRole('list', { name: '我的通行密钥' });
      await expect(list.getByRole('listitem', { name: '办公电脑' })).toContainText('尚未使用');
      expect(await device.credentials()).toHaveLength(1);
      await page.screenshot({ path: test.info().outputPath('passkeys-personal-info-1440.png') });
      await page.setViewportSize({ width: 375, height: 812 });
      await page.screenshot({ path: test.info().outputPath('passkeys-personal-info-375.png') });
      await page.setViewportSize({ width: 1440, height: 900 });
      await info.getByRole('button', { name: /确\s*定/ }).click();

      // Administrators must sign in with a second factor from now on: the passkey is one, 短信验证码 another,
      // and a browser may be trusted after either.
      const [policy] = await api.get<Record<string, unknown>>('/web-api/console/v1/security/policy');
      await api.put('/web-api/console/v1/security/policy', {
        ...policy,
        twoFactor: 'admins',
        twoFactorMethods: ['totp', 'sms', 'passkey'],
        trustDeviceDays: 30,
      });

      // Sign out, then open the application: 通行密钥登录, no password, ends inside it.
      await page.getByRole('button', { name: '退出登录' }).click();
      await expect(page).not.toHaveURL(/\/console/);
      await page.goto(appHome, { waitUntil: 'commit' });
      await expect(page).toHaveURL(/\/cas\/login\?service=/);
      await expect(page.getByText('通行密钥登录')).toBeVisible();
      const passkeyButton = page.getByRole('button', { name: '使用通行密钥' });
      await page.screenshot({ path: test.info().outputPath('passkeys-login-1440.png'), fullPage: true });
      await page.setViewportSize({ width: 375, height: 812 });
      await page.screenshot({ path: test.info().outputPath('passkeys-login-375.png'), fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      await passkeyButton.click();
      await expect(page.getByText(`signed in as ${admin.username}`)).toBeVisible();
      expect(page.url()).toBe(appHome);

      // A fresh browser with the same device: the password, then the passkey as the second factor.
      const fresh = await localPage(browser);
      const sameDevice = await virtualAuthenticator(fresh.page);
      for (const credential of await device.credentials()) await sameDevice.add(credential);
      await fresh.page.goto(appHome, { waitUntil: 'commit' });
      await fresh.page.getByLabel('账号').fill(admin.username);
      await fresh.page.getByLabel('密码', { exact: true }).fill(admin.password);
      await fresh.page.getByRole('button', { name: '登 录' }).click();
      await expect(fresh.page.getByRole('heading', { name: '二次验证' })).toBeVisible();
      await expect(fresh.page.getByLabel('动态验证码')).toHaveCount(0);
      await fresh.page.screenshot({ path: test.info().outputPath('passkeys-second-factor-1440.png'), fullPage: true });
      // 短信验证码 sends a code; its page keeps the passkey beside it, and 信任此设备 ticked there goes with the passkey too.
      await fresh.page.getByRole('button', { name: '短信验证码' }).click();
      await expect(fresh.page.getByLabel('短信验证码')).toBeVisible();
      await fresh.page.getByRole('checkbox', { name: /信任此设备/ }).check();
      await fresh.page.screenshot({ path: test.info().outputPath('passkeys-second-factor-sms-1440.png'), fullPage: true });
      await fresh.page.getByRole('button', { name: '使用通行密钥验证' }).click();
      await expect(fresh.page.getByText(`signed in as ${admin.username}`)).toBeVisible();
      expect(fresh.page.url()).toBe(appHome);
      // The browser closed and opened again: the password alone, the trusted device skips the step.
      const kept = (await fresh.context.cookies()).filter((c) => c.expires > 0);
      expect(kept.map((c) => c.name)).toContain('CASTRUST');
      await fresh.context.clearCookies();
      await fresh.context.addCookies(kept);
      await fresh.page.goto(appHome, { waitUntil: 'commit' });
      await fresh.page.getByLabel('账号').fill(admin.username);
      await fresh.page.getByLabel('密码', { exact: true }).fill(admin.password);
      await fresh.page.getByRole('button', { name: '登 录' }).click();
      await expect(fresh.page.getByText(`signed in as ${admin.username}`)).toBeVisible();

      // Removal in 个人信息 (the console's own sign-in asks for the passkey as the second factor too).
      await page.goto('/console', { waitUntil: 'commit' });
      await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeAttached();
      info = await openPersonalInfo(page);
      const item = info.getByRole('list', { name: '我的通行密钥' }).getByRole('listitem', { name: '办公电脑' });
      await expect(item).toContainText('最近使用');
      await item.getByRole('button', { name: /移\s*除/ }).click();
      await page
        .getByRole('tooltip')
        .getByRole('button', { name: /移\s*除/ })
        .click();
      await expect(page.getByText('通行密钥已移除')).toBeVisible();
      await expect(info.getByText('尚未添加通行密钥')).toBeVisible();
      await (await apiAs(page)).put('/web-api/console/v1/security/policy', { ...policy });

      // The device still holds the credential; the portal no longer accepts it.
      await fresh.context.clearCookies();
      await fresh.page.goto(appHome, { waitUntil: 'commit' });
      await fresh.page.getByRole('button', { name: '使用通行密钥' }).click();
      await expect(fresh.page.getByRole('alert')).toContainText('通行密钥验证失败');
      await fresh.context.close();
    } finally {
      await context.close();
      await casApp.close();
    }
  });
});
