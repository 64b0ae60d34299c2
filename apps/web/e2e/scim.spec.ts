import type { Browser, Locator, Page } from '@playwright/test';
import { ScimMessage } from '@portal/shared';
import { openConsole } from './console-helpers.js';
import { type Tenant, expect, freshContext, test, uniquePhone, uniqueTag } from './fixtures.js';

/**
 * SCIM 同步: an administrator (this file's enterprise, the tenant fixture) creates a token under 认证源
 * and sees it once; the HR system provisions a person with it at /scim/v2, whom 账号管理 then lists;
 * 吊销 ends the token at once. Also the card and its token on a phone.
 */

/** Creates a token in the card and answers the dialog that shows it, and the token. */
async function createToken(page: Page, name: string): Promise<{ dialog: Locator; token: string }> {
  const card = page.getByRole('region', { name: 'SCIM 同步' });
  await card.getByRole('button', { name: /新建令牌/ }).click();
  const form = page.getByRole('dialog', { name: '新建 SCIM 令牌' });
  await form.getByLabel('名称').fill(name);
  await form.getByRole('button', { name: /创\s*建/ }).click();
  const dialog = page.getByRole('dialog', { name: `SCIM 令牌已创建：${name}` });
  await expect(dialog.getByText(ScimMessage.tokenOnce)).toBeVisible();
  const token = (
    (await dialog
      .locator('code')
      .filter({ hasText: /^scim_/ })
      .textContent()) ?? ''
  ).trim();
  expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByText(`${new URL(page.url()).origin}/scim/v2`)).toBeVisible();
  return { dialog, token };
}

/** 租户管理 → 详情 of the tenant's enterprise, as the seeded operator, at `width`: answers the drawer's SCIM section. */
async function operatorDetail(browser: Browser, tenant: Tenant, width: number): Promise<{ page: Page; scim: Locator }> {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await openConsole(page, 'operator', '/console/tenant');
  await page.getByLabel('企业名称').fill(tenant.name);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await page
    .getByRole('row')
    .filter({ hasText: tenant.name })
    .getByRole('button', { name: /详\s*情/ })
    .click();
  const detail = page.getByRole('dialog', { name: `企业详情：${tenant.name}` });
  await expect(detail.getByRole('region', { name: '认证源' })).toBeVisible();
  return { page, scim: detail.getByRole('region', { name: 'SCIM 客户端' }) };
}

test.describe('SCIM 同步', () => {
  test('an administrator creates a token; the HR system provisions a person with it until it is revoked', async ({
    tenant,
    page,
    request,
    browser,
  }) => {
    await openConsole(page, tenant.admin, '/console/auth/source');
    const card = page.getByRole('region', { name: 'SCIM 同步' });
    await expect(card.getByText('SCIM 同步', { exact: true })).toBeVisible();
    const n = uniqueTag();
    const name = `人事系统${n}`;
    const { dialog, token } = await createToken(page, name);
    await page.screenshot({ path: test.info().outputPath('scim-token-created-1440.png') });
    await dialog.getByRole('button', { name: '我已保存令牌' }).click();
    await expect(page.getByText(token)).toHaveCount(0);
    const row = card.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('从未使用');

    // The HR system's side: a new hire, as RFC 7644 §3.3 creates one.
    const username = `scim_${n}`.slice(0, 32);
    const created = await request.post('/scim/v2/Users', {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      data: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: username,
        name: { familyName: '林', givenName: '晓' },
        phoneNumbers: [{ value: uniquePhone(), type: 'mobile' }],
      },
    });
    expect(created.status()).toBe(201);

    await page.reload();
    await expect(page.getByRole('region', { name: 'SCIM 同步' }).getByRole('row').filter({ hasText: name })).not.toContainText('从未使用');
    await page.screenshot({ path: test.info().outputPath('scim-card-1440.png'), fullPage: true });
    await page.goto('/console/org/account');
    await expect(page.getByRole('row').filter({ hasText: username })).toContainText('林晓');

    // The operator sees the client in 租户管理: when it last called, and what it last changed.
    const operator = await operatorDetail(browser, tenant, 1440);
    const client = operator.scim.getByRole('row').filter({ hasText: name });
    await expect(client).toContainText(`新增账号 ${username} 林晓`);
    await expect(client).not.toContainText('从未使用');
    await operator.page.screenshot({ path: test.info().outputPath('tenant-scim-clients-1440.png') });
    await operator.page.context().close();

    await page.goto('/console/auth/source');
    await page
      .locator('.auth-sources__scim')
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: /吊\s*销/ })
      .click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /吊\s*销/ })
      .click();
    await expect(page.getByRole('region', { name: 'SCIM 同步' }).getByRole('row').filter({ hasText: name })).toHaveCount(0);
    const refused = await request.get('/scim/v2/Users', { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
  });

  test("the card, a new token and the operator's view of it fit a phone (375 px) @mobile", async ({ tenant, page, browser }) => {
    await openConsole(page, tenant.admin, '/console/auth/source');
    const name = `考勤系统${uniqueTag()}`;
    const { dialog, token } = await createToken(page, name);
    // The token wraps inside the dialog instead of running off the screen.
    const box = await dialog.getByText(token).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await page.screenshot({ path: test.info().outputPath('scim-token-created-375.png') });
    await dialog.getByRole('button', { name: '我已保存令牌' }).click();
    await expect(dialog).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('region', { name: 'SCIM 同步' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('scim-card-375.png'), fullPage: true });

    const operator = await operatorDetail(browser, tenant, 375);
    const client = operator.scim.getByRole('row').filter({ hasText: name });
    await expect(client).toContainText('从未使用');
    await expect(client).toContainText('暂无变更');
    expect(await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await operator.page.screenshot({ path: test.info().outputPath('tenant-scim-clients-375.png') });
    await operator.page.context().close();
  });
});
