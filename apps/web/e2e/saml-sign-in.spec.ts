import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { apiAs } from './api-helpers.js';
import { openConsole } from './console-helpers.js';
import { expect, test, uniqueTag } from './fixtures.js';

/**
 * An enterprise (this file's own, the tenant fixture) connects a SAML 2.0 application: a real service
 * provider on @node-saml/node-saml, configured from the portal's IdP metadata. A fresh browser starts
 * at the application, signs in at the central login and is posted back to the application's ACS on
 * its own origin, which redirects to the application's page on another origin (the page's CSP
 * form-action governs that redirect too).
 */
async function startServiceProvider(portal: string) {
  const metadata = await (await fetch(`${portal}/saml/metadata`)).text();
  const certs = [...metadata.matchAll(/<(?:\w+:)?X509Certificate>([^<]+)</g)].map((m) => (m[1] ?? '').replace(/\s+/g, ''));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  const n = uniqueTag();
  const base = `http://localhost:${port}`;
  const sp = {
    name: `供应商协同${n}`,
    entityId: `${base}/saml-${n}/metadata`,
    acsUrl: `${base}/saml-${n}/acs`,
    loginUrl: `${base}/saml-${n}/login`,
    // The application itself, where the ACS sends the browser: the same server under another origin.
    appUrl: `http://127.0.0.1:${port}/saml-${n}/app`,
  };
  const saml = new SAML({
    entryPoint: `${portal}/saml/sso`,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpCert: certs,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: ValidateInResponseTo.always,
    disableRequestedAuthnContext: true,
  });
  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const path = new URL(req.url ?? '/', base).pathname;
        try {
          if (path === new URL(sp.loginUrl).pathname) {
            res.writeHead(302, { location: await saml.getAuthorizeUrlAsync('', undefined, {}) });
            return res.end();
          }
          if (path === new URL(sp.acsUrl).pathname && req.method === 'POST') {
            const { profile } = await saml.validatePostResponseAsync(Object.fromEntries(new URLSearchParams(body)));
            res.writeHead(302, { location: `${sp.appUrl}?name=${encodeURIComponent(String(profile?.name ?? ''))}` });
            return res.end();
          }
          if (path === new URL(sp.appUrl).pathname) {
            const name = new URL(req.url ?? '/', base).searchParams.get('name') ?? '';
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            return res.end(`<!doctype html><title>供应商协同</title><h1>已登录</h1><p>${name.replace(/[<>&"]/g, '')}</p>`);
          }
          res.writeHead(404);
          return res.end();
        } catch (err) {
          res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
          return res.end(`refused: ${err instanceof Error ? err.message : String(err)}`);
        }
      })();
    });
  });
  return { ...sp, close: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
}

/** The global setup's CAS 3.0 client application (another origin). */
function casAppOrigin(): string {
  const origin = process.env.E2E_CAS_APP;
  if (!origin) throw new Error('E2E_CAS_APP is set by the e2e global setup');
  return origin;
}

test.describe('SAML 2.0', () => {
  test('a fresh browser starts at the SAML application, signs in at the central login, lands in the application and opens a CAS application without signing in again', async ({
    tenant,
    page,
    browser,
    baseURL,
  }) => {
    const sp = await startServiceProvider(baseURL ?? '');
    try {
      await openConsole(page, tenant.admin, '/console/app/list');
      const api = await apiAs(page);
      const [created] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
        name: sp.name,
        protocol: 'saml2',
        servicePrefixes: [],
        attributes: ['name'],
        status: 'enabled',
        saml: {
          entityId: sp.entityId,
          acsUrl: sp.acsUrl,
          sloUrl: '',
          certificate: '',
          nameIdFormat: 'persistent',
          signResponse: true,
          signAssertion: true,
          wantRequestsSigned: false,
        },
      });
      // A CAS application of the same enterprise (the global setup's CAS 3.0 client, a path of its own).
      const casHome = `${casAppOrigin()}/saml-journey-${uniqueTag()}/`;
      const [cas] = await api.post<{ id: number }>('/web-api/console/v1/sso-app', {
        name: `设备台账${uniqueTag()}`,
        protocol: 'cas3',
        servicePrefixes: [casHome],
        attributes: [],
        status: 'enabled',
      });
      for (const id of [created?.id, cas?.id]) {
        await api.put(`/web-api/console/v1/sso-app/${id ?? 0}/grants`, { allMembers: true, groupIds: [], roleIds: [], accountIds: [] });
      }

      const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      const person = await context.newPage();
      await person.goto(sp.loginUrl, { waitUntil: 'commit' });
      await expect(person.getByRole('heading', { name: '账号登录' })).toBeVisible();
      await person.getByLabel('账号').fill(tenant.admin.username);
      await person.getByLabel('密码', { exact: true }).fill(tenant.admin.password);
      await person.getByRole('button', { name: /登\s*录/ }).click();
      // The response page posts itself to the ACS, whose redirect to the application's other origin is let through.
      await expect(person.getByRole('heading', { name: '已登录' })).toBeVisible();
      expect(person.url()).toBe(`${sp.appUrl}?name=${encodeURIComponent(tenant.admin.name)}`);
      await expect(person.getByText(tenant.admin.name)).toBeVisible();
      // The same sign-on session: the CAS application opens signed in, no login form on the way.
      await person.goto(casHome);
      await expect(person.getByText(`signed in as ${tenant.admin.username}`)).toBeVisible();
      expect(person.url()).toBe(casHome);
      await context.close();
    } finally {
      await sp.close();
    }
  });
});
