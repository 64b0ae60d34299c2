import type { Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD } from './console-helpers.js';
import { animationsDone, expect, scrollStill, test } from './fixtures.js';

/** The header's items (seeded, spec section 2), the path each leads to and the page's title. */
const NAV: [title: string, path: string, pageTitle: string][] = [
  ['首页', '/', '首页'],
  ['应用推荐', '/product', '应用推荐'],
  ['开放服务', '/open-service', '开放服务'],
  ['标识查询', '/mark', '标识查询'],
  ['行业资讯', '/news', '行业资讯'],
  ['行业知识', '/knowledge', '行业知识'],
  ['入驻指南', '/settled', '入驻指南'],
  ['远程运维', '/remote', '远程运维'],
];

const header = (page: Page) => page.getByRole('banner');
const drawer = (page: Page) => page.getByRole('dialog', { name: '菜单' });

/** Opens the phone header's drawer and waits until it has slid in. */
async function openDrawer(page: Page): Promise<Locator> {
  await header(page).getByRole('button', { name: '打开菜单' }).click();
  await expect(drawer(page)).toBeVisible();
  await animationsDone(drawer(page).getByRole('navigation', { name: '主导航' }));
  return drawer(page);
}

/** Logs in at the central login the page's 登录 link leads to, and comes back to `path`. */
async function logIn(page: Page, login: Locator, username: string, path: string) {
  await login.click();
  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

/** Resolves once the page has stopped scrolling (a menu's click scrolls it smoothly). */
const scrollSettled = scrollStill;

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

test.describe('public header on a phone @mobile', () => {
  test('the header shows the logo, 登录 and a menu button; the drawer reaches every page', async ({ page }) => {
    await page.goto('/');
    const bar = (await header(page).boundingBox())!;
    for (const part of [
      header(page).getByRole('link', { name: /^Engineering e\+/ }),
      header(page).getByRole('link', { name: /登\s*录/ }),
      header(page).getByRole('button', { name: '打开菜单' }),
    ]) {
      await expect(part).toBeVisible();
      expect(inside((await part.boundingBox())!, bar)).toBe(true);
    }
    // The desktop menu and 注册 are in the drawer now, not squeezed into the bar.
    await expect(header(page).getByRole('navigation', { name: '主导航' })).toBeHidden();
    await expect(header(page).getByRole('button', { name: /注\s*册/ })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    for (const [title, path, pageTitle] of NAV) {
      const menu = await openDrawer(page);
      const item = menu.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: title, exact: true });
      await expect(item).toBeVisible();
      await item.click();
      await expect(page).toHaveURL((url) => url.pathname === path);
      await expect(page).toHaveTitle(`${pageTitle} - Engineering e+`);
      await expect(drawer(page)).toBeHidden();
      // The page's own item is marked in the drawer.
      const again = await openDrawer(page);
      await expect(again.getByRole('link', { name: title, exact: true })).toHaveAttribute('aria-current', 'page');
      await again
        .getByRole('button', { name: 'Close' })
        .or(again.getByRole('button', { name: /关闭/ }))
        .click();
      await expect(drawer(page)).toBeHidden();
    }
  });

  test('a visitor registers or logs in from the drawer', async ({ page, baseURL }) => {
    await page.goto('/news');
    const menu = await openDrawer(page);
    await expect(menu.getByRole('link', { name: /登\s*录/ })).toHaveAttribute('href', `${baseURL}/web/portal/cas/login?target=%2Fnews`);
    await menu.getByRole('button', { name: /注\s*册/ }).click();
    await expect(page.getByRole('dialog', { name: '用户注册' })).toBeVisible();
    await expect(drawer(page)).toBeHidden();
  });

  test('logged in: name, enterprise, 控制台 and 退出登录 in the drawer', async ({ page }) => {
    await page.goto('/knowledge');
    await logIn(page, (await openDrawer(page)).getByRole('link', { name: /登\s*录/ }), 'admin', '/knowledge');
    // The bar keeps the user's avatar (its menu) beside the menu button.
    await expect(header(page).getByRole('button', { name: /^张伟，徐州恒岳重工机械有限公司/ })).toBeVisible();
    const menu = await openDrawer(page);
    const account = menu.getByRole('region', { name: '当前用户' });
    await expect(account.getByText('张伟')).toBeVisible();
    await expect(account.getByText('徐州恒岳重工机械有限公司')).toBeVisible();
    await expect(account.getByRole('link', { name: '控制台' })).toHaveAttribute('href', /\/console$/);
    await expect(menu.getByRole('link', { name: /登\s*录/ })).toHaveCount(0);
    await account.getByRole('button', { name: '退出登录' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(header(page).getByRole('link', { name: /登\s*录/ })).toBeVisible();
  });

  test('a service-customer employee’s drawer has no 控制台', async ({ page }) => {
    await page.goto('/');
    await logIn(page, header(page).getByRole('link', { name: /登\s*录/ }), 'service', '/');
    const menu = await openDrawer(page);
    await expect(menu.getByRole('region', { name: '当前用户' }).getByText('王强')).toBeVisible();
    await expect(menu.getByRole('button', { name: '退出登录' })).toBeVisible();
    await expect(menu.getByText('控制台')).toHaveCount(0);
  });

  test('the settling-in guide’s section bar stays under the header and highlights the section clicked', async ({ page }) => {
    await page.goto('/settled');
    const sections = page.getByRole('navigation', { name: '本页目录' });
    await expect(sections).toBeVisible();
    const current = (name: string) => sections.getByRole('link', { name }).locator('[aria-current="location"]');

    await sections.getByRole('link', { name: '常见问题' }).click();
    await expect(current('常见问题')).toHaveCount(1);
    await scrollSettled(page);
    // At the bottom of the page (scrolled by hand) the last section is the one highlighted.
    await page.mouse.move(180, 500);
    await page.mouse.wheel(0, 20_000);
    await expect
      .poll(() => page.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2))
      .toBe(true);
    await expect(current('常见问题')).toHaveCount(1);

    // From there, a click on an earlier section highlights that section, not the last one.
    await sections.getByRole('link', { name: '注册登录' }).click();
    await expect(current('注册登录')).toHaveCount(1);
    await scrollSettled(page);
    await expect(sections.locator('.ant-anchor-link-title-active')).toHaveText('注册登录');
    const heading = page.getByRole('heading', { level: 2, name: '第一步 注册登录' });
    // Its heading ends up below the header and the bar, not behind them.
    await expect
      .poll(async () => {
        const top = (await heading.boundingBox())!.y;
        const barBottom = await sections.evaluate((el) => el.getBoundingClientRect().bottom);
        return top >= barBottom && top < barBottom + 120;
      })
      .toBe(true);
    const bar = (await sections.boundingBox())!;
    expect(bar.y).toBeGreaterThanOrEqual(63);

    // Scrolling by hand: the position decides again.
    await page.mouse.wheel(0, 20_000);
    await expect(current('常见问题')).toHaveCount(1);
  });

  test('the app download page fits a phone and says how to get the app, not a code to scan', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: /扫码下载 App/ }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/app-download');
    // No APP_PACKAGE_URL on this server: whom to ask, never a link to a package nobody published.
    await expect(page.getByText('安装包暂未开放下载，请联系企业管理员获取')).toBeVisible();
    await expect(page.getByRole('link', { name: '下载安装包' })).toHaveCount(0);
    await expect(page.getByRole('img', { name: '本页的二维码' })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe('public header on a computer', () => {
  test('logged in, all eight items fit beside the user box at 1280, 1440 and 1920 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await logIn(page, header(page).getByRole('link', { name: /登\s*录/ }), 'admin', '/');
    const user = header(page).getByRole('button', { name: /^张伟，徐州恒岳重工机械有限公司/ });
    await expect(user).toBeVisible();
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      const bar = (await header(page).boundingBox())!;
      const menu = header(page).getByRole('navigation', { name: '主导航' });
      const track = (await menu.boundingBox())!;
      const items = menu.getByRole('link');
      await expect(items).toHaveCount(8);
      await expect(header(page).getByRole('button', { name: /滚动菜单/ })).toHaveCount(0);
      let right = 0;
      for (const [i, [title]] of NAV.entries()) {
        const item = items.nth(i);
        await expect(item).toHaveText(title);
        const box = (await item.boundingBox())!;
        expect(inside(box, track), `${title} inside the menu at ${width} px`).toBe(true);
        expect(inside(box, bar), `${title} inside the header at ${width} px`).toBe(true);
        // Its text is not cut (nothing overflows the link) and nothing lies over its middle.
        expect(await item.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        expect(
          await item.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
          }),
        ).toBe(true);
        right = box.x + box.width;
      }
      // The console button and the user box follow the last item, inside the header.
      const console = header(page).getByRole('link', { name: '控制台' });
      const consoleBox = (await console.boundingBox())!;
      const userBox = (await user.boundingBox())!;
      expect(consoleBox.x, `控制台 after the items at ${width} px`).toBeGreaterThanOrEqual(right);
      expect(userBox.x).toBeGreaterThanOrEqual(consoleBox.x + consoleBox.width);
      expect(inside(consoleBox, bar) && inside(userBox, bar)).toBe(true);
      await expect(user.getByText('徐州恒岳重工机械有限公司')).toBeVisible();
      await expect(header(page).getByRole('button', { name: '打开菜单' })).toBeHidden();
    }
  });

  test('where the items do not fit, the menu scrolls in 200 px steps', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 800 });
    await page.goto('/');
    const track = header(page).getByRole('navigation', { name: '主导航' });
    const last = track.getByRole('link', { name: '远程运维' });
    await expect(last).toBeAttached();
    await expect(header(page).getByRole('button', { name: '向左滚动菜单' })).toHaveCount(0);
    const right = header(page).getByRole('button', { name: '向右滚动菜单' });
    await expect(right).toBeVisible();
    const { before, max } = await track.evaluate((el) => ({ before: el.scrollLeft, max: el.scrollWidth - el.clientWidth }));
    expect(max).toBeGreaterThan(0);
    await right.click();
    // One step of 200 px, or to the end where less is left.
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(Math.min(before + 200, max));
    await expect(last).toBeInViewport({ ratio: 1 });
    await header(page).getByRole('button', { name: '向左滚动菜单' }).click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(before);
  });

  test('the settling-in guide highlights the section clicked, also from the bottom of the page', async ({ page }) => {
    await page.goto('/settled');
    const menu = page.getByRole('complementary', { name: '本页目录' });
    const current = (name: string) => menu.getByRole('link', { name }).locator('[aria-current="location"]');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(current('常见问题')).toHaveCount(1);
    await menu.getByRole('link', { name: '第二步 企业认证' }).click();
    await expect(current('第二步 企业认证')).toHaveCount(1);
    await expect(menu.locator('.ant-anchor-link-title-active')).toHaveText('第二步 企业认证');
    // The section's heading is where the click took the page, and stays highlighted after the scroll.
    await scrollSettled(page);
    await expect(page.getByRole('heading', { level: 2, name: '第二步 企业认证' })).toBeInViewport();
    await expect(current('第二步 企业认证')).toHaveCount(1);
  });

  test('registration requires the consent; the agreements open in a new tab', async ({ page, context }) => {
    const phone = '137' + String(Date.now()).slice(-8);
    const username = 'hdr' + String(Date.now()).slice(-6);
    const registrations: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/web-api/register/v1/user')) registrations.push(req.url());
    });
    await page.goto('/');
    await header(page)
      .getByRole('button', { name: /注\s*册/ })
      .click();
    const dialog = page.getByRole('dialog', { name: '用户注册' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('密码', { exact: true })).toHaveAttribute('placeholder', '6-18 位，区分大小写');
    await expect(dialog.getByRole('link', { name: '去登录' })).toHaveAttribute('href', /\/web\/portal\/cas\/login\?target=%2F$/);

    const privacy = context.waitForEvent('page');
    await dialog.getByRole('link', { name: '《隐私协议》' }).click();
    const tab = await privacy;
    await expect(tab).toHaveURL(/\/privacy$/);
    await tab.close();
    await expect(dialog.getByRole('link', { name: '《用户协议》' })).toHaveAttribute('target', '_blank');

    await dialog.getByLabel('手机号').fill(phone);
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await expect(page.getByText('验证码已发送，请注意查收')).toBeVisible();
    const outbox = await page.request.get(`/dev/sms-outbox?phone=${phone}`);
    const code = ((await outbox.json()) as { data: { params: { code: string } }[] }).data[0]!.params.code;
    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
    await dialog.getByLabel('确认密码').fill(DEMO_PASSWORD);
    await dialog.getByLabel('验证码').fill(code);

    const consent = dialog.getByRole('checkbox', { name: /我已阅读并同意《用户协议》《隐私协议》/ });
    await expect(consent).not.toBeChecked();
    await dialog.getByRole('button', { name: /注\s*册/ }).click();
    await expect(dialog.getByText('请阅读并同意《用户协议》和《隐私协议》')).toBeVisible();
    expect(registrations).toEqual([]);

    await consent.check();
    await dialog.getByRole('button', { name: /注\s*册/ }).click();
    await expect(page.getByText('注册成功，请使用账号和密码登录')).toBeVisible();
    expect(registrations).toHaveLength(1);
  });

  test('footer: phone and e-mail are links; 扫码下载 App leads to the app download page', async ({ page, baseURL }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: '400-807-0807' })).toHaveAttribute('href', 'tel:4008070807');
    await expect(footer.getByRole('link', { name: 'service@eplus-industry.cn' })).toHaveAttribute(
      'href',
      'mailto:service@eplus-industry.cn',
    );
    // The code holds the page's address: a phone scanning it lands there.
    const app = footer.getByRole('link', { name: /扫码下载 App/ });
    await expect(app).toHaveAttribute('href', '/app-download');
    await app.click();
    await expect(page).toHaveURL(`${baseURL}/app-download`);
    await expect(page).toHaveTitle('App 下载 - Engineering e+');
    await expect(page.getByRole('img', { name: '本页的二维码' })).not.toHaveAttribute('aria-busy', 'true');
    for (const platform of ['Android', 'iPhone / iPad', 'HarmonyOS']) {
      await expect(page.getByRole('heading', { level: 3, name: platform })).toBeVisible();
    }
  });

  test('the app download page arrives rendered by the server', async ({ page }) => {
    const res = await page.request.get('/app-download', { headers: { accept: 'text/html' } });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>App 下载 - Engineering e+</title>');
    for (const text of ['Engineering e+ App', 'Android 8.0 及以上', 'iOS 13.0 及以上', '更新记录']) expect(html).toContain(text);
  });
});

