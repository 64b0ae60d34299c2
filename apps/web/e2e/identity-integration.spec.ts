import net from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { SELF_TEST_STEP_TITLES, SelfTestMessage } from '@portal/shared';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * Tool 03 统一身份认证集成: an enterprise administrator connects an application to the
 * central login from the open-service centre and checks it with 接入自检. The applications are real
 * CAS 3.0 clients of the test server started by the global setup; any path of theirs is served, so
 * each run registers its own path (addresses of two applications may not overlap, whatever their
 * enterprise). The administrator and the enterprise are this file's own (the tenant fixture).
 */

function standinOrigin(name: 'E2E_CAS_APP' | 'E2E_CAS_APP_LOGOUT_503'): string {
  const origin = process.env[name];
  if (!origin) throw new Error(`${name} is set by the e2e global setup`);
  return origin;
}

const unique = uniqueTag;

/** A port nothing listens on: taken from the system, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** On 应用列表, 新增应用 with the given service addresses; the drawer closes once the server saved it. */
async function registerApplication(page: Page, name: string, services: string[], attributes: string[] = []) {
  await page.getByRole('button', { name: /新增应用/ }).click();
  const drawer = page.getByRole('dialog', { name: '新增应用' });
  await drawer.getByLabel('名称', { exact: true }).fill(name);
  await drawer.getByLabel('分类').fill('质量管理');
  for (const [i, service] of services.entries()) {
    if (i > 0) await drawer.getByRole('button', { name: /添加服务地址/ }).click();
    await drawer.getByLabel(`服务地址 ${i + 1}`, { exact: true }).fill(service);
  }
  for (const attribute of attributes) await drawer.getByRole('checkbox', { name: attribute }).check();
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
}

/** The application's panel on tool 03, opened (the first one is open already). */
async function openApplication(page: Page, name: string): Promise<Locator> {
  const live = page.getByRole('region', { name: '接入我的应用' });
  const header = live.getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(header).toBeVisible();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  // The collapse item holding the header and its content (the content has no role or name of its own).
  const panel = header.locator('xpath=..');
  await expect(panel.getByRole('heading', { name: '接入参数' })).toBeVisible();
  return panel;
}

/** One step of the checklist: its status (通过, 未通过, 已跳过) is the icon's name. */
const stepOf = (checklist: Locator, key: keyof typeof SELF_TEST_STEP_TITLES) =>
  checklist.getByRole('listitem').filter({ hasText: SELF_TEST_STEP_TITLES[key] });

