import { randomInt } from 'node:crypto';
import { type Browser, type BrowserContext, type Locator, type Page, test as base, expect } from '@playwright/test';
import { CREDIT_CODE_CHARSET, creditCodeCheckChar } from '@portal/shared';
import { apiAs } from './api-helpers.js';
import { licencePng, pdfDocument } from './certification-materials.js';
import { type Person, openConsole, signInFirstTime } from './console-helpers.js';

/** A suffix no other worker or run picks: names, usernames and handles a test creates carry it. */
export const uniqueTag = () =>
  randomInt(36 ** 7)
    .toString(36)
    .padStart(7, '0');

/** A mobile number no seeded account has (the seed uses 138…): 19 and nine random digits. */
export const uniquePhone = () => `19${String(randomInt(1_000_000_000)).padStart(9, '0')}`;

/** A valid 统一社会信用代码 (GB 32100-2015): 91 (enterprise), a city, nine random digits, the check character. */
export function uniqueCreditCode(): string {
  const first17 = `91320500${String(randomInt(1_000_000_000)).padStart(9, '0')}`;
  if (![...first17].every((ch) => CREDIT_CODE_CHARSET.includes(ch))) throw new Error(`not a code: ${first17}`);
  return first17 + creditCodeCheckChar(first17);
}

/** The password every tenant administrator chooses at the first login (the SMS one is random). */
export const TENANT_PASSWORD = 'Tenant#Kx2026';

/** An enterprise of one spec file, created by the operator in 租户管理, and its first administrator. */
export interface Tenant {
  id: number;
  name: string;
  creditCode: string;
  admin: Person;
  /** The identifier prefix the operator assigned to it (`identifierTenant` only). */
  prefix?: string;
}

/** A fresh browser of its own (no cookies of the test's page): a second person, or the fixture's operator. */
export async function freshContext(browser: Browser, baseURL = process.env.E2E_BASE_URL): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
}

/**
 * 租户管理 → 新建企业 through the API as the seeded operator, then the administrator's first login at the
 * central login: the random password sent by SMS (the development outbox), changed to TENANT_PASSWORD.
 */
async function createTenant(operator: Page, browser: Browser): Promise<Tenant> {
  const tag = uniqueTag();
  const name = `测试${tag}智能装备有限公司`;
  const creditCode = uniqueCreditCode();
  const admin = { username: `t${tag}`, name: '韩梅', phone: uniquePhone() };
  const api = await apiAs(operator);
  const [created] = await api.post<{ id: number }>('/web-api/console/v1/tenant', {
    name,
    creditCode,
    adminName: admin.name,
    adminUsername: admin.username,
    adminPhone: admin.phone,
  });
  if (!created) throw new Error(`tenant ${name} not created`);
  const { password: initial = '' } = await lastSms(operator, admin.phone, 'password');
  const context = await freshContext(browser);
  try {
    await signInFirstTime(await context.newPage(), { ...admin, password: initial }, TENANT_PASSWORD);
  } finally {
    await context.close();
  }
  return { id: created.id, name, creditCode, admin: { ...admin, password: TENANT_PASSWORD } };
}

/** The newest SMS of `template` sent to `phone` (the development outbox), by its parameters. */
export async function lastSms(page: Page, phone: string, template: string): Promise<Record<string, string>> {
  const outbox = await page.request.get(`/dev/sms-outbox?phone=${phone}`);
  const entries = ((await outbox.json()) as { data: { templateKey: string; params: Record<string, string> }[] }).data;
  // The outbox lists the newest first.
  const params = entries.find((entry) => entry.templateKey === template)?.params;
  if (!params) throw new Error(`no ${template} SMS to ${phone}`);
  return params;
}

/** The password colleagues added by `addColleague` choose at their first login. */
export const COLLEAGUE_PASSWORD = 'Mate#Kx2026';

/**
 * A colleague the tenant's administrator adds in 账号管理 (through the API; the initial password by
 * SMS) with the named system or custom roles; they have signed in once and chose COLLEAGUE_PASSWORD.
 */
