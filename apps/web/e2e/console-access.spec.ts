import { openConsole } from './console-helpers.js';
import { expect, freshContext, test } from './fixtures.js';

/**
 * 安全设置's 控制台访问: the enterprise's console IP allow-list. The server trusts one proxy hop here, so a
 * second browser presents another client address with X-Forwarded-For, as one behind nginx would.
 */

const OUTSIDE = '198.51.100.20';

test.describe('控制台访问', () => {
  test('an administrator lists the console’s addresses, cannot leave out their own, and a browser elsewhere is refused', async ({
    page,
    browser,
    newTenant,
  }) => {
    test.setTimeout(120_000);
    const { admin } = await newTenant();
    await openConsole(page, admin, '/console/security/setting');
    const access = page.getByRole('form', { name: '控制台访问' });
    const field = access.getByLabel('允许访问的 IP 地址');
    await expect(field).toHaveValue('');
    const current = (await access.locator('code').textContent()) ?? '';
    expect(current).not.toBe('');
    const save = () => access.getByRole('button', { name: /保\s*存/ }).click();

    await field.fill('10.0.0.0/8\nintranet');
    await save();
    await expect(access.getByText('第 2 行「intranet」不是有效的 IP 地址或 CIDR 网段')).toBeVisible();
    await field.fill('10.0.0.0/8\n2001:db8::/32');
    await save();
    await expect(access.getByText(`当前 IP 地址（${current}）不在列表内，保存后将无法访问控制台，请先加入该地址`)).toBeVisible();
    await access.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('console-access-refused-1440.png') });

    await access.getByRole('button', { name: '加入当前地址' }).click();
    await expect(field).toHaveValue(`10.0.0.0/8\n2001:db8::/32\n${current}`);
    await save();
    await expect(page.getByText('控制台访问规则已保存，立即生效')).toBeVisible();
    await page.reload();
    await expect(field).toHaveValue(`10.0.0.0/8\n2001:db8::/32\n${current}`);

    // Elsewhere: the central login lets the administrator in, the console's calls are refused with the reason.
    const elsewhere = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      extraHTTPHeaders: { 'x-forwarded-for': OUTSIDE },
    });
    const outside = await elsewhere.newPage();
    await openConsole(outside, admin, '/console/security/setting');
    await expect(outside.getByText(`当前 IP 地址（${OUTSIDE}）不在企业允许访问控制台的范围内`).first()).toBeVisible();
    await expect(outside.getByText('安全设置加载失败')).toBeVisible();
    await outside.screenshot({ path: test.info().outputPath('console-access-outside-1440.png') });
    await elsewhere.close();

    // Emptied, the list lets any address in again.
    await field.fill('');
    await save();
    await expect(page.getByText('已清空允许访问的 IP 地址，控制台不限制访问地址')).toBeVisible();
    const again = await freshContext(browser);
    await again.setExtraHTTPHeaders({ 'x-forwarded-for': OUTSIDE });
    const back = await again.newPage();
    await openConsole(back, admin, '/console/security/setting');
    await expect(back.getByRole('form', { name: '控制台访问' }).getByText(OUTSIDE)).toBeVisible();
    await again.close();
  });

  test('the 控制台访问 card fits a phone @mobile', async ({ page, tenant }) => {
    await openConsole(page, tenant.admin, '/console/security/setting');
    const access = page.getByRole('form', { name: '控制台访问' });
    await access.getByLabel('允许访问的 IP 地址').fill('10.0.0.0/8\n2001:db8::/32\n203.0.113.7');
    await access.getByRole('button', { name: '加入当前地址' }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('console-access-375.png') });
  });
});
