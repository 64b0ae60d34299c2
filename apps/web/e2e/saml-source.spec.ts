import { startSamlIdp } from '../../server/src/testing/saml-idp-app.js';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, test, uniquePhone, uniqueTag } from './fixtures.js';

/**
 * The enterprise (this file's own, the tenant fixture) brings its own SAML 2.0 identity provider: an
 * independent samlify IdP on its own port. Its administrator adds it under 认证源 by its metadata address,
 * sees what to register at the IdP, runs 测试登录 in a popup; then a fresh browser signs in through the
 * source's button on the central login of one of the enterprise's applications, its account created on the way (JIT).
 */
test.describe('企业身份提供方（SAML 2.0）', () => {
  test('the administrator adds the IdP by its metadata, 测试登录 shows the mapped fields, and a person signs in with JIT', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    const tag = uniqueTag();
    const idp = await startSamlIdp();
    const person = { uid: `sl${tag}`, displayName: '韩梅梅', mobile: uniquePhone(), mail: `hmm${tag}@example.cn` };
    idp.state.user = { nameId: `saml-e2e-${tag}`, attributes: person };
    const name = `集团 SAML ${tag}`;
    let sourceId = 0;
    try {
      await openConsole(page, tenant.admin, '/console/auth/source');
      await page.getByRole('button', { name: '新增认证源' }).click();
      await page.getByRole('dialog', { name: '选择认证源类型' }).getByRole('button', { name: 'SAML 2.0' }).click();
      const drawer = page.getByRole('dialog', { name: '新增认证源（SAML 2.0）' });
      await drawer.getByLabel('名称').fill(name);
      await drawer.getByLabel('元数据地址').fill(idp.metadataUrl);
      await drawer.getByRole('button', { name: /读\s*取/ }).click();
      await expect(drawer.getByLabel('IdP 实体 ID（Entity ID）')).toHaveValue(`${idp.base}/metadata`);
      await expect(drawer.getByLabel('单点登录地址（SSO URL）')).toHaveValue(`${idp.base}/sso`);
      await drawer.getByRole('switch', { name: '首次登录自动创建账号' }).click();
      await drawer.getByRole('button', { name: /保\s*存/ }).click();

      // Saved: the drawer stays on the source with what to register at the IdP.
      const edit = page.getByRole('dialog', { name: `编辑认证源 ${name}` });
      const register = edit.getByRole('region', { name: '在 IdP 登记的信息' });
      await expect(register.getByText(/\/cas\/login\/federation\/\d+\/callback$/)).toBeVisible();
      sourceId = Number(/federation\/(\d+)\/callback/.exec((await register.getByText(/callback$/).textContent()) ?? '')?.[1]);

      // 测试登录: a real sign-in in a popup at the IdP, signing nobody in.
      const popupOpened = page.waitForEvent('popup');
      await edit.getByRole('button', { name: '测试登录' }).click();
      const popup = await popupOpened;
      await popup.getByRole('button', { name: 'Continue' }).click();
      // The popup shows what came back (the page the person reads there).
      await expect(popup.getByRole('heading', { name: '测试登录成功' })).toBeVisible();
      await expect(popup.getByRole('row', { name: new RegExp(`用户名\\s*${person.uid}`) })).toBeVisible();
      await expect(popup.getByRole('row', { name: new RegExp(`手机号\\s*${person.mobile}`) })).toBeVisible();
      await popup.close();

      // The central login offers the source's button only for the enterprise's own applications.
      const origin = process.env.E2E_CAS_APP;
      if (!origin) throw new Error('E2E_CAS_APP is set by the e2e global setup');
      const casHome = `${origin}/saml-source-${tag}/`;
      const api = await apiAs(page);
      const [cas] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
        name: `质量追溯${tag}`,
        protocol: 'cas3',
        servicePrefixes: [casHome],
        attributes: [],
        status: 'enabled',
      });
      await api.put(`/web-api/console/v1/sso-app/${cas?.id ?? 0}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });

      // A fresh browser: the application sends it to the central login, the source's button, the IdP, back in the application (account created).
      const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      const visitor = await context.newPage();
      await visitor.goto(casHome, { waitUntil: 'commit' });
      await visitor.getByRole('link', { name: new RegExp(name) }).click();
      expect(new URL(visitor.url()).origin).toBe(idp.base);
      await visitor.getByRole('button', { name: 'Continue' }).click();
      await expect(visitor.getByText(`signed in as ${person.uid}`)).toBeVisible();
      expect(visitor.url()).toBe(casHome);
      await context.close();
    } finally {
      // The shared server's login page goes back to how the other journeys know it.
      if (sourceId) {
        const api = await apiAs(page);
        const [detail] = await api.get<{ config: Record<string, unknown> }>(`/web-api/console/v1/auth/sources/${sourceId}`);
        await api.put(`/web-api/console/v1/auth/sources/${sourceId}`, { type: 'saml', name, enabled: false, config: detail?.config ?? {} });
      }
      await idp.close();
    }
  });
});
