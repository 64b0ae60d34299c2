import type { Page } from '@playwright/test';
import { animationsDone, expect, silentCheckDone, test } from './fixtures.js';

const DEMO_PASSWORD = 'Portal@2026';

/** Fills the embedded CAS login page and submits it. */
async function casLogin(page: Page, username: string, password: string) {
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** The public header (the page's banner landmark). */
const header = (page: Page) => page.getByRole('banner');

/** Opens the header's user menu (its button is named after the user) and chooses an item. */
async function userMenu(page: Page, user: string, item: string, shows: () => Promise<void>) {
  await header(page)
    .getByRole('button', { name: new RegExp(`^${user}，`) })
    .click();
  // Click only once the menu has finished sliding in (its items move while it animates).
  const menuItem = page.getByRole('menu').getByRole('menuitem', { name: new RegExp(item) });
  await expect(menuItem).toBeVisible();
  await animationsDone(menuItem);
  await menuItem.click();
  await shows();
}

/** Logs in from the header's login button and lands back on `path`. */
async function loginFromHeader(page: Page, path: string, username: string, password = DEMO_PASSWORD) {
  await page.goto(path);
  await header(page)
    .getByRole('link', { name: /登\s*录/ })
    .click();
  await casLogin(page, username, password);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

test.describe('central login', () => {
  test('a visitor browses every public page without being sent to the login', async ({ page, baseURL }) => {
    const loginRequests: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/cas/login')) loginRequests.push(frame.url());
    });
    for (const path of ['/', '/news', '/knowledge', '/settled', '/mark', '/product', '/remote', '/privacy', '/service']) {
      await page.goto(path);
      await expect(header(page).getByRole('link', { name: /登\s*录/ })).toBeVisible();
      await silentCheckDone(page);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    expect(loginRequests).toEqual([]);
    expect(baseURL).toBeTruthy();
  });

  test('log in at the CAS, see name and enterprise, single sign-on survives a new tab, log out', async ({ page, context }) => {
    await loginFromHeader(page, '/news', 'admin');
    await expect(header(page).getByText('张伟')).toBeVisible();
    await expect(header(page).getByText('徐州恒岳重工机械有限公司')).toBeVisible();
    await expect(
      header(page)
        .getByRole('link', { name: '控制台' })
        .or(header(page).getByRole('button', { name: '控制台' })),
    ).toBeVisible();

    // A second tab of the same browser is logged in too (the portal session cookie).
    const second = await context.newPage();
    await second.goto('/knowledge');
    await expect(header(second).getByText('张伟')).toBeVisible();
    await second.close();

    // Logout (spec section 4): the CAS ends the SSO session and single logout ends the portal session.
    await userMenu(page, '张伟', '退出登录', () => expect(page).toHaveURL(/\/$/));
    await expect(header(page).getByRole('link', { name: /登\s*录/ })).toBeVisible();
    const menus = await page.request.get('/web/portal/menu/list');
    expect((await menus.json()).data).toEqual([]);
  });

  test('silent single sign-on: logged in at the CAS, the portal picks the session up without a redirect', async ({ page, context }) => {
    // Log in at the CAS only (no portal session yet).
    await page.goto('/cas/login');
    await page.getByLabel('账号').fill('staff');
    await page.getByLabel('密码').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page.getByRole('heading', { name: '登录成功' })).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === 'PORTAL_SESSION')).toBe(false);
    await page.goto('/news');
    await expect(header(page).getByText('李娜')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/news');
  });

  test('a service-customer employee sees no console button', async ({ page }) => {
    await loginFromHeader(page, '/', 'service');
    await expect(header(page).getByText('王强')).toBeVisible();
    await expect(header(page).getByText('常州瑞驰液压科技有限公司')).toBeVisible();
    await expect(header(page).getByText('控制台')).toHaveCount(0);
  });

  test('the detail page sends a visitor to the central login from 请先登录', async ({ page, context }) => {
    const list = await page.request.get('/open-api/cms/v1/article/published/page/list?offset=0&limit=1');
    const uuid = (await list.json()).data[0].rows[0].uuid as string;
    await page.goto(`/news/detail?id=${uuid}`);
    await expect(page.getByRole('dialog', { name: '请先登录' })).toBeVisible();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await casLogin(page, 'operator', DEMO_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/news/detail\\?id=${uuid}$`));
    await expect(page.getByRole('dialog', { name: '请先登录' })).toHaveCount(0);
    expect((await context.cookies()).find((c) => c.name === 'PORTAL_SESSION')?.httpOnly).toBe(true);
  });
});

test.describe('registration', () => {
  test('register with an SMS code, log in, change the password, log out, log in with the new one', async ({ page }) => {
    // A dozen steps through two sites and three dialogs: the default 30 s is for single pages.
    test.slow();
    const phone = '139' + String(Date.now()).slice(-8);
    const username = 'e2e' + String(Date.now()).slice(-6);
    await page.goto('/?register=1');
    const dialog = page.getByRole('dialog', { name: '用户注册' });
    await expect(dialog).toBeVisible();
    expect((await dialog.boundingBox())?.width).toBeLessThanOrEqual(460);

    // Client-side rules first.
    await dialog.getByRole('button', { name: /注\s*册/ }).click();
    await expect(dialog.getByText('请输入用户名')).toBeVisible();
    await expect(dialog.getByText('请输入手机号')).toBeVisible();

    const sms = dialog.getByRole('button', { name: '获取验证码' });
    await expect(sms).toBeDisabled();
    await dialog.getByLabel('手机号').fill(phone);
    await expect(sms).toBeEnabled();
    await sms.click();
    await expect(page.getByText('验证码已发送，请注意查收')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled();

    const outbox = await page.request.get(`/dev/sms-outbox?phone=${phone}`);
    const code = (await outbox.json()).data[0].params.code as string;
    expect(code).toMatch(/^\d{6}$/);

    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('邮箱').fill(`${username}@example.cn`);
    await dialog.getByLabel('企业名称').fill(`苏州${username}智能装备有限公司`);
    await dialog.getByLabel('密码', { exact: true }).fill('First#2026');
    await dialog.getByLabel('确认密码').fill('First#2026');
    await dialog.getByLabel('验证码').fill(code);
    await dialog.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
    await dialog.getByRole('button', { name: /注\s*册/ }).click();
    await expect(page.getByText('注册成功，请使用账号和密码登录')).toBeVisible();
    await page.getByRole('button', { name: '去登录' }).click();

    await casLogin(page, username, 'First#2026');
    await expect(header(page).getByText(`苏州${username}智能装备有限公司`)).toBeVisible();

    // Change the password from the header's user menu.
    const pwd = page.getByRole('dialog', { name: '修改密码' });
    await userMenu(page, username, '修改密码', () => expect(pwd).toBeVisible());
    await pwd.getByLabel('原密码').fill('First#2026');
    await pwd.getByLabel('新密码', { exact: true }).fill('Second#2026');
    await pwd.getByLabel('确认新密码').fill('Second#2026');
    await pwd.getByRole('button', { name: /确\s*定|保\s*存|提\s*交/ }).click();
    await expect(page.getByText('密码修改成功')).toBeVisible();

    await userMenu(page, username, '退出登录', () => expect(header(page).getByRole('link', { name: /登\s*录/ })).toBeVisible());

    await header(page)
      .getByRole('link', { name: /登\s*录/ })
      .click();
    await casLogin(page, username, 'First#2026');
    await expect(page.getByText(/用户名或密码错误/)).toBeVisible();
    await page.getByLabel('密码').fill('Second#2026');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(header(page).getByText(`苏州${username}智能装备有限公司`)).toBeVisible();
  });
});

test.describe('content write API', () => {
  test('an article published through the write API appears on /news', async ({ page }) => {
    await loginFromHeader(page, '/news', 'operator');
    const menus = await page.request.get('/web/portal/menu/list');
    const token = `Bearer ${(await menus.json()).data[0].token.access_token as string}`;
    const headers = { authorization: token, 'x-requested-with': 'XMLHttpRequest' };
    const title = `恒岳重工智慧园区二期投产仪式 ${Date.now()}`;
    const created = await page.request.post('/web-api/cms/v1/article', {
      headers,
      data: {
        title,
        summary: '新园区引入数字孪生与设备上云，年产能提升三成。',
        content: '<p>园区正式投产。</p>',
        categoryId: 'enterprise',
        dataSourceName: '企业新闻中心',
      },
    });
    const uuid = (await created.json()).data[0].uuid as string;
    const published = await page.request.post(`/web-api/cms/v1/article/${uuid}/publish`, { headers });
    expect((await published.json()).msg).toBe('文章已发布');

    await page.goto('/news');
    await page.getByRole('tab', { name: '企业新闻' }).click();
    await expect(page.getByRole('list', { name: '文章' }).getByRole('heading', { level: 2 }).first()).toHaveText(title);
  });
});
