import type { Browser, Page } from '@playwright/test';
import { E2E_OIDC_SECRET, registerOidcApplication } from '../../server/src/testing/oidc-application.js';
import { apiAs, base32Decode, totp, totpStepNow } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, freshContext, test, uniqueTag } from './fixtures.js';

/**
 * Sign-in to an OpenID Connect application: a relying party (openid-client, started by the global
 * setup on another site) sends a fresh browser to the provider, which sends it on to the central
 * login; after the password the browser must be let through to the application's callback (CSP
 * `form-action` on every redirect of the chain, which only a real browser checks) and land inside it.
 * The applications are this file's enterprise's (the tenant fixture); 应用列表 cannot create OIDC
 * applications yet, so they are written into the server's database file.
 */

function env(name: 'E2E_OIDC_APP' | 'E2E_OIDC_APP_RESTRICTED' | 'E2E_SQLITE_FILE'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is set by the e2e global setup`);
  return value;
}

async function freshPage(browser: Browser): Promise<Page> {
  return (await freshContext(browser)).newPage();
}

/** The central login's password form. */
async function submitPassword(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test.describe('sign-in to an OpenID Connect application through the central login', () => {
  // One enterprise and one registration of the relying parties' fixed client ids: in order, one worker.
  test.describe.configure({ mode: 'serial' });
  const appName = `移动巡检${uniqueTag()}`;
  const restrictedName = `质量看板${uniqueTag()}`;

  test.beforeAll(async ({ tenantOf }) => {
    test.setTimeout(120_000);
    const tenant = await tenantOf(test.info().file);
    for (const [origin, clientId, name, allMembers] of [
      [env('E2E_OIDC_APP'), 'e2e-oidc-app', appName, true],
      [env('E2E_OIDC_APP_RESTRICTED'), 'e2e-oidc-restricted', restrictedName, false],
    ] as const) {
      await registerOidcApplication(env('E2E_SQLITE_FILE'), {
        enterpriseId: tenant.id,
        name,
        clientId,
        secret: E2E_OIDC_SECRET,
        redirectUri: `${origin}/callback`,
        backchannelUri: `${origin}/backchannel`,
        allMembers,
      });
    }
  });

  test('a fresh browser signs in at the central login and lands inside the application; its logout ends the sign-on session', async ({
    browser,
    tenant,
  }) => {
    const page = await freshPage(browser);
    const app = env('E2E_OIDC_APP');
    await page.goto(`${app}/login?scope=${encodeURIComponent('openid profile')}`);
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    const login = new URL(page.url());
    expect(login.pathname).toBe('/cas/login');
    expect(login.origin).not.toBe(new URL(app).origin);
    await page.screenshot({ path: test.info().outputPath('oidc-central-login-1440.png'), fullPage: true });

    await submitPassword(page, tenant.admin.username, tenant.admin.password);
    await expect(page.getByText(/^signed in as \d+$/)).toBeVisible();
    expect(page.url()).toMatch(new RegExp(`^${app}/callback\\?code=`));
    await page.screenshot({ path: test.info().outputPath('oidc-landed-1440.png'), fullPage: true });

    // One sign-on: the central login knows this browser.
    const portal = login.origin;
    await page.goto(`${portal}/cas/login`);
    await expect(page.getByRole('heading', { name: '您已登录' })).toBeVisible();

    // The application asks the provider to sign out (RP-Initiated Logout): the SSO session ends with it.
    await page.goto(`${portal}/oidc/session/end?client_id=e2e-oidc-app`);
    await expect(page.getByRole('heading', { name: '确认退出登录' })).toBeVisible();
    await page.getByRole('button', { name: '退出登录' }).click();
    await expect(page.getByRole('heading', { name: '您已退出登录' })).toBeVisible();
    await page.goto(`${portal}/cas/login`);
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await page.context().close();
  });

  test('an account 应用授权 does not admit sees 您无权访问该应用 on the central login, and the application gets no code', async ({
    browser,
    tenant,
  }) => {
    const page = await freshPage(browser);
    await page.goto(`${env('E2E_OIDC_APP_RESTRICTED')}/login`);
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await submitPassword(page, tenant.admin.username, tenant.admin.password);
    await expect(page.getByRole('heading', { name: '您无权访问该应用' })).toBeVisible();
    await expect(page.getByText(restrictedName)).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/cas/login');
    await page.context().close();
  });

  test('with two-factor for everyone, the sign-in started at the application takes the enrolment steps and lands inside it', async ({
    page,
    browser,
    tenant,
  }) => {
    test.setTimeout(120_000);
    // 安全设置 (set through the API by the administrator): two-factor for everyone from the next login.
    await openConsole(page, tenant.admin);
    const api = await apiAs(page);
    const policy = '/web-api/console/v1/security/policy';
    const [before] = await api.get<Record<string, unknown>>(policy);
    await api.put(policy, { ...before, twoFactor: 'all' });
    try {
      const rp = await freshPage(browser);
      const app = env('E2E_OIDC_APP');
      await rp.goto(`${app}/login`);
      await submitPassword(rp, tenant.admin.username, tenant.admin.password);
      await expect(rp.getByRole('heading', { name: '绑定二次验证' })).toBeVisible();
      const secret = base32Decode((await rp.locator('.cas-secret code').textContent()) ?? '');
      await rp.getByLabel('动态验证码').fill(totp(secret, totpStepNow()));
      await rp.getByRole('button', { name: '完成绑定' }).click();
      await expect(rp.getByRole('heading', { name: '保存恢复码' })).toBeVisible();
      await rp.getByRole('button', { name: '我已保存，继续登录' }).click();
      // Every step's form posted on towards the application's origin (CSP form-action), and the browser got there.
      await expect(rp.getByText(/^signed in as \d+$/)).toBeVisible();
      expect(rp.url()).toMatch(new RegExp(`^${app}/callback\\?code=`));
      await rp.context().close();
    } finally {
      await api.put(policy, before);
    }
  });
});

test('a sign-in request that has expired or was finished says so, in the central login’s frame @mobile', async ({ browser }) => {
  const page = await freshPage(browser);
  await page.goto('/oidc/interaction/expired-request');
  await expect(page.getByRole('heading', { name: '登录请求已过期' })).toBeVisible();
  await expect(page.getByText('请返回应用重新进入')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('oidc-expired-375.png'), fullPage: true });
  await page.context().close();
});