export async function addColleague(
  browser: Browser,
  tenant: Tenant,
  name: string,
  roleNames: string[] = ['普通员工'],
  { markSlow = true }: { markSlow?: boolean } = {},
): Promise<Person & { id: number }> {
  // Two sign-ins before the test's own work: it gets the slow tests' time. A caller whose set-up may
  // outlive the test that started it (a shared promise) marks that test itself and passes false.
  if (markSlow) test.slow();
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await openConsole(page, tenant.admin);
    const api = await apiAs(page);
    const roles = await api.get<{ id: number; name: string }>('/web-api/console/v1/role/list');
    const roleIds = roleNames.map((role) => {
      const found = roles.find((r) => r.name === role);
      if (!found) throw new Error(`no role ${role}`);
      return found.id;
    });
    const colleague = { username: `m${uniqueTag()}`, name, phone: uniquePhone() };
    const [created] = await api.post<{ id: number }>('/web-api/console/v1/account', {
      ...colleague,
      groupIds: [],
      roleIds,
      passwordMode: 'sms',
    });
    const { password } = await lastSms(page, colleague.phone, 'password');
    const first = await freshContext(browser);
    await signInFirstTime(await first.newPage(), { ...colleague, password: password ?? '' }, COLLEAGUE_PASSWORD);
    await first.close();
    return { ...colleague, id: created?.id ?? 0, password: COLLEAGUE_PASSWORD };
  } finally {
    await context.close();
  }
}

/**
 * 企业认证 of a new tenant through the API: its administrator applies as an agent with a licence image
 * and an authorisation PDF, the operator approves the application in 认证审核.
 */
async function certify(operator: Page, browser: Browser, tenant: Tenant): Promise<void> {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await openConsole(page, tenant.admin);
    const admin = await apiAs(page);
    const file = '/web-api/console/v1/enterprise/certification/file';
    const [licence] = await admin.upload<{ id: number }>(file, {
      purpose: 'licence',
      file: { name: 'licence.png', mimeType: 'image/png', buffer: licencePng(600, 400, [181, 137, 0]) },
    });
    const [authorization] = await admin.upload<{ id: number }>(file, {
      purpose: 'authorization',
      file: { name: 'authorization.pdf', mimeType: 'application/pdf', buffer: pdfDocument(['授权书']) },
    });
    await admin.post('/web-api/console/v1/enterprise/certification', {
      enterpriseName: tenant.name,
      creditCode: tenant.creditCode,
      legalRepresentative: '顾建华',
      applicantRole: 'agent',
      licenceFileId: licence?.id,
      authorizationFileId: authorization?.id,
      declaration: true,
    });
  } finally {
    await context.close();
  }
  const api = await apiAs(operator);
  const [found] = await api.get<{ rows: { id: number }[] }>(
    `/web-api/console/v1/certification/page/list?status=pending&keyword=${tenant.creditCode}`,
  );
  const application = found?.rows[0];
  if (!application) throw new Error(`no certification application of ${tenant.name}`);
  await api.post(`/web-api/console/v1/certification/${application.id}/decision`, { decision: 'approve', reasons: [], comment: '' });
}

interface TenantOptions {
  /** 已认证: 标识管理 and 申请使用 are open to it only then. */
  certified?: boolean;
  /** An identifier prefix of its own, assigned by the operator (前缀管理; certified enterprises only). */
  prefix?: boolean;
}

/** A prefix no seeded enterprise or other worker has: 88, then two random segments. */
export const uniquePrefix = () => `88.${randomInt(200, 1000)}.${randomInt(1_000_000)}`;

/** How long setting up one enterprise may take on a busy 2-core machine. */
const TENANT_TIMEOUT = 120_000;

interface WorkerFixtures {
  /** The enterprise known by `key` (a spec file) in this worker, created on first use. */
  tenantOf: (key: string, options?: TenantOptions) => Promise<Tenant>;
}

interface TestFixtures {
  /** This spec file's own enterprise: whatever a test writes there no other file sees. */
  tenant: Tenant;
  /** Another enterprise for this test alone, for a journey that changes what every account of it meets (安全设置). */
  newTenant: () => Promise<Tenant>;
  /** This spec file's own certified enterprise (企业认证 applied for and approved through the API). */
  certifiedTenant: Tenant;
  /** This spec file's own certified enterprise with an identifier prefix of its own. */
  identifierTenant: Tenant & { prefix: string };
}

