import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../testing/test-app.js';

async function documentedPaths(env: Record<string, string>) {
  const t = await createTestApp('sqlite', env);
  try {
    const res = await t.app.inject({ url: '/openapi.json' });
    const docs = await t.app.inject({ url: '/docs/' });
    return {
      status: res.statusCode,
      docs: docs.statusCode,
      paths: res.statusCode === 200 ? Object.keys(res.json<{ paths: object }>().paths) : [],
    };
  } finally {
    await t.close();
  }
}

describe('API reference exposure (API_DOCS)', () => {
  it('lists only the public APIs by default', async () => {
    const { status, paths } = await documentedPaths({});
    expect(status).toBe(200);
    expect(paths).toEqual(expect.arrayContaining(['/open-api/cms/v1/category/tree', '/web-api/portal/v1/identity/query', '/healthz']));
    const private_ = paths.filter((p) => /^\/(web-api\/(console|cms|identity|files)|web\/portal)\//.test(p));
    expect(private_).toEqual([]);
  });

  it('lists the CAS protocol endpoints by default, and none of the login flow behind them', async () => {
    const t = await createTestApp('sqlite');
    try {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
      const cas = Object.entries(doc.paths)
        .filter(([path]) => path.startsWith('/cas/'))
        .map(([path, methods]) => `${Object.keys(methods).join(',')} ${path}`);
      expect(cas.sort()).toEqual(
        [
          'get /cas/login',
          'get /cas/logout',
          'get /cas/validate',
          'get /cas/serviceValidate',
          'get /cas/proxyValidate',
          'get /cas/p3/serviceValidate',
          'get /cas/p3/proxyValidate',
        ].sort(),
      );
    } finally {
      await t.close();
    }
  });

  it('lists console, account and CAS routes with API_DOCS=all, and nothing with API_DOCS=off', async () => {
    const all = await documentedPaths({ API_DOCS: 'all' });
    expect(all.paths).toEqual(expect.arrayContaining(['/web-api/console/v1/audit/page/list', '/web/portal/account/password']));
    const off = await documentedPaths({ API_DOCS: 'off' });
    expect(off.status).toBe(404);
    expect(off.docs).toBe(404);
  });
});
