import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { MachineClientMessage } from '@portal/shared';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * 机器客户端: an enterprise administrator (this file's own enterprise, the tenant fixture) gives one of
 * its systems a client, sees the secret once, and the system gets tokens with it at /oidc/token and
 * calls the enterprise's API; 停用 ends its token at once.
 */

/** Creates a client in the console and answers the dialog that shows its secret, and the secret. */
async function createClient(page: Page, name: string, clientId: string): Promise<{ dialog: Locator; secret: string }> {
  await page.getByRole('button', { name: /新增机器客户端/ }).click();
  const form = page.getByRole('dialog', { name: '新增机器客户端' });
  // The shared rules answer before anything is sent.
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form.getByText(MachineClientMessage.scopeRequired)).toBeVisible();
  await form.getByLabel('名称').fill(name);
  await form.getByLabel('客户端 ID').fill(clientId);
  await form.getByRole('checkbox', { name: /读取账号（accounts:read）/ }).check();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  const dialog = page.getByRole('dialog', { name: `机器客户端已创建：${name}` });
  await expect(dialog.getByText(MachineClientMessage.secretOnce)).toBeVisible();
  const secretEntry = dialog
    .locator('div')
    .filter({ has: page.getByText('客户端密钥', { exact: true }) })
    .last();
  const secret = ((await secretEntry.locator('code').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(secretEntry.getByRole('button', { name: '复制' })).toBeVisible();
  return { dialog, secret };
}

/** The system's side: a token with client_credentials (HTTP Basic, RFC 6749 §4.4), as a MES would ask for one. */
async function tokenOf(request: APIRequestContext, clientId: string, secret: string): Promise<string> {
  const res = await request.post('/oidc/token', {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'client_credentials', scope: 'accounts:read' },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const accountsWith = (request: APIRequestContext, token: string) =>
  request.get('/open-api/enterprise/v1/account/page/list', { headers: { authorization: `Bearer ${token}` } });

test.describe('机器客户端', () => {
  test('an administrator creates a client and sees its secret once; the system calls the API with it until the client is disabled', async ({
    tenant,
    page,
    request,
  }) => {
    await openConsole(page, tenant.admin, '/console/app/machine-client');
    await expect(page.getByRole('navigation', { name: '当前位置' })).toContainText('机器客户端');
    const n = uniqueTag();
    const name = `生产执行系统${n}`;
    const clientId = `mes-${n}`;
    const { dialog, secret } = await createClient(page, name, clientId);
    await expect(dialog.getByText(`${new URL(page.url()).origin}/oidc/token`)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('machine-client-secret-1440.png') });

    // The system gets a token and reads its enterprise's accounts: the administrator is among them.
    const token = await tokenOf(request, clientId, secret);
    const answer = await accountsWith(request, token);
    expect(answer.status()).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain(tenant.admin.username);

    // Closed, the secret is nowhere on the page; the list shows the client without it.
    await dialog.getByRole('button', { name: '我已保存密钥' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(clientId);
    await expect(row).toContainText('读取账号');
    await expect(row).toContainText('启用');
    await page.screenshot({ path: test.info().outputPath('machine-client-list-1440.png') });

    // 停用: the token it holds is refused at once.
    await row.getByRole('button', { name: '停用' }).click();
    const confirm = page.getByRole('dialog', { name: '停用机器客户端' });
    await confirm.getByRole('button', { name: /停\s*用/ }).click();
    await expect(row).toContainText('停用');
    expect((await accountsWith(request, token)).status()).toBe(401);
  });

  test('creating a client and its secret fit a phone (375 px) @mobile', async ({ tenant, page }) => {
    await openConsole(page, tenant.admin, '/console/app/machine-client');
    const n = uniqueTag();
    const name = `仓储系统${n}`;
    const { dialog, secret } = await createClient(page, name, `wms-${n}`);
    // The secret wraps inside the dialog instead of running off the screen.
    const box = await dialog.getByText(secret).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await page.screenshot({ path: test.info().outputPath('machine-client-secret-375.png') });
    await dialog.getByRole('button', { name: '我已保存密钥' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(`wms-${n}`);
    await page.screenshot({ path: test.info().outputPath('machine-client-list-375.png'), fullPage: true });
  });
});
