import { decodeRuntimeConfig, RUNTIME_CONFIG_KEYS } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

function decodeScript(body: string) {
  const match = /^window\.getPortalConfig=function\(\)\{return "([A-Za-z0-9+/=]+)";\};\n$/.exec(body);
  expect(match, body).not.toBeNull();
  return decodeRuntimeConfig(match![1]!);
}

describe.each(testDialects())('system routes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('GET /healthz checks the database', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: dialect });
  });

  it('GET /config.js defines the global function returning base64 JSON with every key', async () => {
    const res = await t.app.inject({ url: '/config.js', headers: { host: 'localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    // Every page loads it: a shared cache keeps it as long as the site settings (its key holds the Host).
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    const config = decodeScript(res.body);
    expect(Object.keys(config).sort()).toEqual([...RUNTIME_CONFIG_KEYS].sort());
    // Defaults point at the server the visitor reached, so every link works on a fresh install.
    expect(config).toEqual({
      casLoginUrl: 'http://localhost/cas/login',
      casLogoutUrl: 'http://localhost/cas/logout',
      mainUrl: 'http://localhost',
      mainVisitPrefix: '/',
      appCenterUrl: 'http://localhost/product',
      openServiceUrl: 'http://localhost/open-service',
      tenantManageUrl: 'http://localhost/console',
      operatePlatformUrl: 'http://localhost/console',
      fileStaticUrl: 'http://localhost/files',
      homeUrl: 'http://localhost',
      apiBaseUrl: 'http://localhost',
      appPackageUrl: '',
    });
  });

  it('GET /openapi.json documents the routes and /docs serves the reference', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/config.js', '/web-api/portal/v1/site']));
    const docs = await t.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('sends pages a Content-Security-Policy that allows only the app’s own scripts', async () => {
    const res = await t.app.inject({ url: '/cas/login' });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends API answers the short REST header set: nothing loads, nothing frames them', async () => {
    for (const url of ['/healthz', '/open-api/cms/v1/category/tree', '/web/portal/menu/list', '/web-api/no-such-call']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-site');
    }
  });
});

describe('runtime configuration from the environment', () => {
  it('uses PUBLIC_URL and per-key overrides', async () => {
    const t = await createTestApp('sqlite', {
      PUBLIC_URL: 'https://portal.example.cn/',
      CAS_LOGIN_URL: 'https://sso.example.cn/cas/login',
      CAS_LOGOUT_URL: 'https://sso.example.cn/cas/logout',
      MAIN_VISIT_PREFIX: '/#/',
      FILE_STATIC_URL: 'https://static.example.cn/files/',
    });
    try {
      // Another Host is refused outright (421): it can never steer the links.
      expect((await t.app.inject({ url: '/config.js', headers: { host: 'evil.test' } })).statusCode).toBe(421);
      const res = await t.app.inject({ url: '/config.js', headers: { host: 'portal.example.cn' } });
      const config = decodeScript(res.body);
      expect(config.casLoginUrl).toBe('https://sso.example.cn/cas/login');
      expect(config.casLogoutUrl).toBe('https://sso.example.cn/cas/logout');
      expect(config.mainVisitPrefix).toBe('/#/');
      expect(config.fileStaticUrl).toBe('https://static.example.cn/files');
      expect(config.homeUrl).toBe('https://portal.example.cn');
      expect(config.appCenterUrl).toBe('https://portal.example.cn/product');
      // Configured hosts are allowed by the CSP, nothing else.
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain('https://sso.example.cn');
      expect(csp).not.toContain('evil.test');
    } finally {
      await t.close();
    }
  });

  it('refuses a malformed PUBLIC_URL or PORT at start', async () => {
    const { loadConfig } = await import('../../config.js');
    expect(() => loadConfig({ PUBLIC_URL: 'portal.example.cn' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).not.toThrow();
  });

  it("APP_PACKAGE_URL is the installation package /app-download offers; it must be an http(s) file's address", async () => {
    const { loadConfig, resolveRuntimeConfig } = await import('../../config.js');
    const config = loadConfig({ APP_PACKAGE_URL: 'https://download.example.cn/eplus-3.6.2.apk' });
    expect(resolveRuntimeConfig(config, 'http://localhost').appPackageUrl).toBe('https://download.example.cn/eplus-3.6.2.apk');
    for (const value of ['download.example.cn/app.apk', 'javascript:alert(1)', 'https://download.example.cn']) {
      expect(() => loadConfig({ APP_PACKAGE_URL: value }), value).toThrow(/APP_PACKAGE_URL/);
    }
  });
});