/**
 * Public pages arrive rendered by the server and become interactive once the app has hydrated them
 * (`<html data-app="ready">`). `page.goto` here also waits for that, so a test never clicks a button
 * whose handler is not attached yet.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  tenantOf: [
    async ({ browser }, use) => {
      const tenants = new Map<string, Promise<Tenant>>();
      let operator: Promise<Page> | undefined;
      const operatorPage = () =>
        (operator ??= (async () => {
          const page = await (await freshContext(browser)).newPage();
          await openConsole(page, 'operator');
          return page;
        })());
      await use((key, options = {}) => {
        let tenant = tenants.get(key);
        if (!tenant) {
          tenant = operatorPage().then(async (page) => {
            const created = await createTenant(page, browser);
            if (!options.certified && !options.prefix) return created;
            await certify(page, browser, created);
            if (!options.prefix) return created;
            const prefix = uniquePrefix();
            await (await apiAs(page)).post('/web-api/identity/v1/prefix', { prefix, name: '产品标识', enterpriseId: created.id });
            return { ...created, prefix };
          });
          tenants.set(key, tenant);
        }
        return tenant;
      });
      if (operator) await (await operator).context().close();
    },
    { scope: 'worker' },
  ],
  // Creating an enterprise (sign-ins, 企业认证) is the fixtures' time, not the first test's.
  tenant: [
    async ({ tenantOf }, use, testInfo) => {
      await use(await tenantOf(testInfo.file));
    },
    { timeout: TENANT_TIMEOUT },
  ],
  certifiedTenant: [
    async ({ tenantOf }, use, testInfo) => {
      await use(await tenantOf(`${testInfo.file}#certified`, { certified: true }));
    },
    { timeout: TENANT_TIMEOUT },
  ],
  identifierTenant: [
    async ({ tenantOf }, use, testInfo) => {
      const tenant = await tenantOf(`${testInfo.file}#identifiers`, { certified: true, prefix: true });
      if (!tenant.prefix) throw new Error(`${tenant.name} has no prefix`);
      await use({ ...tenant, prefix: tenant.prefix });
    },
    { timeout: TENANT_TIMEOUT },
  ],
  newTenant: async ({ tenantOf }, use, testInfo) => {
    let n = 0;
    await use(() => tenantOf(`${testInfo.testId}#${++n}`));
  },
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      // Pages of the app (not the CAS login page or static pages) wait for hydration.
      // A test that asks only for the commit (`waitUntil: 'commit'`) looks at the page as it loads.
      if (options?.waitUntil === 'commit') return response;
      if (response?.headers()['content-type']?.includes('text/html') && (await page.locator('#root').count()) > 0) {
        await page.locator('html[data-app="ready"]').waitFor({ state: 'attached' });
      }
      return response;
    };
    await use(page);
  },
});

export { expect };

/**
 * A visitor's first page runs the silent single sign-on check (hidden iframe, once per tab). Resolves
 * once it has answered, so a redirect it caused could not be missed.
 */
export async function silentCheckDone(page: Page): Promise<void> {
  await page.waitForFunction(() => sessionStorage.getItem('portal.sso-checked') === '1' && !document.querySelector('iframe[title="sso"]'));
}

/**
 * Resolves once `locator`'s element and its ancestors have finished animating: antd slides menus and
 * dialogs in, and an item clicked while it moves can be missed.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate(async (el) => {
    const running: Animation[] = [];
    for (let node: Element | null = el; node; node = node.parentElement) running.push(...node.getAnimations());
    await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Resolves once the page has drawn five frames in a row without any box scrolling: a smooth scroll
 * (a click on a menu, a result brought into view) has ended, or none was started by what was drawn.
 */
export async function scrollStill(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as Window & { stillScrolls?: string; stillFrames?: number };
    w.stillScrolls = undefined;
    w.stillFrames = 0;
  });
  await page.waitForFunction(
    () => {
      const w = window as Window & { stillScrolls?: string; stillFrames?: number };
      const now = [document.scrollingElement, ...document.querySelectorAll('*')]
        .map((e) => (e && (e.scrollTop || e.scrollLeft) ? `${e.scrollTop},${e.scrollLeft}` : ''))
        .join(';');
      w.stillFrames = now === w.stillScrolls ? (w.stillFrames ?? 0) + 1 : 0;
      w.stillScrolls = now;
      return w.stillFrames >= 5;
    },
    undefined,
    { polling: 'raf' },
  );
}

/**
 * Resolves after `turns` rendering turns of the page (an animation frame, then a task): what the last
 * answer changed has been rendered, its effects have run, and what they opened (antd mounts static
 * dialogs after a task) has been drawn. Counts frames, never time.
 */
export async function renderingSettled(page: Page, turns = 3): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  }, turns);
}