test.describe('home', () => {
  test('the carousel’s arrows sit beside its dots, clear of every card', async ({ page }) => {
    await page.goto('/');
    const carousel = page.getByRole('group', { name: '推荐应用' });
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel.getByRole('button', { name: /^第 \d+ 个应用$/ })).toHaveCount(6);
    const cards = await carousel
      .locator('.swiper-slide-visible, .swiper-slide')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0));
    for (const name of ['上一个', '下一个']) {
      const arrow = (await carousel.getByRole('button', { name, exact: true }).boundingBox())!;
      for (const card of cards) {
        const overlaps =
          arrow.x < card.right && arrow.x + arrow.width > card.left && arrow.y < card.bottom && arrow.y + arrow.height > card.top;
        expect(overlaps, `${name} over a card`).toBe(false);
      }
    }
    const before = await carousel.locator('[aria-current="true"]').getAttribute('aria-label');
    await carousel.getByRole('button', { name: '下一个', exact: true }).click();
    await expect(carousel.locator('[aria-current="true"]')).not.toHaveAttribute('aria-label', before ?? '');
  });

  test('资源地图 ranks the regions and opens one to its provinces', async ({ page }) => {
    await page.goto('/');
    const ranking = page.getByRole('list', { name: '各区域接入设备与服务网点排名' });
    await ranking.scrollIntoViewIfNeeded();
    const rows = ranking.getByRole('listitem');
    await expect(rows).toHaveCount(7);
    await expect(rows.first()).toContainText('华东');
    const provinces = rows.first().getByRole('table', { name: '华东各省级行政区' });
    await expect(provinces).toBeHidden();
    await rows.first().getByText('华东', { exact: true }).click();
    await expect(provinces).toBeVisible();
    await expect(provinces.getByRole('row', { name: /江苏/ })).toContainText('14.8 万台');
  });
});
