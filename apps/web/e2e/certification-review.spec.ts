import { CREDIT_CODE_CHARSET, creditCodeCheckChar } from '@portal/shared';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { pdfDocument } from './certification-materials.js';
import { DEMO_PASSWORD, openConsole } from './console-helpers.js';
import { expect, test } from './fixtures.js';

/**
 * 认证审核 and 消息中心 in a real browser: an enterprise registered here applies with a
 * licence image and a two-page authorisation PDF (through the API); the operator reviews it (the
 * materials come with the token, the PDF is drawn by pdf.js), rejects it with two reasons, and the
 * applicant finds the result under the navbar's bell and in 消息中心.
 */

const HEADERS = { 'x-requested-with': 'XMLHttpRequest' };

/** A landscape licence-like PNG drawn by the browser. */
async function licencePng(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 900;
    canvas.height = 600;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#fdf6e3';
    g.fillRect(0, 0, 900, 600);
    g.strokeStyle = '#b58900';
    g.lineWidth = 12;
    g.strokeRect(20, 20, 860, 560);
    g.fillStyle = '#cb4b16';
    g.font = 'bold 64px sans-serif';
    g.fillText('营业执照', 320, 140);
    g.font = '28px sans-serif';
    g.fillStyle = '#333';
    g.fillText('名称：测试材料  ↑ 上', 80, 260);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

function creditCode(): string {
  const digits = String(Date.now()).slice(-8) + String(Math.floor(Math.random() * 10));
  const first17 = `91320500${digits}`.slice(0, 17);
  expect(first17).toMatch(new RegExp(`^[${CREDIT_CODE_CHARSET}]{17}$`));
  return first17 + creditCodeCheckChar(first17);
}

/** Registers an account with a new enterprise through the public API and the development SMS outbox. */
async function register(request: APIRequestContext, enterpriseName: string) {
  const n = Date.now() % 100_000_000;
  const phone = `136${String(n).padStart(8, '0')}`;
  const username = `cr${n.toString(36)}${Math.floor(Math.random() * 100)}`;
  expect((await request.post(`/web-api/register/v1/sms?phone=${phone}`, { headers: HEADERS })).status()).toBe(200);
  const outbox = await request.get(`/dev/sms-outbox?phone=${phone}`);
  const code = ((await outbox.json()) as { data: { params: { code: string } }[] }).data[0]?.params.code ?? '';
  const res = await request.post('/web-api/register/v1/user', {
    headers: HEADERS,
    data: { username, email: '', enterpriseName, password: DEMO_PASSWORD, phone, smsCode: code },
  });
  expect(res.status()).toBe(200);
  return { username, phone };
}

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

/** A new enterprise whose agent applies with a licence image and an authorisation PDF; its page stays logged in to the console. */
async function applicant(browser: Browser, baseURL: string | undefined) {
  const enterpriseName = `苏州审核${Date.now().toString(36)}精密机械有限公司`;
  const page = await newPage(browser, baseURL);
  const { username } = await register(page.request, enterpriseName);
  await openConsole(page, username);
  const menus = await page.request.get('/web/portal/menu/list');
  const headers = { ...HEADERS, authorization: `Bearer ${(await menus.json()).data[0].token.access_token as string}` };
  const upload = async (purpose: string, name: string, mimeType: string, buffer: Buffer) => {
    const res = await page.request.post('/web-api/console/v1/enterprise/certification/file', {
      headers,
      multipart: { purpose, file: { name, mimeType, buffer } },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data[0].id as number;
  };
  const licenceFileId = await upload('licence', 'licence.png', 'image/png', await licencePng(page));
  const authorizationFileId = await upload('authorization', 'authorization.pdf', 'application/pdf', pdfDocument(['Page one', 'Page two']));
  const submitted = await page.request.post('/web-api/console/v1/enterprise/certification', {
    headers,
    data: {
      enterpriseName,
      creditCode: creditCode(),
      legalRepresentative: '顾建华',
      applicantRole: 'agent',
      licenceFileId,
      authorizationFileId,
      declaration: true,
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
  return { enterpriseName, page };
}

/** In 认证审核 (open), finds the application by the enterprise's name and opens it. */
async function openApplication(page: Page, enterpriseName: string): Promise<Locator> {
  await page.getByRole('textbox', { name: '企业名称或信用代码' }).fill(enterpriseName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.getByRole('row', { name: new RegExp(enterpriseName) });
  await expect(row.getByText('待审核')).toBeVisible();
  await row.getByRole('button', { name: /审\s*核/ }).click();
  const drawer = page.getByRole('dialog', { name: new RegExp(`认证审核：${enterpriseName}`) });
  await expect(drawer.getByRole('region', { name: '申请信息' })).toBeVisible();
  return drawer;
}

const transformOf = (image: Locator) => image.evaluate((el) => (el as HTMLImageElement).style.transform);

test.describe('认证审核 and 消息中心', () => {
  test('a reviewer checks the materials (image zoom and turn, PDF pages) and rejects with two reasons; the applicant is told', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    const { enterpriseName, page: applicantPage } = await applicant(browser, baseURL);
    await openConsole(page, 'operator', '/console/certification');
    const drawer = await openApplication(page, enterpriseName);

    // The operator was told of the new application too.
    await expect(page.getByRole('button', { name: /^消息中心，\d+ 条未读$/ })).toBeVisible();

    const materials = drawer.getByRole('region', { name: '认证材料' });
    const image = materials.getByRole('img', { name: 'licence.png' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(900);
    expect(await image.evaluate((el) => (el as HTMLImageElement).src)).toMatch(/^blob:/);
    await materials.getByRole('button', { name: '放大' }).click();
    await materials.getByRole('button', { name: '向右旋转' }).click();
    await expect(materials.getByRole('status', { name: '缩放比例' })).toHaveText('125%');
    expect(await transformOf(image)).toContain('rotate(90deg) scale(1.25)');
    await page.screenshot({ path: test.info().outputPath('review-image-1440.png') });
    await materials.getByRole('button', { name: '还原' }).click();
    expect(await transformOf(image)).toContain('rotate(0deg) scale(1)');

    await materials.getByRole('tab', { name: '授权书' }).click();
    await expect(materials.getByText('共 2 页')).toBeVisible();
    const pages = materials.getByRole('img', { name: /^第 \d 页$/ });
    await expect(pages).toHaveCount(2);
    // pdf.js drew something (the blue frame) on the first page.
    await expect
      .poll(() =>
        pages.first().evaluate((canvas) => {
          const c = canvas as HTMLCanvasElement;
          const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          for (let i = 0; i < data.length; i += 4) if (data[i + 2]! > 200 && data[i]! < 80) return true;
          return false;
        }),
      )
      .toBe(true);
    const width = await pages.first().evaluate((c) => c.getBoundingClientRect().width);
    await materials.getByRole('button', { name: '向右旋转' }).click();
    await expect.poll(() => pages.first().evaluate((c) => c.getBoundingClientRect().width)).toBeGreaterThan(width * 1.3);
    await page.screenshot({ path: test.info().outputPath('review-pdf-1440.png') });

    await drawer.getByRole('button', { name: /驳\s*回/ }).click();
    const dialog = page.getByRole('dialog', { name: '驳回认证申请' });
    await dialog.getByRole('checkbox', { name: '营业执照不清晰' }).check();
    await dialog.getByRole('checkbox', { name: '其他' }).check();
    await dialog.getByRole('button', { name: /驳\s*回/ }).click();
    await expect(dialog.getByText('选择“其他”时请填写说明')).toBeVisible();
    await dialog.getByRole('textbox', { name: '说明' }).fill('执照照片反光，请重新拍摄');
    await dialog.getByRole('button', { name: /驳\s*回/ }).click();
    await expect(page.getByText(/^已驳回，/)).toBeVisible();
    const result = drawer.getByRole('region', { name: '审核结果' });
    await expect(result.getByText('营业执照不清晰、其他')).toBeVisible();
    await expect(drawer.getByRole('button', { name: /通\s*过/ })).toHaveCount(0);

    // The applicant: the bell counts the result; 消息中心 lists it and 标为已读 clears the count.
    await applicantPage.goto('/console');
    const bell = applicantPage.getByRole('button', { name: '消息中心，1 条未读' });
    await bell.click();
    await expect(applicantPage.getByRole('list', { name: '未读消息' }).getByText('企业认证未通过')).toBeVisible();
    await applicantPage.getByRole('link', { name: /查看全部/ }).click();
    await expect(applicantPage).toHaveURL(/\/console\/message$/);
    const list = applicantPage.getByRole('list', { name: '消息列表' });
    await expect(list.getByText(/营业执照不清晰/)).toBeVisible();
    await list.getByRole('button', { name: '标为已读：企业认证未通过' }).click();
    await expect(applicantPage.getByRole('button', { name: '消息中心，没有未读消息' })).toBeVisible();
    await applicantPage.screenshot({ path: test.info().outputPath('messages-1440.png'), fullPage: true });
    await applicantPage.context().close();
  });

  test('on a phone the queue fits, the detail takes the whole screen and the bell sits in the navbar @mobile', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    const { enterpriseName, page: applicantPage } = await applicant(browser, baseURL);
    await applicantPage.context().close();
    await openConsole(page, 'operator', '/console/certification');
    const bell = page.getByRole('button', { name: /^消息中心，/ });
    const box = await bell.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath('review-queue-375.png'), fullPage: true });

    await bell.click();
    const popover = page.locator('.notification-bell__popover');
    await expect(popover.getByRole('list', { name: '未读消息' })).toBeVisible();
    const pop = await popover.boundingBox();
    expect(pop && pop.x).toBeGreaterThanOrEqual(0);
    expect(pop && pop.x + pop.width).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath('bell-375.png') });
    await bell.click();
    await expect(popover).toBeHidden();

    const drawer = await openApplication(page, enterpriseName);
    await expect(drawer.getByRole('region', { name: '认证材料' }).getByRole('img', { name: 'licence.png' })).toBeVisible();
    const panel = await drawer.evaluate((el) => el.getBoundingClientRect().width);
    expect(panel).toBeGreaterThanOrEqual(374);
    await page.screenshot({ path: test.info().outputPath('review-detail-375.png') });
  });
});
