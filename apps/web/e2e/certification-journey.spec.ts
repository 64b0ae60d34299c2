import fs from 'node:fs';
import { CREDIT_CODE_CHARSET, creditCodeCheckChar } from '@portal/shared';
import type { Browser, BrowserContext, Locator, Page, Response } from '@playwright/test';
import { licencePng, pdfDocument } from './certification-materials.js';
import { DEMO_PASSWORD, openConsole, sidebarMenu, tab } from './console-helpers.js';
import { expect, test } from './fixtures.js';

/**
 * 企业认证's journey in a real browser: a new enterprise registers on the
 * public site, finds its console marked uncertified and 标识管理 closed, applies as 经办人 with a licence
 * and an authorisation letter, is rejected by the demo reviewer with two reasons (shown at their fields),
 * resubmits, is approved, and then finds the banner gone, 已认证 in the public header and 前缀与模板
 * open. The materials stay private all along. At 1440 px and at 375 px, each with its own enterprise.
 */

/** Screenshots for a person to look at; outside the repository. */
const SHOTS = process.env.CERT_SHOTS_DIR ?? '/tmp/cert-shots';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** A valid unified social credit code (GB 32100-2015): 91 (enterprise), a city, nine random characters, the check character. */
function creditCode(): string {
  const org = Array.from({ length: 9 }, () => String(Math.floor(Math.random() * 10))).join('');
  const first17 = `913205${String(Math.floor(Math.random() * 100)).padStart(2, '0')}${org}`;
  expect(first17).toMatch(new RegExp(`^[${CREDIT_CODE_CHARSET}]{17}$`));
  return first17 + creditCodeCheckChar(first17);
}

/** The same code with any other check character. */
function wrongCheck(code: string): string {
  const other = [...CREDIT_CODE_CHARSET].find((c) => c !== code.charAt(17))!;
  return code.slice(0, 17) + other;
}

const header = (page: Page) => page.getByRole('banner');
/** The console's notice for an uncertified enterprise (any of its three states). */
const certificationBanner = (page: Page) => page.getByRole('alert').filter({ hasText: /企业尚未完成认证|企业认证审核中|企业认证被驳回/ });

/**
 * A screenshot; on a phone the page must also fit the screen's width (nothing to scroll sideways).
 * `whole` pages are taken by making the window as tall as the page: Chromium's own full-page capture
 * can lay the page out narrower for a moment, which the console takes for a phone and closes its sidebar.
 */
async function shot(page: Page, name: string, width: number, whole = false): Promise<void> {
  if (width < 768) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const viewport = page.viewportSize()!;
  const height = whole ? await page.evaluate(() => document.documentElement.scrollHeight) : viewport.height;
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  if (height > viewport.height) await page.setViewportSize(viewport);
}

