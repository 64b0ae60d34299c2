import net from 'node:net';
import { startOidcIdp } from '../../server/src/testing/oidc-idp.js';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, freshContext, test, uniquePhone, uniqueTag } from './fixtures.js';

/**
 * The enterprise (this file's own, the tenant fixture) brings its own OpenID Provider: an independent
 * oidc-provider on its own port with its own people and sign-in page. A fresh browser starts at a CAS
 * application on another origin, types an address of the enterprise's domain at the central login, signs
 * in at the provider, and lands in the application, its account created on the way (JIT). Before that, the
 * administrator's 测试登录 runs a real sign-in in a popup and reads what came back in the form.
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The global setup's CAS 3.0 client application (another origin). */
function casAppOrigin(): string {
  const origin = process.env.E2E_CAS_APP;
  if (!origin) throw new Error('E2E_CAS_APP is set by the e2e global setup');
  return origin;
}

test.describe('企业身份提供方（OpenID Connect）', () => {
  test('a fresh browser starts at a CAS application, types an address of the enterprise domain, signs in at its provider and ends inside the application', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    const tag = uniqueTag();
    const domain = `t${tag}.example.cn`;
    const port = await freePort();
    const person = {
      sub: `e2e-${tag}`,
      preferred_username: `ll${tag}`,
      name: '李雷',
      email: `lilei@${domain}`,
      email_verified: true,
      phone_number: uniquePhone(),
      password: 'Idp#Kx2026',
    };
    await openConsole(page, tenant.admin, '/console/auth/source');
    const api = await apiAs(page);
    const [source] = await api.post<{ id: number }>('/web-api/console/v1/auth/sources', {
      type: 'oidc',
      name: `集团身份${tag}`,
      enabled: true,
      secret: 'e2e-idp-client-secret',
      config: {
        issuer: `http://127.0.0.1:${port}`,
        clientId: 'engineering-eplus',
        scopes: 'openid profile email phone',
        mapping: { username: 'preferred_username', name: 'name', email: 'email', phone: 'phone_number' },
        domains: [domain],
        jit: true,
        groupIds: [],
        enforce: false,
      },
    });
    const sourceId = source?.id ?? 0;
    const idp = await startOidcIdp({
      port,
      clients: [
        {
          clientId: 'engineering-eplus',
          clientSecret: 'e2e-idp-client-secret',
          redirectUris: [`${baseURL ?? ''}/cas/login/federation/${sourceId}/callback`],
        },
      ],
      people: [person],
    });
    try {
      // 测试登录 in the console: a real sign-in at the provider in a popup, whose result comes back to the form.
      await page.reload();
      await page
        .getByRole('row', { name: new RegExp(`集团身份${tag}`) })
        .getByRole('button', { name: /编\s*辑/ })
        .click();
      const drawer = page.getByRole('dialog', { name: /编辑认证源/ });
      const popupOpened = page.waitForEvent('popup');
      await drawer.getByRole('button', { name: '测试登录' }).click();
      const popup = await popupOpened;
      await popup.getByLabel('用户名').fill(person.preferred_username);
      await popup.getByLabel('密码').fill(person.password);
      await popup.getByRole('button', { name: '登录' }).click();
      await expect(drawer.getByText('测试登录成功')).toBeVisible();
      await expect(drawer.getByText(person.email).first()).toBeVisible();
      await expect(drawer.getByRole('region', { name: '邮箱域名审核' }).getByText('待审核')).toBeVisible();
      await drawer.getByRole('button', { name: /取\s*消/ }).click();

      // The claimed domain routes only once the platform's operator approves it in 租户管理 → 详情.
      const operatorContext = await freshContext(browser);
      const operator = await operatorContext.newPage();
      await openConsole(operator, 'operator', '/console/tenant');
      await operator.getByLabel('企业名称').fill(tenant.name);
      await operator.getByRole('button', { name: /查\s*询/ }).click();
      await operator
        .getByRole('row')
        .filter({ hasText: tenant.name })
        .getByRole('button', { name: /详\s*情/ })
        .click();
      const claimed = operator
        .getByRole('dialog', { name: `企业详情：${tenant.name}` })
        .getByRole('region', { name: '企业邮箱域名' })
        .getByRole('listitem', { name: domain });
      await expect(claimed.getByText('待审核')).toBeVisible();
      await claimed.getByRole('button', { name: /批\s*准/ }).click();
      await expect(claimed.getByText('已批准')).toBeVisible();
      await operatorContext.close();

      // A CAS application of the enterprise, open to all its members (JIT accounts included).
      const casHome = `${casAppOrigin()}/federated-${tag}/`;
      const [cas] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
        name: `设备台账${tag}`,
        protocol: 'cas3',
        servicePrefixes: [casHome],
        attributes: [],
        status: 'enabled',
      });
      await api.put(`/web-api/console/v1/sso-app/${cas?.id ?? 0}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });

      const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      const visitor = await context.newPage();
      await visitor.goto(casHome, { waitUntil: 'commit' });
      await expect(visitor.getByRole('heading', { name: '账号登录' })).toBeVisible();
      await visitor.getByLabel('账号或邮箱').fill(person.email);
      await visitor.getByRole('button', { name: /登\s*录/ }).click();
      // The enterprise's own provider, on its own origin.
      await expect(visitor.getByRole('heading', { name: '集团统一身份认证' })).toBeVisible();
      expect(new URL(visitor.url()).origin).toBe(idp.issuer);
      await visitor.getByLabel('用户名').fill(person.preferred_username);
      await visitor.getByLabel('密码').fill(person.password);
      await visitor.getByRole('button', { name: '登录' }).click();
      await expect(visitor.getByText(`signed in as ${person.preferred_username}`)).toBeVisible();
      expect(visitor.url()).toBe(casHome);
      await context.close();
    } finally {
      // The shared server's login page goes back to how the other journeys know it.
      await api.put(`/web-api/console/v1/auth/sources/${sourceId}`, {
        type: 'oidc',
        name: `集团身份${tag}`,
        enabled: false,
        config: {
          issuer: `http://127.0.0.1:${port}`,
          clientId: 'engineering-eplus',
          scopes: 'openid profile email phone',
          mapping: { username: 'preferred_username', name: 'name', email: 'email', phone: 'phone_number' },
          domains: [domain],
          jit: true,
          groupIds: [],
          enforce: false,
        },
      });
      await idp.close();
    }
  });
});
