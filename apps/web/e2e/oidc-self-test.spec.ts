import type { Locator, Page } from '@playwright/test';
import { OIDC_SELF_TEST_STEP_TITLES, OidcSelfTestMessage, type OidcSelfTestStepKey, SelfTestMessage } from '@portal/shared';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * 接入自检 of an OpenID Connect application from 应用列表: an enterprise administrator (this file's
 * own enterprise, the tenant fixture) registers a confidential client whose redirect URI and
 * back-channel logout address are the relying party the global setup runs (openid-client on
 * 127.0.0.1), grants 企业全员, and runs the check with the secret shown at creation: the portal signs
 * in as the administrator with a real code and PKCE, and every step passes.
 */

function relyingParty(): string {
  const origin = process.env.E2E_OIDC_APP;
  if (!origin) throw new Error('E2E_OIDC_APP is set by the e2e global setup');
  return origin;
}

const stepOf = (checklist: Locator, key: OidcSelfTestStepKey) =>
  checklist.getByRole('listitem').filter({ hasText: OIDC_SELF_TEST_STEP_TITLES[key] });

/** 新增应用 (OpenID Connect, confidential), 企业全员 granted; answers the secret shown once. */
async function registerClient(page: Page, name: string, clientId: string): Promise<string> {
  await page.getByRole('button', { name: /新增应用/ }).click();
  const drawer = page.getByRole('dialog', { name: '新增应用' });
  await drawer.getByText('OpenID Connect', { exact: true }).click();
  await expect(drawer.getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
  await drawer.getByLabel('名称', { exact: true }).fill(name);
  await drawer.getByLabel('客户端 ID', { exact: true }).fill(clientId);
  await drawer.getByLabel('回调地址 1', { exact: true }).fill(`${relyingParty()}/callback`);
  await drawer.getByLabel('后端登出地址', { exact: true }).fill(`${relyingParty()}/backchannel`);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  const shown = page.getByRole('dialog', { name: `客户端密钥：${name}` });
  await expect(shown.getByText('密钥只显示这一次')).toBeVisible();
  const secret = (await shown.getByText(/^[A-Za-z0-9_-]{43}$/).textContent()) ?? '';
  await shown.getByRole('button', { name: '我已保存' }).click();
  await expect(shown).toBeHidden();

  await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '授权' }).click();
  const grants = page.getByRole('region', { name: `${name}的授权` });
  await grants.getByRole('switch', { name: '企业全员' }).click();
  await grants.getByRole('button', { name: /保\s*存/ }).click();
  await expect(grants.getByRole('button', { name: /保\s*存/ })).toBeDisabled();
  await page.goto('/console/app/list');
  return secret;
}

/** Opens the row's 接入自检, types the secret and runs it; answers the dialog. */
async function runSelfTest(page: Page, name: string, secret: string): Promise<Locator> {
  await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '接入自检' }).click();
  const dialog = page.getByRole('dialog', { name: `接入自检：${name}` });
  const run = dialog.getByRole('button', { name: '接入自检' });
  // A confidential client's check needs its secret, for this run only.
  await expect(run).toBeDisabled();
  await dialog.getByLabel('客户端密钥').fill(secret);
  await run.click();
  await expect(dialog.getByRole('alert').filter({ hasText: SelfTestMessage.passed })).toBeVisible();
  return dialog;
}

test.describe('应用列表: 接入自检 of an OpenID Connect application', () => {
  test('an administrator runs 接入自检 on a confidential client with its secret and sees every step pass', async ({
    tenant,
    page,
    baseURL,
  }) => {
    const n = uniqueTag();
    const name = `移动点检${n}`;
    await openConsole(page, tenant.admin, '/console/app/list');
    const secret = await registerClient(page, name, `check-${n}`.toLowerCase());
    const dialog = await runSelfTest(page, name, secret);

    const checklist = dialog.getByRole('list', { name: '自检步骤' });
    await expect(checklist.getByRole('listitem')).toHaveCount(8);
    for (const key of Object.keys(OIDC_SELF_TEST_STEP_TITLES) as OidcSelfTestStepKey[]) {
      await expect(stepOf(checklist, key).getByRole('img', { name: '通过', exact: true })).toBeVisible();
    }
    const issuer = `${new URL(baseURL ?? '').protocol}//localhost:${new URL(baseURL ?? '').port}/oidc`;
    const callback = `${relyingParty()}/callback`;
    await expect(stepOf(checklist, 'discovery')).toContainText(`GET ${issuer}/.well-known/openid-configuration 返回发现文档`);
    await expect(stepOf(checklist, 'authorize')).toContainText(OidcSelfTestMessage.authorized(tenant.admin.username, callback));
    await expect(stepOf(checklist, 'token')).toContainText('机密客户端，client_secret_basic');
    await expect(stepOf(checklist, 'backchannel')).toContainText(OidcSelfTestMessage.backchannel(`${relyingParty()}/backchannel`, 400));
    await expect(dialog.getByText(`回调地址：${callback}`)).toBeVisible();
    const claims = dialog.getByRole('table', { name: '用户信息返回的声明' });
    await expect(claims.getByRole('row').filter({ hasText: 'preferred_username' })).toContainText(tenant.admin.username);
    // The secret is gone from the form once the run started, and never shown.
    await expect(dialog.getByLabel('客户端密钥')).toHaveValue('');
    await expect(dialog.getByText(secret)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('oidc-self-test-1440.png'), fullPage: true });
    await claims.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('oidc-self-test-claims-1440.png') });
  });

  test('接入自检 of an OpenID Connect application fits a phone @mobile', async ({ tenant, page }) => {
    const n = uniqueTag();
    const name = `点检${n}`;
    await openConsole(page, tenant.admin, '/console/app/list');
    const secret = await registerClient(page, name, `phone-${n}`.toLowerCase());
    const dialog = await runSelfTest(page, name, secret);
    const checklist = dialog.getByRole('list', { name: '自检步骤' });
    await expect(checklist.getByRole('listitem')).toHaveCount(8);
    await expect(checklist.getByRole('img', { name: '通过', exact: true })).toHaveCount(8);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('oidc-self-test-375.png'), fullPage: true });
    await stepOf(checklist, 'userinfo').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('oidc-self-test-steps-375.png') });
  });
});