/** Picks `file` in the system dialog a click on `button` opens. */
async function choose(page: Page, button: Locator, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** Opens a console page from the sidebar; on a phone the sidebar is a drawer opened first. */
async function openFromMenu(page: Page, phone: boolean, group: string, item: string): Promise<void> {
  if (phone) await page.getByRole('button', { name: '展开菜单' }).click();
  const menu = sidebarMenu(page);
  await menu.getByText(group, { exact: true }).click();
  await menu.getByText(item, { exact: true }).click();
}

/** Each private-material upload's answer (the file's id), as the browser received it. */
function recordUploads(page: Page): number[] {
  const ids: number[] = [];
  page.on('response', (res) => {
    if (res.request().method() === 'POST' && res.url().endsWith('/web-api/console/v1/enterprise/certification/file') && res.ok()) {
      void res
        .json()
        .then((body: { data: { id: number }[] }) => ids.push(body.data[0]!.id))
        .catch(() => undefined);
    }
  });
  return ids;
}

/**
 * Watches a browser's answers under the public /files/; the returned check lists those that carried one
 * of `materials` (a PDF at all, or the very bytes of an uploaded image). Called before the context closes.
 */
function watchPublicFiles(context: BrowserContext, materials: Buffer[]): () => Promise<string[]> {
  const seen: Promise<string | null>[] = [];
  context.on('response', (res: Response) => {
    if (!new URL(res.url()).pathname.startsWith('/files/')) return;
    seen.push(
      res
        .body()
        .catch(() => Buffer.alloc(0))
        .then((body) => {
          const material = res.headers()['content-type']?.includes('pdf') || materials.some((m) => m.equals(body));
          return material ? res.url() : null;
        }),
    );
  });
  return async () => (await Promise.all(seen)).filter((url): url is string => url !== null);
}

/** Step 1: 注册 on the public site with the code from the development SMS outbox, then the central login. */
async function register(page: Page, phone: boolean, account: { username: string; phone: string; enterpriseName: string }) {
  await page.goto('/');
  if (phone) {
    // On a phone the header's bar offers 登录 (注册 is in its menu); the central login page links to the registration.
    await header(page)
      .getByRole('link', { name: /登\s*录/ })
      .click();
    await page.getByRole('link', { name: '没有账号？立即注册' }).click();
  } else {
    await header(page)
      .getByRole('button', { name: /注\s*册/ })
      .click();
  }
  const dialog = page.getByRole('dialog', { name: '用户注册' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('手机号').fill(account.phone);
  await dialog.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送，请注意查收')).toBeVisible();
  let code = '';
  await expect
    .poll(async () => {
      const outbox = await page.request.get(`/dev/sms-outbox?phone=${account.phone}`);
      code = ((await outbox.json()) as { data: { params: { code?: string } }[] }).data[0]?.params.code ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await dialog.getByLabel('用户名').fill(account.username);
  await dialog.getByLabel('企业名称').fill(account.enterpriseName);
  await dialog.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await dialog.getByLabel('确认密码').fill(DEMO_PASSWORD);
  await dialog.getByLabel('验证码').fill(code);
  await dialog.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await dialog.getByRole('button', { name: /注\s*册/ }).click();
  await expect(page.getByText('注册成功，请使用账号和密码登录')).toBeVisible();
  await page.getByRole('button', { name: '去登录' }).click();

  await expect(page).toHaveURL(/\/cas\/login\?service=/);
  await page.getByLabel('账号').fill(account.username);
  await page.getByLabel('密码').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  // Back on the public site, logged in: the enterprise's name, not marked 已认证.
  await expect(header(page).getByRole('button', { name: new RegExp(`，${account.enterpriseName}$`) })).toBeVisible();
}

/** The reviewer's 认证审核 in its own browser: the pending application found by name. */
async function findApplication(page: Page, enterpriseName: string): Promise<Locator> {
  await page.getByRole('textbox', { name: '企业名称或信用代码' }).fill(enterpriseName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.getByRole('row', { name: new RegExp(enterpriseName) });
  await expect(row.getByText('待审核')).toBeVisible();
  return row;
}

/** 审核 on the row: the detail drawer with the application. */
async function openApplication(page: Page, row: Locator, enterpriseName: string): Promise<Locator> {
  await row.getByRole('button', { name: /审\s*核/ }).click();
  const drawer = page.getByRole('dialog', { name: new RegExp(`认证审核：${enterpriseName}`) });
  await expect(drawer.getByRole('region', { name: '申请信息' })).toBeVisible();
  return drawer;
}

async function journey(page: Page, browser: Browser, baseURL: string | undefined, phone: boolean) {
  const width = phone ? 375 : 1440;
  fs.mkdirSync(SHOTS, { recursive: true });
  const tag = unique();
  const account = {
    username: `cj${tag}`,
    // 15x: a range no other spec registers in.
    phone: `15${phone ? 8 : 9}${String(Date.now() % 100_000_000).padStart(8, '0')}`,
    enterpriseName: `苏州${tag}精密机械有限公司`,
  };
  const licence = { name: 'licence.png', mimeType: 'image/png', buffer: licencePng(480, 320, [181, 137, 0]) };
  const clearLicence = { name: 'licence-clear.png', mimeType: 'image/png', buffer: licencePng(600, 400, [203, 75, 22]) };
  const authorization = { name: 'authorization.pdf', mimeType: 'application/pdf', buffer: pdfDocument(['Authorization letter']) };
  const materials = [licence.buffer, clearLicence.buffer, authorization.buffer];
  const applicantFiles = watchPublicFiles(page.context(), materials);
  const uploads = recordUploads(page);

  // 1. Registration and the central login.
  await register(page, phone, account);
  await page.goto('/console', { waitUntil: 'commit' });
  await expect(page.getByRole('navigation', { name: '控制台菜单' })).toBeAttached();

  // 2. The banner; 标识管理 closed; 去认证 leads to 企业信息's 企业认证 tab.
  const banner = certificationBanner(page);
  await expect(banner).toContainText('企业尚未完成认证');
  await expect(banner.getByRole('link', { name: '去认证' })).toBeVisible();
  await shot(page, 'banner', width);
  await openFromMenu(page, phone, '标识管理', '前缀与模板');
  await expect(page).toHaveURL(/\/console\/identifier\/template$/);
  await expect(page.getByText('企业认证通过后开放标识管理')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await certificationBanner(page).getByRole('link', { name: '去认证' }).click();
  await expect(page).toHaveURL(/\/console\/enterprise\?tab=certification$/);
  await expect(page.getByRole('tab', { name: '企业认证', selected: true })).toBeVisible();
  const status = page.getByRole('region', { name: '认证状态' });
  await expect(status).toContainText('未认证');
  await page.getByRole('tab', { name: '基本信息' }).click();
  await expect(page.getByRole('tab', { name: '基本信息', selected: true })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: '基本信息' }).getByText(account.enterpriseName).first()).toBeVisible();
  await shot(page, 'enterprise-basic', width, true);
  await page.getByRole('tab', { name: '企业认证' }).click();

  // 3. The submission as 经办人; a wrong check character is refused in Chinese first.
  const form = page.getByRole('region', { name: '提交认证材料' });
  await expect(form).toBeVisible();
  await shot(page, 'enterprise-certification', width, true);
  await form.getByRole('textbox', { name: '企业名称' }).fill(account.enterpriseName);
  const firstCode = creditCode();
  const codeBox = form.getByRole('textbox', { name: '统一社会信用代码' });
  await codeBox.fill(wrongCheck(firstCode));
  await expect(form.getByText('统一社会信用代码校验位不正确，请核对')).toBeVisible();
  await codeBox.fill(firstCode);
  await expect(form.getByText('统一社会信用代码校验位不正确，请核对')).toHaveCount(0);
  await form.getByRole('textbox', { name: '法定代表人' }).fill('顾建华');
  await form.getByRole('radio', { name: /经办人/ }).check();
  await choose(page, form.getByRole('button', { name: '营业执照：选择文件' }), licence);
  await expect(form.getByRole('button', { name: '查看营业执照 licence.png' })).toBeVisible();
  await choose(page, form.getByRole('button', { name: '授权书：选择文件' }), authorization);
  await expect(form.getByRole('button', { name: '查看授权书 authorization.pdf' })).toBeVisible();
  await form.getByRole('checkbox', { name: /本人承诺/ }).check();
  await form.getByRole('button', { name: '提交认证' }).click();
  await expect(status).toContainText('待审核');
  await expect(form).toHaveCount(0);
  await expect.poll(() => uploads.length).toBe(2);

  // The materials are private: without the token (a fresh browser) the API gives no file.
  const stranger = await browser.newContext({ baseURL });
  for (const id of uploads) {
    const res = await stranger.request.get(`/web-api/console/v1/enterprise/certification/file/${id}`);
    expect(res.status(), `material ${id} without a token`).toBe(401);
    expect(res.headers()['content-type']).toMatch(/^application\/json/);
    expect(((await res.json()) as { code: number }).code).not.toBe(0);
  }
  await stranger.close();

  // 4. The demo reviewer, in a browser of its own, rejects with two reasons.
  const { viewport, hasTouch } = test.info().project.use;
  const reviewerContext = await browser.newContext({ baseURL, viewport, hasTouch, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const reviewerFiles = watchPublicFiles(reviewerContext, materials);
  const reviewer = await reviewerContext.newPage();
  await openConsole(reviewer, 'reviewer', '/console/certification');
  let row = await findApplication(reviewer, account.enterpriseName);
  await shot(reviewer, 'review-list', width, true);
  let drawer = await openApplication(reviewer, row, account.enterpriseName);
  await shot(reviewer, 'review-detail', width);
  const viewer = drawer.getByRole('region', { name: '认证材料' });
  const image = viewer.getByRole('img', { name: 'licence.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(480);
  expect(await image.evaluate((el) => (el as HTMLImageElement).src)).toMatch(/^blob:/);
  if (phone) {
    // Below the application's facts on a phone.
    await viewer.scrollIntoViewIfNeeded();
    await shot(reviewer, 'review-detail-materials', width);
  }
  await viewer.getByRole('tab', { name: '授权书' }).click();
  await expect(viewer.getByText('共 1 页')).toBeVisible();
  await expect(viewer.getByRole('img', { name: '第 1 页' })).toBeVisible();
  await drawer.getByRole('button', { name: /驳\s*回/ }).click();
  const reject = reviewer.getByRole('dialog', { name: '驳回认证申请' });
  await reject.getByRole('checkbox', { name: '营业执照不清晰' }).check();
  await reject.getByRole('checkbox', { name: '统一社会信用代码与执照不一致' }).check();
  await reject.getByRole('button', { name: /驳\s*回/ }).click();
  await expect(reject).toBeHidden();
  await expect(drawer.getByRole('region', { name: '审核结果' }).getByText('营业执照不清晰、统一社会信用代码与执照不一致')).toBeVisible();

  // 5. The applicant: the bell counts the result; each reason is at its field; the fix is resubmitted.
  await page.reload();
  const bell = page.getByRole('button', { name: '消息中心，1 条未读' });
  await bell.click();
  await expect(page.getByRole('list', { name: '未读消息' }).getByText('企业认证未通过')).toBeVisible();
  await page.getByRole('link', { name: /查看全部/ }).click();
  await expect(page).toHaveURL(/\/console\/message$/);
  await expect(page.getByRole('list', { name: '消息列表' }).getByText(/营业执照不清晰/)).toBeVisible();
  await shot(page, 'messages', width);
  await page.goto('/console/enterprise?tab=certification');
  await expect(status).toContainText('已驳回');
  const again = page.getByRole('region', { name: '修改并重新提交' });
  const code = again.getByRole('textbox', { name: '统一社会信用代码' });
  await expect(code).toHaveValue(firstCode);
  await expect(code).toHaveAccessibleDescription(/驳回原因：统一社会信用代码与执照不一致/);
  await expect(code).not.toHaveAccessibleDescription(/营业执照不清晰/);
  const replace = again.getByRole('button', { name: '重新上传营业执照' });
  await expect(replace).toHaveAccessibleDescription(/驳回原因：营业执照不清晰/);
  await expect(replace).not.toHaveAccessibleDescription(/统一社会信用代码/);
  await shot(page, 'enterprise-rejected', width, true);
  await code.fill(creditCode());
  await choose(page, replace, clearLicence);
  await expect(again.getByRole('button', { name: '查看营业执照 licence-clear.png' })).toBeVisible();
  await again.getByRole('checkbox', { name: /本人承诺/ }).check();
  await again.getByRole('button', { name: '提交认证' }).click();
  await expect(status).toContainText('待审核');

  // 6. The reviewer approves the new application.
  await drawer.getByRole('button', { name: /关闭|Close/ }).click();
  await expect(drawer).toBeHidden();
  row = await findApplication(reviewer, account.enterpriseName);
  drawer = await openApplication(reviewer, row, account.enterpriseName);
  await expect(drawer.getByRole('region', { name: '历史申请（1）' })).toContainText('已驳回');
  await expect(drawer.getByRole('region', { name: '认证材料' }).getByRole('img', { name: 'licence-clear.png' })).toBeVisible();
  await drawer.getByRole('button', { name: /通\s*过/ }).click();
  const confirm = reviewer.getByRole('dialog', { name: '通过认证' });
  await confirm.getByRole('button', { name: /通\s*过/ }).click();
  await expect(drawer.getByRole('region', { name: '审核结果' })).toContainText('已通过');
  // The reviewer saw the materials through the API with the token, never from the public /files/.
  expect(await reviewerFiles()).toEqual([]);
  await reviewerContext.close();

  // 7. Certified: no banner, 已认证 in the public header, 前缀与模板 open with 申请标识前缀.
  await page.goto('/console/enterprise?tab=certification');
  await expect(status).toContainText('已认证');
  await expect(page.getByRole('region', { name: '认证记录' })).toContainText('审核通过');
  await openFromMenu(page, phone, '标识管理', '前缀与模板');
  await expect(page).toHaveURL(/\/console\/identifier\/template$/);
  const prefixes = page.getByRole('region', { name: '标识前缀' });
  await expect(prefixes.getByRole('table')).toBeVisible();
  await expect(page.getByText('企业认证通过后开放标识管理')).toHaveCount(0);
  await expect(certificationBanner(page)).toHaveCount(0);
  await page.getByRole('button', { name: '申请标识前缀' }).click();
  const request = page.getByRole('dialog', { name: '申请标识前缀' });
  await expect(request).toBeVisible();
  await request.getByRole('button', { name: /取\s*消/ }).click();
  await expect(request).toBeHidden();
  await tab(page, '企业信息').click();
  await expect(status).toContainText('已认证');
  await shot(page, 'enterprise-certified', width, true);
  await page.goto('/');
  await expect(header(page).getByRole('button', { name: new RegExp(`，${account.enterpriseName}（已认证）$`) })).toBeVisible();
  if (!phone) await expect(header(page).getByText('已认证', { exact: true })).toBeVisible();

  // Nor did the applicant's browser ever get them from there.
  expect(await applicantFiles()).toEqual([]);
}

test.describe('企业认证 journey', () => {
  test('register, banner, submit, rejected with two reasons, resubmit, approved, identifier pages open (1440 px)', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await journey(page, browser, baseURL, false);
  });

  test('the same journey on a phone (375 px) @mobile', async ({ page, browser, baseURL }) => {
    test.setTimeout(240_000);
    await journey(page, browser, baseURL, true);
  });
});
