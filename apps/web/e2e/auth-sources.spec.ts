import fs from 'node:fs';
import type { Browser, Locator, Page, Response } from '@playwright/test';
import { DingtalkStandin, WecomStandin } from '../../server/src/testing/chat-standins.js';
import {
  HENGYUE_BIND_DN,
  HENGYUE_BIND_PASSWORD,
  HENGYUE_GROUPS,
  HENGYUE_PEOPLE,
  HENGYUE_PEOPLE_LIST,
  HENGYUE_SUFFIX,
  hengyueDirectory,
} from '../../server/src/testing/ldap-fixture.js';
import { type SlapdServer, startSlapd } from '../../server/src/testing/slapd.js';
import { DEMO_PASSWORD, breadcrumb, openConsole, sidebarMenu } from './console-helpers.js';
import { animationsDone, expect, test } from './fixtures.js';

/**
 * 认证与同步's journey in a real browser: the administrator of this file's enterprise (the tenant
 * fixture) configures 恒岳's OpenLDAP directory (a real slapd started for this file), tests the
 * connection, previews and runs a sync, and a synced person signs in with their directory password.
 * Also 企业微信 QR sign-in against the local stand-in the global setup started (in 恒岳: the stand-in
 * knows its 李娜 by her mobile), and the pages on a phone.
 */

const LIXIN = HENGYUE_PEOPLE_LIST.find((p) => p.uid === 'lixin')!;
const GROUP_NAMES = ['研发中心', '生产制造部', '销售部'];

