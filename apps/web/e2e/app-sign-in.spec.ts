import type { Browser, Page } from '@playwright/test';
import { agePassword } from '../../server/src/testing/password-clock.js';
import { type Api, apiAs, base32Decode, totp, totpStepNow } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, lastSms, test, uniquePhone, uniqueTag } from './fixtures.js';

/**
 * Sign-in started at an application: a person opens an enterprise's application (a CAS 3.0 client on
 * another origin, started by the global setup) in a fresh browser, is sent to the central login, and
 * every step there — password, 修改初始密码, 密码已过期, 二次验证, 忘记密码 — ends back inside the
 * application, signed in. The browser itself must let each form's redirect go to the application
 * (Content-Security-Policy `form-action`), which an HTTP client never checks. The enterprise (the
 * tenant fixture), its accounts, policy, application and grants are this file's own, set up through the API.
 */

const PASSWORD = 'Route#Kx2026';
const NEW_PASSWORD = 'Harbor#Qz2027';

function env(name: 'E2E_CAS_APP' | 'E2E_SQLITE_FILE'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is set by the e2e global setup`);
  return value;
}

const unique = uniqueTag;
const phoneNumber = uniquePhone;

async function freshPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  return context.newPage();
}

/** The central login's password form, on whatever page it is shown. */
async function submitPassword(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** 修改初始密码 or 密码已过期: a new password twice. */
async function submitNewPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('新密码', { exact: true }).fill(password);
  await page.getByLabel('确认新密码').fill(password);
  await page.getByRole('button', { name: '确认修改并登录' }).click();
}

interface Person {
  username: string;
  phone: string;
  id: number;
  /** The password it signs in with now. */
  password: string;
}

test.describe('sign-in started at an application on another origin', () => {
  // The journeys share the enterprise's grants and accounts set up along the way: in order, one worker.
  test.describe.configure({ mode: 'serial' });
  let admin: { username: string; password: string };
  let adminPage: Page;
  let api: Api;
  /** The application's home: a path of the CAS client stand-in no other run registered. */
  let appHome: string;
  let appOrigin: string;
  let appId: number;
  const granted: number[] = [];

  /** A new account of the enterprise (random initial password by SMS, changed at the first login). */
  async function createAccount(name: string, grant = true): Promise<Person> {
    const username = `jr${unique()}`;
    const phone = phoneNumber();
    const [created] = await api.post<{ id: number }>('/web-api/console/v1/account', {
      username,
      name,
      phone,
      groupIds: [],
      roleIds: [],
      passwordMode: 'sms',
    });
    const id = created?.id ?? 0;
    const { password } = await lastSms(adminPage, phone, 'password');
    if (grant) {
      granted.push(id);
      await api.put(`/web-api/console/v1/sso-app/${appId}/grants`, { allMembers: false, groupIds: [], roleIds: [], accountIds: granted });
    }
    return { username, phone, id, password: password ?? '' };
  }

  /** The account's own password, chosen at the central login opened without a service (nothing leaves the portal there). */
  async function ownPassword(browser: Browser, baseURL: string | undefined, person: Person): Promise<Person> {
    const page = await freshPage(browser, baseURL);
    await page.goto('/cas/login');
    await submitPassword(page, person.username, person.password);
    await submitNewPassword(page, PASSWORD);
    await expect(page.getByRole('heading', { name: '登录成功' })).toBeVisible();
    await page.context().close();
    return { ...person, password: PASSWORD };
  }

  /** Opens the application in `page`: its CAS client sends the browser to the central login. */
  async function openApplication(page: Page): Promise<void> {
    await page.goto(appHome, { waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/cas\/login\?service=/);
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
  }

  /** The application shows its own page with the signed-in user, at its own address (the ticket spent). */
  async function expectInApplication(page: Page, username: string): Promise<void> {
    await expect(page.getByText(`signed in as ${username}`)).toBeVisible();
    expect(page.url()).toBe(appHome);
  }

  test.beforeAll(async ({ browser, baseURL, tenantOf }) => {
    test.setTimeout(120_000);
    adminPage = await freshPage(browser, baseURL);
    admin = (await tenantOf(test.info().file)).admin;
    // The administrator's console session (same origin), whose token the setup calls use.
    await openConsole(adminPage, admin);
    await expect(adminPage).toHaveURL(/\/console/);
    api = await apiAs(adminPage);

    // 安全设置: administrators sign in with a second factor; passwords expire after 30 days.
    const [policy] = await api.get<Record<string, unknown>>('/web-api/console/v1/security/policy');
    await api.put('/web-api/console/v1/security/policy', { ...policy, twoFactor: 'admins', passwordExpiryDays: 30 });

    appOrigin = env('E2E_CAS_APP');
    appHome = `${appOrigin}/journey-${unique()}/`;
    const [app] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
      name: `设备巡检${unique()}`,
      category: '设备管理',
      protocol: 'cas3',
      servicePrefixes: [appHome],
      attributes: [],
      status: 'enabled',
    });
    appId = app?.id ?? 0;
    const [accounts] = await api.get<{ rows: { id: number; username: string }[] }>(
      `/web-api/console/v1/account/page/list?keyword=${admin.username}`,
    );
    const adminId = accounts?.rows.find((row) => row.username === admin.username)?.id ?? 0;
    granted.push(adminId);
    await api.put(`/web-api/console/v1/sso-app/${appId}/grants`, { allMembers: false, groupIds: [], roleIds: [], accountIds: granted });
  });

  test.afterAll(async () => {
    await adminPage.context().close();
  });

  test('password login: the application opens signed in', async ({ browser, baseURL }) => {
    const person = await ownPassword(browser, baseURL, await createAccount('孙浩'));
    const page = await freshPage(browser, baseURL);
    await openApplication(page);
    await submitPassword(page, person.username, person.password);
    await expectInApplication(page, person.username);
    await page.screenshot({ path: test.info().outputPath('app-sign-in-1440.png'), fullPage: true });
    await page.context().close();
  });

  test('first login: 修改初始密码 and then the application', async ({ browser, baseURL }) => {
    const person = await createAccount('钱敏');
    const page = await freshPage(browser, baseURL);
    await openApplication(page);
    await submitPassword(page, person.username, person.password);
    await expect(page.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
    await submitNewPassword(page, NEW_PASSWORD);
    await expectInApplication(page, person.username);
    await page.context().close();
  });

  test('密码已过期: a new password and then the application', async ({ browser, baseURL }) => {
    const person = await ownPassword(browser, baseURL, await createAccount('吴磊'));
    await agePassword(env('E2E_SQLITE_FILE'), person.username, 31);
    const page = await freshPage(browser, baseURL);
    await openApplication(page);
    await submitPassword(page, person.username, person.password);
    await expect(page.getByRole('heading', { name: '密码已过期' })).toBeVisible();
    await submitNewPassword(page, NEW_PASSWORD);
    await expectInApplication(page, person.username);
    await page.context().close();
  });

  test('two-factor login: 绑定二次验证, then a code, then a recovery code, each ending in the application', async ({
    browser,
    baseURL,
  }) => {
    // Enrolment: the key shown on the page, the first code computed from it, the recovery codes kept.
    const first = await freshPage(browser, baseURL);
    await openApplication(first);
    await submitPassword(first, admin.username, admin.password);
    await expect(first.getByRole('heading', { name: '绑定二次验证' })).toBeVisible();
    const secret = base32Decode((await first.locator('.cas-secret code').textContent()) ?? '');
    const enrolStep = totpStepNow();
    await first.getByLabel('动态验证码').fill(totp(secret, enrolStep));
    await first.getByRole('button', { name: '完成绑定' }).click();
    await expect(first.getByRole('heading', { name: '保存恢复码' })).toBeVisible();
    const recoveryCodes = await first.getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await first.getByRole('button', { name: '我已保存，继续登录' }).click();
    await expectInApplication(first, admin.username);
    await first.context().close();

    // The next login asks for a code: the one of the next time step (within the accepted drift; the enrolment's is spent).
    const second = await freshPage(browser, baseURL);
    await openApplication(second);
    await submitPassword(second, admin.username, admin.password);
    await expect(second.getByRole('heading', { name: '二次验证' })).toBeVisible();
    await second.getByLabel('动态验证码').fill(totp(secret, Math.max(totpStepNow(), enrolStep + 1)));
    await second.getByRole('button', { name: /验\s*证/ }).click();
    await expectInApplication(second, admin.username);
    await second.context().close();

    // Without the phone: one of the recovery codes.
    const third = await freshPage(browser, baseURL);
    await openApplication(third);
    await submitPassword(third, admin.username, admin.password);
    await expect(third.getByRole('heading', { name: '二次验证' })).toBeVisible();
    await third.getByLabel('动态验证码').fill(recoveryCodes[0] ?? '');
    await third.getByRole('button', { name: /验\s*证/ }).click();
    await expectInApplication(third, admin.username);
    await third.context().close();
  });

  test('an account the application is not granted to: 您无权访问该应用 and no ticket; 切换账号 leads back to the application', async ({
    browser,
    baseURL,
  }) => {
    const outsider = await ownPassword(browser, baseURL, await createAccount('郑涛', false));
    const colleague = await ownPassword(browser, baseURL, await createAccount('冯雪'));
    const page = await freshPage(browser, baseURL);
    await openApplication(page);
    await submitPassword(page, outsider.username, outsider.password);
    await expect(page.getByRole('heading', { name: '您无权访问该应用' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(baseURL);
    expect(page.url()).not.toContain('ticket=');

    // 切换账号 ends this session and goes back to the application, which asks for a login again.
    await page.getByRole('link', { name: '切换账号' }).click();
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await submitPassword(page, colleague.username, colleague.password);
    await expectInApplication(page, colleague.username);
    await page.context().close();
  });

  test('忘记密码 reached from the application: a new password by SMS code, then the login ends in the application', async ({
    browser,
    baseURL,
  }) => {
    const person = await createAccount('何静');
    const page = await freshPage(browser, baseURL);
    await openApplication(page);
    await page.getByRole('link', { name: /忘记密码/ }).click();
    await expect(page.getByRole('heading', { name: '忘记密码' })).toBeVisible();
    await page.getByLabel('手机号').fill(person.phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect(page.getByRole('heading', { name: '重置密码' })).toBeVisible();
    const { code } = await lastSms(page, person.phone, 'reset');
    await page.getByLabel('短信验证码').fill(code ?? '');
    await page.getByLabel('新密码', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('确认新密码').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: '重置密码' }).click();
    await expect(page.getByRole('heading', { name: '密码已重置' })).toBeVisible();
    await page.getByRole('link', { name: '去登录' }).click();
    await submitPassword(page, person.username, NEW_PASSWORD);
    await expectInApplication(page, person.username);
    await page.context().close();
  });

  test('password login at 375 px: the application opens signed in @mobile', async ({ browser, baseURL }) => {
    const person = await ownPassword(browser, baseURL, await createAccount('许诺'));
    const context = await browser.newContext({
      baseURL,
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      viewport: { width: 375, height: 812 },
    });
    const page = await context.newPage();
    await openApplication(page);
    await page.screenshot({ path: test.info().outputPath('app-sign-in-login-375.png'), fullPage: true });
    await submitPassword(page, person.username, person.password);
    await expectInApplication(page, person.username);
    await context.close();
  });
});
