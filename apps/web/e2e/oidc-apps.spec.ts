import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * An enterprise (this file's own, the tenant fixture) registers an OpenID Connect application in
 * 应用列表: it sees the client secret once, resets it, and reads the integration settings. The secret
 * is then tried at the provider's token endpoint, as the application would present it.
 */

/** A made-up code with the client's secret: a client that authenticates gets invalid_grant, any other invalid_client. */
async function tokenError(request: APIRequestContext, clientId: string, secret: string): Promise<string> {
  const res = await request.post('/oidc/token', {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: 'https://inspection.example.cn/callback' },
  });
  return ((await res.json()) as { error: string }).error;
}

/** The secret the dialog shows: 256 random bits in base64url. */
async function shownSecret(dialog: Locator): Promise<string> {
  await expect(dialog.getByText('密钥只显示这一次')).toBeVisible();
  return (await dialog.getByText(/^[A-Za-z0-9_-]{43}$/).textContent()) ?? '';
}

/** The drawer's 协议: a button-style radio, whose input is hidden behind its label. */
async function chooseProtocol(drawer: Locator): Promise<void> {
  await drawer.getByText('OpenID Connect', { exact: true }).click();
  await expect(drawer.getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
}

/** 新增应用 with protocol OpenID Connect, as an administrator fills the drawer. */
async function createOidcApplication(page: Page, name: string, clientId: string): Promise<void> {
  await page.getByRole('button', { name: /新增应用/ }).click();
  const drawer = page.getByRole('dialog', { name: '新增应用' });
  await chooseProtocol(drawer);
  await drawer.getByLabel('名称', { exact: true }).fill(name);
  await drawer.getByLabel('客户端 ID', { exact: true }).fill(clientId);
  await drawer.getByLabel('回调地址 1', { exact: true }).fill('https://inspection.example.cn/callback');
  await drawer.getByLabel('后端登出地址', { exact: true }).fill('https://inspection.example.cn/backchannel');
  await drawer.getByRole('checkbox', { name: /账号组 groups/ }).check();
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
}

test.describe('应用列表: OpenID Connect', () => {
  test('an administrator creates an OIDC application, sees its secret once, resets it and reads the integration settings', async ({
    tenant,
    page,
  }) => {
    const n = uniqueTag();
    const name = `移动巡检${n}`;
    const clientId = `inspection-${n}`.toLowerCase();
    await openConsole(page, tenant.admin, '/console/app/list');
    await createOidcApplication(page, name, clientId);

    const created = page.getByRole('dialog', { name: `客户端密钥：${name}` });
    const first = await shownSecret(created);
    await expect(created.getByText(clientId, { exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('oidc-secret-1440.png') });
    await created.getByRole('button', { name: '我已保存' }).click();
    await expect(created).toBeHidden();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText('OpenID Connect')).toBeVisible();
    await expect(row.getByText(`客户端 ID：${clientId}`)).toBeVisible();
    // The list never shows the secret again.
    await expect(page.getByText(first)).toHaveCount(0);
    expect(await tokenError(page.request, clientId, first)).toBe('invalid_grant');
    await page.screenshot({ path: test.info().outputPath('oidc-app-list-1440.png'), fullPage: true });

    await row.getByRole('button', { name: '重置密钥' }).click();
    const confirm = page.getByRole('dialog', { name: '重置密钥' });
    await expect(confirm.getByText(/旧密钥立即失效/)).toBeVisible();
    await confirm.getByRole('button', { name: /重\s*置/ }).click();
    const reset = page.getByRole('dialog', { name: `客户端密钥：${name}` });
    const second = await shownSecret(reset);
    expect(second).not.toBe(first);
    await expect(reset.getByText(/旧密钥已立即失效/)).toBeVisible();
    await reset.getByRole('button', { name: '我已保存' }).click();
    await expect(reset).toBeHidden();
    // The old secret stopped working at once; the new one authenticates the client.
    expect(await tokenError(page.request, clientId, first)).toBe('invalid_client');
    expect(await tokenError(page.request, clientId, second)).toBe('invalid_grant');

    await row.getByRole('button', { name: '集成配置' }).click();
    const settings = page.getByRole('dialog', { name: `集成配置：${name}` });
    const origin = new URL(page.url()).origin;
    await expect(settings.getByText(`${origin}/oidc/.well-known/openid-configuration`, { exact: true })).toBeVisible();
    await expect(settings.getByText(`${origin}/oidc/token`, { exact: true })).toBeVisible();
    await expect(settings.getByRole('tab', { name: 'Java · Spring Security' })).toBeVisible();
    await expect(settings.getByText(new RegExp(`client-id: ${clientId}`))).toBeVisible();
    await settings.getByRole('tab', { name: 'Python · Authlib' }).click();
    await expect(settings.getByText(/server_metadata_url=/)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('oidc-integration-1440.png') });
  });

  test('creating an OIDC application, its secret and its integration settings fit a phone @mobile', async ({ tenant, page }) => {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const n = uniqueTag();
    const name = `巡检${n}`;
    const clientId = `kiosk-${n}`.toLowerCase();
    await openConsole(page, tenant.admin, '/console/app/list');
    await page.getByRole('button', { name: /新增应用/ }).click();
    const drawer = page.getByRole('dialog', { name: '新增应用' });
    await chooseProtocol(drawer);
    await expect(drawer.getByLabel('回调地址 1', { exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('oidc-form-375.png'), fullPage: true });
    await drawer.getByRole('button', { name: /取\s*消/ }).click();
    await expect(drawer).toBeHidden();

    await createOidcApplication(page, name, clientId);
    const created = page.getByRole('dialog', { name: `客户端密钥：${name}` });
    await shownSecret(created);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('oidc-secret-375.png') });
    await created.getByRole('button', { name: '我已保存' }).click();
    await expect(created).toBeHidden();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row.getByText(`客户端 ID：${clientId}`)).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('oidc-app-list-375.png'), fullPage: true });

    await row.getByRole('button', { name: '集成配置' }).click();
    const settings = page.getByRole('dialog', { name: `集成配置：${name}` });
    await expect(settings.getByRole('tab', { name: 'Node.js · openid-client' })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('oidc-integration-375.png'), fullPage: true });
  });
});