const unique = () => `${(Date.now() % 100_000_000).toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** Screenshots for a person to look at (AUTH_SHOTS_DIR), else next to the test's other output. */
async function shot(page: Page, name: string, part?: Locator): Promise<void> {
  const dir = process.env.AUTH_SHOTS_DIR;
  const width = page.viewportSize()!.width;
  const file = dir ? `${dir}/${name}-${width}.png` : test.info().outputPath(`${name}-${width}.png`);
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // Drawers and dialogs slide in and out: the picture is of the page once they have come to rest.
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  // …and once a smooth scroll (a test result brought into view) has stopped: five frames without a change.
  await page.waitForFunction(
    () => {
      const w = window as Window & { shotScrolls?: string; shotStill?: number };
      const now = [document.scrollingElement, ...document.querySelectorAll('*')]
        .map((e) => (e && (e.scrollTop || e.scrollLeft) ? `${e.scrollTop},${e.scrollLeft}` : ''))
        .join(';');
      w.shotStill = now === w.shotScrolls ? (w.shotStill ?? 0) + 1 : 0;
      w.shotScrolls = now;
      return w.shotStill >= 5;
    },
    undefined,
    { polling: 'raf' },
  );
  await (part ?? page).screenshot({ path: file });
}

/** On a phone nothing but a table's own box scrolls sideways: the page is never wider than the screen. */
async function fitsScreen(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** The answer to the next `method` request whose path and query match `address`. */
function answer(page: Page, method: string, address: RegExp): Promise<Response> {
  return page.waitForResponse((r) => {
    const url = new URL(r.url());
    return r.request().method() === method && address.test(url.pathname + url.search);
  });
}

/** Opens a console page from the sidebar (on a phone a drawer opened first); an open group is not closed again. */
async function openFromMenu(page: Page, group: string, item: string, phone = false): Promise<void> {
  if (phone) await page.getByRole('button', { name: '展开菜单' }).click();
  const menu = sidebarMenu(page);
  const entry = menu.getByText(item, { exact: true });
  if (!(await entry.isVisible())) await menu.getByText(group, { exact: true }).click();
  await expect(entry).toBeVisible();
  await animationsDone(entry);
  await entry.click();
  await expect(breadcrumb(page)).toContainText(item);
}

/** Picks `option` in the select labelled `label` inside `scope`; retried, as a click during the dropdown's opening can be lost. */
async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  await expect(async () => {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByTitle(option, { exact: true }).last().click({ timeout: 2_000 });
    await expect(scope.getByTitle(option, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/** The row of a table whose cell reads exactly `text` (a person's or group's name appears in other rows' changes too). */
const rowNamed = (table: Locator, text: string) =>
  table.getByRole('row').filter({ has: table.page().getByRole('cell', { name: text, exact: true }) });

/** The objects of a preview or a run (the run's drawer also lays its facts out as a table). */
const itemsTable = (scope: Locator) => scope.getByRole('table').filter({ has: scope.page().getByRole('columnheader', { name: '变更' }) });

/** The drawer's own × (named 关闭 by antd's Chinese locale). */
async function closeDrawer(drawer: Locator): Promise<void> {
  await drawer
    .getByRole('button', { name: /^(关闭|Close)$/ })
    .first()
    .click();
  await expect(drawer).toBeHidden();
}

const save = (scope: Locator) => scope.getByRole('button', { name: /^保\s*存$/ }).click();

interface LdapSettings {
  name: string;
  url: string;
  password: string;
}

/** 新增认证源 → LDAP / AD with 恒岳's directory; leaves the drawer open, unsaved. */
async function newLdapSource(page: Page, settings: LdapSettings, atPicker?: () => Promise<void>): Promise<Locator> {
  await page.getByRole('button', { name: '新增认证源' }).click();
  const picker = page.getByRole('dialog', { name: '选择认证源类型' });
  await expect(picker.getByRole('button', { name: 'LDAP / AD' })).toBeVisible();
  await animationsDone(picker.getByRole('button', { name: 'LDAP / AD' }));
  await atPicker?.();
  await picker.getByRole('button', { name: 'LDAP / AD' }).click();
  const drawer = page.getByRole('dialog', { name: '新增认证源（LDAP / AD）' });
  await drawer.getByLabel('名称', { exact: true }).fill(settings.name);
  await drawer.getByLabel('地址', { exact: true }).fill(settings.url);
  await drawer.getByLabel('绑定账号（DN）').fill(HENGYUE_BIND_DN);
  await drawer.getByLabel('绑定密码').fill(settings.password);
  await drawer.getByLabel('用户基准 DN').fill(HENGYUE_PEOPLE);
  await drawer.getByLabel('组基准 DN').fill(HENGYUE_GROUPS);
  return drawer;
}

/** 测试连接 in the form: waits for the server's answer and returns the result panel. */
async function testConnection(page: Page, drawer: Locator): Promise<Locator> {
  const tested = answer(page, 'POST', /\/auth\/sources\/test$/);
  await drawer.getByRole('button', { name: '测试连接' }).click();
  expect((await tested).status()).toBe(200);
  return drawer.getByRole('region', { name: '测试结果' });
}

/** 新增任务 from `source`, run by hand; returns the job's row. */
async function newSyncJob(page: Page, jobName: string, sourceName: string): Promise<Locator> {
  await page.getByRole('button', { name: '新增任务' }).click();
  const drawer = page.getByRole('dialog', { name: '新增同步任务' });
  await drawer.getByLabel('任务名称').fill(jobName);
  await chooseOption(page, drawer, '认证源', `${sourceName}（LDAP / AD）`);
  await expect(drawer.getByRole('radio', { name: '手动' })).toBeChecked();
  const created = answer(page, 'POST', /\/auth\/sync\/jobs$/);
  await save(drawer);
  expect((await created).ok()).toBe(true);
  await expect(drawer).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: jobName });
  await expect(row).toContainText(sourceName);
  return row;
}

/** 预览 of a job's row: waits for the server's preview and returns the drawer. */
async function previewJob(page: Page, row: Locator): Promise<Locator> {
  const previewed = answer(page, 'POST', /\/auth\/sync\/jobs\/\d+\/preview$/);
  await row.getByRole('button', { name: /预\s*览/ }).click();
  expect((await previewed).ok()).toBe(true);
  const drawer = page.getByRole('dialog', { name: '同步预览' });
  await expect(drawer.getByText('以下为预览，尚未写入任何数据')).toBeVisible();
  return drawer;
}

async function freshPage(browser: Browser, baseURL: string | undefined, width = 1440): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width, height: width < 768 ? 812 : 900 },
  });
  return context.newPage();
}

/** The central login from the public header's 登录, back on /news afterwards. */
async function openCentralLogin(page: Page): Promise<void> {
  await page.goto('/news');
  await page
    .getByRole('banner')
    .getByRole('link', { name: /登\s*录/ })
    .click();
  await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
}

async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

let slapd: SlapdServer;

test.beforeAll(async () => {
  slapd = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
});

test.afterAll(async () => {
  await slapd?.stop();
});

test.describe('认证与同步', () => {
  test('an administrator connects the LDAP directory, previews and runs a sync; a synced person signs in with the directory password', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    // Three browsers, a directory read twice and a sync: more than one page's worth on a busy machine.
    test.slow();
    const sourceName = `恒岳目录${unique()}`;
    const jobName = `同步恒岳目录${unique()}`;
    const { admin, name: ENTERPRISE } = tenant;

    await openConsole(page, admin);
    await openFromMenu(page, '认证与同步', '认证源');
    const drawer = await newLdapSource(page, { name: sourceName, url: slapd.url, password: 'not-the-password' }, () =>
      shot(page, 'auth-source-types'),
    );

    // A wrong bind password: the 绑定 step says so in Chinese, with no library text.
    let result = await testConnection(page, drawer);
    await expect(result.getByText('连接失败')).toBeVisible();
    await expect(result.getByRole('listitem').filter({ hasText: '绑定' })).toContainText('绑定账号或密码错误');
    await expect(result).not.toContainText('Invalid Credentials');
    await expect(result.getByRole('img', { name: '失败' })).toHaveCount(1);
    await shot(page, 'auth-source-ldap-failed', result);

    // The right one: every step passes and the search shows a sample of 恒岳's people.
    await drawer.getByLabel('绑定密码').fill(HENGYUE_BIND_PASSWORD);
    result = await testConnection(page, drawer);
    await expect(result.getByText('连接成功')).toBeVisible();
    // The result is brought into view below the long form.
    await expect(result.getByRole('list', { name: '测试步骤' })).toBeInViewport({ ratio: 1 });
    await expect(result.getByRole('img', { name: '失败' })).toHaveCount(0);
    await expect(result.getByRole('img', { name: '成功' })).toHaveCount(3);
    await expect(result.getByRole('row').filter({ hasText: LIXIN.cn })).toContainText(LIXIN.uid);
    await shot(page, 'auth-source-ldap-tested');
    await shot(page, 'auth-source-ldap-result', result);

    const created = answer(page, 'POST', /\/auth\/sources$/);
    await save(drawer);
    expect((await created).ok()).toBe(true);
    await expect(drawer).toBeHidden();
    const sourceRow = page.getByRole('row').filter({ hasText: sourceName });
    await expect(sourceRow).toContainText(slapd.url);
    await expect(sourceRow).toContainText('启用');
    await expect(sourceRow).toContainText('从未同步');
    await shot(page, 'auth-source-list');

    // 同步: a manual job from that source, previewed before anything is written.
    await openFromMenu(page, '认证与同步', '同步');
    const jobRow = await newSyncJob(page, jobName, sourceName);
    await expect(jobRow).toContainText('手动');
    await expect(jobRow).toContainText('未同步');
    await shot(page, 'sync-jobs');
    const preview = await previewJob(page, jobRow);
    const objects = HENGYUE_PEOPLE_LIST.length + GROUP_NAMES.length;
    await expect(preview.getByRole('tab', { name: `新增 ${objects}` })).toBeVisible();
    await expect(preview.getByRole('tab', { name: '停用 0' })).toBeVisible();
    await expect(preview.getByRole('tab', { name: '将失败 0' })).toBeVisible();
    const planned = itemsTable(preview);
    for (const person of HENGYUE_PEOPLE_LIST) {
      await expect(rowNamed(planned, person.cn)).toContainText(person.uid);
    }
    for (const group of GROUP_NAMES) {
      await expect(rowNamed(planned, group)).toContainText('账号组');
    }
    await expect(planned.getByRole('row').filter({ hasText: '新增' })).toHaveCount(objects);
    await shot(page, 'sync-preview');

    // Nothing is written yet: 账号管理 (another tab of the same browser) knows no lixin.
    const accounts = await page.context().newPage();
    await accounts.goto('/console/org/account');
    await accounts.getByLabel('搜索账号').fill(LIXIN.uid);
    const searched = answer(accounts, 'GET', new RegExp(`/account/page/list\\?.*keyword=${LIXIN.uid}`));
    await accounts.getByRole('button', { name: /查\s*询/ }).click();
    expect((await searched).ok()).toBe(true);
    await expect(accounts.getByRole('table').getByText('暂无数据')).toBeVisible();
    await expect(accounts.getByRole('table').getByText(LIXIN.cn)).toHaveCount(0);

    // 执行同步, confirmed: the run succeeds and the 同步日志 opens on it, every object 成功.
    await preview.getByRole('button', { name: '执行同步' }).click();
    const confirm = page.getByRole('dialog', { name: '确认执行同步' });
    await expect(confirm).toContainText(`新增 ${objects}`);
    const executed = answer(page, 'POST', /\/auth\/sync\/runs\/\d+\/execute$/);
    await confirm.getByRole('button', { name: '执行同步' }).click();
    expect((await executed).ok()).toBe(true);
    const run = page.getByRole('dialog', { name: `同步记录：${jobName}` });
    await expect(run.getByText(`同步成功（新增 ${objects}）`)).toBeVisible();
    const done = itemsTable(run);
    await expect(rowNamed(done, LIXIN.cn)).toContainText('成功');
    await expect(done.getByRole('row').filter({ hasText: '成功' })).toHaveCount(objects);
    await expect(done.getByRole('row').filter({ hasText: '失败' })).toHaveCount(0);
    await shot(page, 'sync-run');
    await closeDrawer(run);
    await expect(page.getByRole('tab', { name: '同步日志', selected: true })).toBeVisible();
    const logRow = page.getByRole('row').filter({ hasText: jobName }).filter({ hasText: '成功' });
    await expect(logRow).toHaveCount(1);
    await expect(logRow).toContainText('手动');
    // The 同步日志 names who ran it.
    await expect(logRow).toContainText(admin.name);
    await shot(page, 'sync-log');

    // 账号管理 now lists 恒岳's people.
    await accounts.reload();
    for (const person of [LIXIN, HENGYUE_PEOPLE_LIST.at(-1)!]) {
      await accounts.getByLabel('搜索账号').fill(person.uid);
      await accounts.getByRole('button', { name: /查\s*询/ }).click();
      const row = accounts.getByRole('table').getByRole('row').filter({ hasText: person.uid });
      await expect(row).toContainText(person.cn);
      await expect(row).toContainText(person.mobile);
    }
    await accounts.close();

    // lixin signs in with the directory's password; the portal's demo password is not his.
    const lixin = await freshPage(browser, baseURL);
    await openCentralLogin(lixin);
    await submitLogin(lixin, LIXIN.uid, DEMO_PASSWORD);
    await expect(lixin.getByRole('alert')).toBeVisible();
    await expect(lixin.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await submitLogin(lixin, LIXIN.uid, LIXIN.password);
    await expect(lixin).toHaveURL(/\/news$/);
    await expect(lixin.getByRole('banner').getByText(LIXIN.cn)).toBeVisible();
    await expect(lixin.getByRole('banner').getByText(ENTERPRISE)).toBeVisible();
    await lixin.context().close();

    // Operators see the enterprise's source and its last sync in 租户管理.
    const operator = await freshPage(browser, baseURL);
    await openConsole(operator, 'operator', '/console/tenant');
    await operator.getByLabel('企业名称').fill(ENTERPRISE);
    await operator.getByRole('button', { name: /查\s*询/ }).click();
    await operator
      .getByRole('row')
      .filter({ hasText: ENTERPRISE })
      .getByRole('button', { name: /详\s*情/ })
      .click();
    const detail = operator.getByRole('dialog', { name: `企业详情：${ENTERPRISE}` });
    const sources = detail.getByRole('region', { name: '认证源' });
    await expect(sources.getByRole('row').filter({ hasText: sourceName })).toContainText('成功');
    await shot(operator, 'tenant-detail');
    await operator.context().close();
  });

  test('an administrator adds 企业微信; a colleague signs in by scanning its QR code at the central login', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    // The stand-in's app (global setup points the server's 企业微信 addresses at it).
    const wecom = new WecomStandin();
    const name = `恒岳企业微信${unique()}`;
    await openConsole(page, 'admin', '/console/auth/source');
    await page.getByRole('button', { name: '新增认证源' }).click();
    const picker = page.getByRole('dialog', { name: '选择认证源类型' });
    await animationsDone(picker.getByRole('button', { name: '企业微信' }));
    await picker.getByRole('button', { name: '企业微信' }).click();
    const drawer = page.getByRole('dialog', { name: '新增认证源（企业微信）' });
    await drawer.getByLabel('名称', { exact: true }).fill(name);
    await drawer.getByLabel('企业 ID').fill(wecom.corpId);
    await drawer.getByLabel('AgentId').fill(wecom.agentId);
    await drawer.getByLabel('Secret').fill(wecom.secret);
    const result = await testConnection(page, drawer);
    await expect(result.getByText('连接成功')).toBeVisible();
    const created = answer(page, 'POST', /\/auth\/sources$/);
    await save(drawer);
    expect((await created).ok()).toBe(true);

    // Saved, the drawer stays open on the callback address to enter in 企业微信's console.
    const edit = page.getByRole('dialog', { name: `编辑认证源 ${name}` });
    const callback = edit.getByRole('region', { name: '回调地址' });
    await expect(callback).toContainText(`${baseURL}/cas/login/wecom/callback`);
    await shot(page, 'auth-source-wecom');
    await edit.getByRole('button', { name: /取\s*消/ }).click();
    await expect(edit).toBeHidden();

    // 李娜 (staff) scans: the platform knows her by her mobile, which links her account on first use.
    const colleague = await freshPage(browser, baseURL);
    await openCentralLogin(colleague);
    await expect(colleague.getByText('其他登录方式')).toBeVisible();
    await shot(colleague, 'central-login');
    await colleague.getByRole('link', { name: '企业微信' }).click();
    await expect(colleague.getByRole('heading', { name: '请使用手机扫码登录' })).toBeVisible();
    await colleague.getByRole('link', { name: '模拟扫码：李娜' }).click();
    await expect(colleague).toHaveURL(/\/news$/);
    await expect(colleague.getByRole('banner').getByText('李娜')).toBeVisible();
    await colleague.context().close();
  });

  test('认证源 and 同步 fit a phone: list, type picker, form with a test result, preview and log @mobile', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    const sourceName = `手机目录${unique()}`;
    const jobName = `手机同步${unique()}`;
    const ENTERPRISE = tenant.name;
    await openConsole(page, tenant.admin);
    await openFromMenu(page, '认证与同步', '认证源', true);
    await expect(page.getByRole('button', { name: '新增认证源' })).toBeVisible();
    await fitsScreen(page, '认证源');

    const drawer = await newLdapSource(page, { name: sourceName, url: slapd.url, password: HENGYUE_BIND_PASSWORD }, async () => {
      await fitsScreen(page, '选择认证源类型');
      await shot(page, 'auth-source-types');
    });
    await fitsScreen(page, '新增认证源');
    const result = await testConnection(page, drawer);
    await expect(result.getByText('连接成功')).toBeVisible();
    await expect(result.getByRole('list', { name: '测试步骤' })).toBeInViewport({ ratio: 1 });
    await fitsScreen(page, '测试结果');
    await shot(page, 'auth-source-ldap-tested');
    await save(drawer);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: sourceName })).toBeVisible();
    await fitsScreen(page, '认证源列表');
    await shot(page, 'auth-source-list');

    await openFromMenu(page, '认证与同步', '同步', true);
    const row = await newSyncJob(page, jobName, sourceName);
    await fitsScreen(page, '同步任务');
    // 状态 and every action of the row are on screen, not in a part of the table scrolled out of sight.
    await expect(row.getByText('启用', { exact: true })).toBeInViewport({ ratio: 1 });
    for (const action of [/预\s*览/, /编\s*辑/, /停\s*用/, /删\s*除/])
      await expect(row.getByRole('button', { name: action })).toBeInViewport({ ratio: 1 });
    await shot(page, 'sync-jobs');
    const preview = await previewJob(page, row);
    await expect(rowNamed(itemsTable(preview), '研发中心')).toBeVisible();
    await fitsScreen(page, '同步预览');
    await shot(page, 'sync-preview');
    await preview.getByRole('button', { name: /取\s*消/ }).click();
    await expect(preview).toBeHidden();

    await page.getByRole('tab', { name: '同步日志' }).click();
    const logRow = page.getByRole('row').filter({ hasText: jobName });
    await expect(logRow).toContainText('待执行');
    await fitsScreen(page, '同步日志');
    await expect(logRow.getByText('待执行')).toBeInViewport({ ratio: 1 });
    await expect(logRow.getByRole('button', { name: /详\s*情/ })).toBeInViewport({ ratio: 1 });
    await shot(page, 'sync-log');
    await logRow.getByRole('button', { name: /详\s*情/ }).click();
    const run = page.getByRole('dialog', { name: `同步记录：${jobName}` });
    await expect(rowNamed(itemsTable(run), '研发中心')).toBeVisible();
    await fitsScreen(page, '同步记录');
    await shot(page, 'sync-run');

    // A chat platform's form with its callback address (钉钉: one source per platform and enterprise, 企业微信 is the desktop test's).
    await closeDrawer(run);
    await openFromMenu(page, '认证与同步', '认证源', true);
    const dingtalk = new DingtalkStandin();
    await page.getByRole('button', { name: '新增认证源' }).click();
    const picker = page.getByRole('dialog', { name: '选择认证源类型' });
    await animationsDone(picker.getByRole('button', { name: '钉钉' }));
    await picker.getByRole('button', { name: '钉钉' }).click();
    const chat = page.getByRole('dialog', { name: '新增认证源（钉钉）' });
    await chat.getByLabel('名称', { exact: true }).fill(`恒岳钉钉${unique()}`);
    await chat.getByLabel('Client ID（AppKey）').fill(dingtalk.appKey);
    await chat.getByLabel('CorpId').fill(dingtalk.corpId);
    await chat.getByLabel('Client Secret').fill(dingtalk.secret);
    await expect((await testConnection(page, chat)).getByText('连接成功')).toBeVisible();
    await save(chat);
    const saved = page.getByRole('dialog', { name: /^编辑认证源 恒岳钉钉/ });
    await expect(saved.getByRole('region', { name: '回调地址' })).toContainText(`${baseURL}/cas/login/dingtalk/callback`);
    await fitsScreen(page, '钉钉');
    await shot(page, 'auth-source-dingtalk');
    await shot(page, 'auth-source-dingtalk-callback', saved.getByRole('region', { name: '回调地址' }));
    await saved.getByRole('button', { name: /取\s*消/ }).click();
    await expect(saved).toBeHidden();

    const operator = await freshPage(browser, baseURL, 375);
    await openConsole(operator, 'operator', '/console/tenant');
    // The list (newest first) grows with every run's enterprises: the enterprise is looked up by name.
    await operator.getByLabel('企业名称').fill(ENTERPRISE);
    await operator.getByRole('button', { name: /查\s*询/ }).click();
    await operator
      .getByRole('row')
      .filter({ hasText: ENTERPRISE })
      .getByRole('button', { name: /详\s*情/ })
      .click();
    const detail = operator.getByRole('dialog', { name: `企业详情：${ENTERPRISE}` });
    await expect(detail.getByRole('region', { name: '认证源' }).getByRole('row').filter({ hasText: sourceName })).toBeVisible();
    await fitsScreen(operator, '企业详情');
    await shot(operator, 'tenant-detail');
    await operator.context().close();

    const visitor = await freshPage(browser, baseURL, 375);
    await openCentralLogin(visitor);
    await expect(visitor.getByRole('link', { name: '钉钉' })).toBeVisible();
    await fitsScreen(visitor, '统一登录');
    await shot(visitor, 'central-login');
    await visitor.context().close();
  });
});