test.describe('统一身份认证集成: 接入自检', () => {
  test('an administrator registers a CAS client, copies its configuration, runs 接入自检 with every step passing, and sees why a logout address answering 503 fails', async ({
    tenant,
    page,
    baseURL,
  }) => {
    const { admin } = tenant;
    const n = unique();
    const name = `质检终端${n}`;
    const healthy = `${standinOrigin('E2E_CAS_APP')}/qc-${n}/`;
    const logoutDown = `${standinOrigin('E2E_CAS_APP_LOGOUT_503')}/qc-${n}/`;

    await openConsole(page, admin, '/console/app/list');
    await registerApplication(page, name, [healthy, logoutDown], ['企业名称 enterpriseName', '手机号 telephone']);
    // Everyone of the enterprise may sign in: the administrator is the test account.
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '授权' }).click();
    const grants = page.getByRole('region', { name: `${name}的授权` });
    await grants.getByRole('switch', { name: '企业全员' }).click();
    await grants.getByRole('button', { name: /保\s*存/ }).click();
    await expect(grants.getByRole('button', { name: /保\s*存/ })).toBeDisabled();

    await page.goto('/open-service?toolId=03');
    await expect(page.getByRole('heading', { level: 1, name: '统一身份认证集成' })).toBeVisible();
    const app = await openApplication(page, name);
    // 接入参数 starts with the registered addresses.
    const registered = app.getByRole('definition').first();
    await expect(registered).toContainText(healthy);
    await expect(registered).toContainText(logoutDown);

    // Client configuration for the chosen address, against this portal's CAS.
    const cas = `${baseURL}/cas`;
    await app.getByRole('tab', { name: 'Java · Spring Boot' }).click();
    const yml = app.getByRole('figure', { name: /^application\.yml / });
    await expect(yml).toContainText(`server-url-prefix: ${cas}`);
    await expect(yml).toContainText(`client-host-url: ${standinOrigin('E2E_CAS_APP')}`);
    await expect(yml).toContainText('validation-type: CAS3');
    await app.getByRole('tab', { name: 'Node.js · Express' }).click();
    await expect(app.getByRole('figure', { name: /^server\.mjs / })).toContainText(healthy);
    await app.getByRole('tab', { name: 'Python · Django' }).click();
    await expect(app.getByRole('figure', { name: /^settings\.py / })).toContainText(cas);
    await app.getByRole('tab', { name: 'Python · Flask' }).click();
    await expect(app.getByRole('figure', { name: /^app\.py / })).toContainText(cas);

    // 接入自检 of the healthy client: every step passes, the released attributes are listed.
    await app.getByRole('button', { name: '接入自检' }).click();
    await expect(app.getByRole('alert').filter({ hasText: SelfTestMessage.passed })).toBeVisible();
    const checklist = app.getByRole('list', { name: '自检步骤' });
    await expect(checklist.getByRole('listitem')).toHaveCount(6);
    for (const key of Object.keys(SELF_TEST_STEP_TITLES) as (keyof typeof SELF_TEST_STEP_TITLES)[]) {
      await expect(stepOf(checklist, key).getByRole('img', { name: '通过', exact: true })).toBeVisible();
    }
    await expect(stepOf(checklist, 'registered')).toContainText(SelfTestMessage.registered(healthy, name));
    await expect(stepOf(checklist, 'reachable')).toContainText(`GET ${healthy} 返回 HTTP 302，跳转至统一身份认证登录页`);
    await expect(stepOf(checklist, 'logout')).toContainText(SelfTestMessage.logout(healthy, 200, true));
    await expect(stepOf(checklist, 'signIn')).toContainText(SelfTestMessage.signIn(admin.username));
    await expect(stepOf(checklist, 'validate')).toContainText(SelfTestMessage.validated(`${cas}/p3/serviceValidate`, admin.username));
    const attributes = app.getByRole('table', { name: '释放的属性' });
    await expect(attributes.getByRole('row').filter({ hasText: 'enterpriseName' })).toContainText(tenant.name);
    await expect(attributes.getByRole('row').filter({ hasText: 'telephone' })).toContainText(admin.phone);
    await expect(attributes.getByRole('row').filter({ hasText: /^name/ })).toContainText(admin.name);
    await page.screenshot({ path: test.info().outputPath('tool-03-checklist-1440.png'), fullPage: true });

    // The configuration works: the application, opened in the browser, signs the administrator in through the portal's CAS.
    const client = await page.context().newPage();
    await client.goto(healthy);
    await expect(client.getByText(`signed in as ${admin.username}`)).toBeVisible();
    await client.close();

    // The second address: its single-logout endpoint answers 503, and the checklist says so exactly.
    // Under load a click can land while the dropdown is still opening and be lost: picked again until the select shows it.
    await expect(async () => {
      await app.getByRole('combobox', { name: `${name} 的服务地址` }).click();
      await page.getByTitle(logoutDown, { exact: true }).last().click({ timeout: 2_000 });
      await expect(app.getByTitle(logoutDown, { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(app.getByRole('list', { name: '自检步骤' })).toBeHidden();
    await app.getByRole('button', { name: '接入自检' }).click();
    const failed = app.getByRole('alert').filter({ hasText: SelfTestMessage.failed });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText(`未通过：${SELF_TEST_STEP_TITLES.logout}`);
    await expect(failed).toContainText(`服务地址：${logoutDown}`);
    const logout = stepOf(checklist, 'logout');
    await expect(logout.getByRole('img', { name: '未通过', exact: true })).toBeVisible();
    await expect(logout).toContainText(SelfTestMessage.logoutStatus(logoutDown, 503));
    for (const key of ['registered', 'reachable', 'signIn', 'validate', 'attributes'] as const) {
      await expect(stepOf(checklist, key).getByRole('img', { name: '通过', exact: true })).toBeVisible();
    }
  });

  test('应用列表 runs 接入自检 from the row: it says first that 应用授权 does not admit the administrator, skips the sign-in, and signs in once granted', async ({
    tenant,
    page,
    baseURL,
  }) => {
    const { admin } = tenant;
    const n = unique();
    const name = `巡检终端${n}`;
    const service = `${standinOrigin('E2E_CAS_APP')}/patrol-${n}/`;
    await openConsole(page, admin, '/console/app/list');
    await registerApplication(page, name, [service], ['企业名称 enterpriseName']);

    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: '接入自检' }).click();
    const dialog = page.getByRole('dialog', { name: `接入自检：${name}` });
    // Before it runs: nobody is authorized yet, so the administrator's sign-in will be skipped, and why.
    const notice = dialog.getByRole('alert').filter({ hasText: '本次自检将跳过测试登录' });
    await expect(notice).toContainText(SelfTestMessage.notGranted(admin.username, name));
    await dialog.getByRole('button', { name: '接入自检' }).click();
    const checklist = dialog.getByRole('list', { name: '自检步骤' });
    await expect(checklist.getByRole('listitem')).toHaveCount(6);
    for (const key of ['registered', 'reachable', 'logout'] as const) {
      await expect(stepOf(checklist, key).getByRole('img', { name: '通过', exact: true })).toBeVisible();
    }
    for (const key of ['signIn', 'validate', 'attributes'] as const) {
      await expect(stepOf(checklist, key).getByRole('img', { name: '已跳过', exact: true })).toBeVisible();
      await expect(stepOf(checklist, key)).toContainText(SelfTestMessage.notGranted(admin.username, name));
    }
    await expect(stepOf(checklist, 'reachable')).toContainText(`GET ${service} 返回 HTTP 302，跳转至统一身份认证登录页`);
    await page.screenshot({ path: test.info().outputPath('app-list-self-test-skipped-1440.png') });
    await dialog
      .getByRole('button', { name: /关\s*闭/ })
      .last()
      .click();
    await expect(dialog).toBeHidden();

    // 企业全员 may sign in: the notice is gone and the run signs in as the administrator.
    await row.getByRole('button', { name: '授权' }).click();
    const grants = page.getByRole('region', { name: `${name}的授权` });
    await grants.getByRole('switch', { name: '企业全员' }).click();
    await grants.getByRole('button', { name: /保\s*存/ }).click();
    await expect(grants.getByRole('button', { name: /保\s*存/ })).toBeDisabled();
    await page.goto('/console/app/list');
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '接入自检' }).click();
    await expect(dialog.getByRole('button', { name: '接入自检' })).toBeEnabled();
    await dialog.getByRole('button', { name: '接入自检' }).click();
    await expect(dialog.getByRole('alert').filter({ hasText: SelfTestMessage.passed })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await expect(stepOf(checklist, 'signIn')).toContainText(SelfTestMessage.signIn(admin.username));
    await expect(stepOf(checklist, 'validate')).toContainText(
      SelfTestMessage.validated(`${baseURL}/cas/p3/serviceValidate`, admin.username),
    );
    await expect(dialog.getByRole('table', { name: '释放的属性' })).toContainText(tenant.name);
    await page.screenshot({ path: test.info().outputPath('app-list-self-test-passed-1440.png') });
  });

  test('tool 03 at 375 px: an application whose address is down fails 接入自检 with the connection error, without sideways scroll @mobile', async ({
    tenant,
    page,
  }) => {
    const { admin } = tenant;
    const n = unique();
    const name = `停机应用${n}`;
    const down = `http://127.0.0.1:${await closedPort()}/down-${n}/`;
    await openConsole(page, admin, '/console/app/list');
    await registerApplication(page, name, [down]);

    await page.goto('/open-service?toolId=03');
    const app = await openApplication(page, name);
    // Nobody is authorized yet: before the run the panel says the test account's sign-in will be skipped.
    await expect(app.getByRole('alert').filter({ hasText: '本次自检将跳过测试登录' })).toContainText(
      SelfTestMessage.notGranted(admin.username, name),
    );
    await app.getByRole('button', { name: '接入自检' }).click();
    await expect(app.getByRole('alert').filter({ hasText: SelfTestMessage.failed })).toBeVisible();
    const checklist = app.getByRole('list', { name: '自检步骤' });
    await expect(stepOf(checklist, 'registered').getByRole('img', { name: '通过', exact: true })).toBeVisible();
    const reachable = stepOf(checklist, 'reachable');
    await expect(reachable.getByRole('img', { name: '未通过', exact: true })).toBeVisible();
    await expect(reachable).toContainText(SelfTestMessage.reachableFailed(down, SelfTestMessage.refused));
    await expect(stepOf(checklist, 'logout')).toContainText(SelfTestMessage.logoutFailed(down, SelfTestMessage.refused));
    // The sign-in and the validation were skipped, saying why.
    await expect(stepOf(checklist, 'signIn').getByRole('img', { name: '已跳过', exact: true })).toBeVisible();
    await expect(stepOf(checklist, 'signIn')).toContainText(SelfTestMessage.notGranted(admin.username, name));
    await expect(stepOf(checklist, 'validate').getByRole('img', { name: '已跳过', exact: true })).toBeVisible();

    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath('tool-03-checklist-375.png'), fullPage: true });
  });
});
