import type { ApiReferenceGroup, ApiReferenceOperation } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_CACHE, publicCacheControl } from '../../../platform/plugins/http-cache.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

const REFERENCE = '/web-api/portal/v1/open-service/api-reference';

/**
 * The operations the API reference lists: content lists and detail, identifier query, the Handle API,
 * the CAS and OIDC endpoints, and the enterprise's APIs for machine clients.
 */
const EXPECTED: Record<string, string[]> = {
  content: ['/open-api/cms/v1/category/tree', '/open-api/cms/v1/article/published/page/list', '/open-api/cms/v1/article/{id}/detail'],
  identifier: ['/web-api/portal/v1/identity/query'],
  handle: ['/api/handles/{handle}'],
  cas: [
    '/cas/login',
    '/cas/logout',
    '/cas/validate',
    '/cas/serviceValidate',
    '/cas/proxyValidate',
    '/cas/p3/serviceValidate',
    '/cas/p3/proxyValidate',
  ],
  oidc: [
    '/oidc/.well-known/openid-configuration',
    '/oidc/auth',
    '/oidc/token',
    '/oidc/me',
    '/oidc/jwks',
    '/oidc/token/revocation',
    '/oidc/token/introspection',
    '/oidc/session/end',
  ],
  saml: ['/saml/metadata', '/saml/sso', '/saml/slo'],
  enterprise: [
    '/open-api/enterprise/v1/account/page/list',
    '/open-api/enterprise/v1/account-group/page/list',
    '/open-api/enterprise/v1/identifier/record/page/list',
    '/open-api/enterprise/v1/identifier/record/{id}',
    '/open-api/enterprise/v1/identifier/record',
    '/open-api/enterprise/v1/identifier/record/{id}',
  ],
};

async function referenceOf(t: TestApp): Promise<ApiReferenceGroup[]> {
  const res = await t.app.inject({ url: REFERENCE });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as ApiReferenceGroup[];
}

/** The address a curl example calls, as this server's path and query. */
function curlTarget(operation: ApiReferenceOperation): string {
  const match = /^curl (?:-sS|-i) '([^']+)'$/.exec(operation.curl);
  expect(match, operation.curl).not.toBeNull();
  const url = new URL(match![1]!);
  // Addressed to this server as the visitor reached it (the Host of app.inject).
  expect(url.origin).toBe('http://localhost');
  return `${url.pathname}${url.search}`;
}

describe.each(testDialects())('开放服务 API reference on %s', (dialect) => {
  let t: TestApp;
  let groups: ApiReferenceGroup[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    groups = await referenceOf(t);
  });
  afterAll(() => t.close());

  const operations = () => groups.flatMap((g) => g.operations);
  const operation = (path: string) => operations().find((o) => o.path === path)!;

  it('lists exactly the public operations, grouped, and nothing of the console or account APIs', () => {
    expect(Object.fromEntries(groups.map((g) => [g.key, g.operations.map((o) => o.path)]))).toEqual(EXPECTED);
    for (const group of groups) {
      expect(group.title).not.toBe('');
      expect(group.description).not.toBe('');
    }
    for (const o of operations()) {
      expect(o.path).not.toMatch(/^\/(web-api\/(console|cms|identity|files)|web\/portal)\//);
      // Only the OAuth endpoints that the specifications make POSTs are, and the enterprise API's writes.
      if (!o.path.startsWith('/open-api/enterprise/')) {
        expect(o.method, o.path).toBe(
          ['/oidc/token', '/oidc/token/revocation', '/oidc/token/introspection'].includes(o.path) ? 'POST' : 'GET',
        );
      }
      expect(o.summary, o.path).not.toBe('');
      expect(o.description, o.path).not.toBe('');
      expect(o.curl, o.path).toMatch(/^curl /);
      expect(o.responseExample, o.path).not.toBe('');
    }
  });

  it('describes each parameter from the OpenAPI document', () => {
    const list = operation('/open-api/cms/v1/article/published/page/list');
    expect(list.parameters.find((p) => p.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      required: true,
      type: 'integer',
      description: '每页条数，1–100；默认 10',
    });
    expect(operation('/open-api/cms/v1/category/tree').parameters).toEqual([
      { name: 'channel', in: 'query', required: false, type: 'news | knowledge', description: '' },
    ]);
    expect(operation('/api/handles/{handle}').parameters[0]).toMatchObject({ name: 'handle', in: 'path', required: true });
    expect(operation('/cas/p3/serviceValidate').parameters.map((p) => p.name)).toEqual(['service', 'ticket', 'renew', 'pgtUrl', 'format']);
    expect(operation('/cas/p3/serviceValidate').parameters[0]!.description).toContain('应用列表');
    // The protocol requires both, though a request without them gets CAS's INVALID_REQUEST rather than a 400.
    for (const path of [
      '/cas/validate',
      '/cas/serviceValidate',
      '/cas/proxyValidate',
      '/cas/p3/serviceValidate',
      '/cas/p3/proxyValidate',
    ]) {
      const required = operation(path)
        .parameters.filter((p) => p.required)
        .map((p) => p.name);
      expect(required, path).toEqual(['service', 'ticket']);
    }
    // A category's children in the example are a list of categories, not an empty object cut from the recursion.
    const tree = JSON.parse(operation('/open-api/cms/v1/category/tree').responseExample) as { data: unknown[] };
    expect(JSON.stringify(tree)).not.toContain('{}');
  });

  it('gives curl requests that run against this server and answer the shape of the example', async () => {
    for (const path of [
      '/open-api/cms/v1/category/tree',
      '/open-api/cms/v1/article/published/page/list',
      '/open-api/cms/v1/article/{id}/detail',
      '/web-api/portal/v1/identity/query',
    ]) {
      const o = operation(path);
      const res = await t.app.inject({ url: curlTarget(o) });
      expect(res.statusCode, `${o.curl}: ${res.body}`).toBe(200);
      const real = res.json() as { code: number; data: Record<string, unknown>[] };
      const example = JSON.parse(o.responseExample) as { code: number; data: Record<string, unknown>[] };
      expect(real.code).toBe(example.code);
      expect(real.data.length).toBeGreaterThan(0);
      expect(Object.keys(real.data[0]!).sort()).toEqual(Object.keys(example.data[0]!).sort());
    }

    const handle = operation('/api/handles/{handle}');
    const resolved = await t.app.inject({ url: curlTarget(handle) });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ responseCode: 1, handle: '88.118.8/EX-2024-000123' });
    expect(Object.keys(resolved.json()).sort()).toEqual(Object.keys(JSON.parse(handle.responseExample)).sort());

    // A CAS validation runs too; the example ticket was never issued, so the answer is the protocol's failure.
    const validate = await t.app.inject({ url: curlTarget(operation('/cas/p3/serviceValidate')) });
    expect(validate.statusCode).toBe(200);
    expect(validate.json()).toMatchObject({ serviceResponse: { authenticationFailure: { code: 'INVALID_TICKET' } } });
    const login = await t.app.inject({ url: curlTarget(operation('/cas/login')) });
    expect(login.headers['content-type']).toContain('text/html');

    // The OIDC examples name the provider's real addresses: its discovery document lists the same.
    const discovery = operation('/oidc/.well-known/openid-configuration');
    const answered = await t.app.inject({ url: curlTarget(discovery) });
    expect(answered.statusCode, answered.body).toBe(200);
    const example = JSON.parse(discovery.responseExample) as Record<string, unknown>;
    const real = answered.json() as Record<string, unknown>;
    for (const key of Object.keys(example).filter((k) => k === 'issuer' || k.endsWith('_endpoint') || k === 'jwks_uri')) {
      expect(real[key], key).toBe(example[key]);
    }
    for (const path of EXPECTED.oidc!) expect(operation(path).curl, path).toContain(`http://localhost${path}`);
  });

  it('shows example answers built from the response schemas: CAS 3.0 with attributes, CAS 2.0 without', () => {
    expect(JSON.parse(operation('/cas/p3/serviceValidate').responseExample)).toEqual({
      serviceResponse: {
        authenticationSuccess: {
          user: expect.any(String),
          attributes: expect.objectContaining({ name: expect.any(String), isFromNewLogin: 'true' }),
        },
      },
    });
    expect(JSON.parse(operation('/cas/serviceValidate').responseExample)).toEqual({
      serviceResponse: { authenticationSuccess: { user: expect.any(String) } },
    });
    expect(operation('/cas/p3/serviceValidate').curl).toContain('format=JSON');
    expect(operation('/cas/validate').responseExample).toBe('yes\nadmin\n');
    const page = JSON.parse(operation('/open-api/cms/v1/article/published/page/list').responseExample);
    expect(page).toMatchObject({
      code: 20200,
      msg: '操作成功',
      data: [{ rows: [expect.objectContaining({ title: expect.any(String) })] }],
    });
  });

  it("gives the enterprise APIs' curl requests with the token and body they need, which register and read with the demo machine client", async () => {
    const enterprise = groups.find((g) => g.key === 'enterprise')!;
    expect(enterprise.description).toContain('http://localhost/oidc/token');
    const token = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: {
        authorization: `Basic ${Buffer.from('hengyue-mes:hengyue-mes-demo-secret-2026').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials&scope=identifiers%3Aread%20identifiers%3Awrite',
    });
    expect(token.statusCode, token.body).toBe(200);
    const accessToken = (token.json() as { access_token: string }).access_token;
    /** A curl example as the request it makes: method, this server's path and query, headers and body. */
    const requestOf = (o: ApiReferenceOperation) => {
      const [first, ...options] = o.curl.split(' \\\n  ');
      const match = /^curl -sS(?: -X (POST|PUT))? '([^']+)'$/.exec(first ?? '');
      expect(match, o.curl).not.toBeNull();
      const url = new URL(match![2]!);
      expect(url.origin).toBe('http://localhost');
      const headers: Record<string, string> = {};
      let payload: string | undefined;
      for (const option of options) {
        const header = /^-H '([^:]+): (.*)'$/.exec(option);
        if (header) headers[header[1]!.toLowerCase()] = header[2]!.replace('<访问令牌>', accessToken);
        else payload = /^-d '(.*)'$/.exec(option)?.[1];
      }
      return { method: (match![1] ?? 'GET') as 'GET' | 'POST' | 'PUT', url: `${url.pathname}${url.search}`, headers, payload };
    };
    const create = enterprise.operations.find((o) => o.method === 'POST')!;
    expect(create.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['prefix', 'body', true],
      ['suffix', 'body', true],
      ['templateId', 'body', true],
      ['values', 'body', true],
    ]);
    const created = await t.app.inject(requestOf(create));
    expect(created.statusCode, created.body).toBe(200);
    const record = (created.json() as { data: { id: number; handle: string }[] }).data[0]!;
    expect(record.handle).toBe('88.118.8/EX-2026-000001');
    const list = await t.app.inject(requestOf(enterprise.operations.find((o) => o.path.endsWith('/identifier/record/page/list'))!));
    expect(list.statusCode, list.body).toBe(200);
    expect(Object.keys((list.json() as { data: { rows: object[] }[] }).data[0]!.rows[0]!).sort()).toEqual(
      Object.keys((JSON.parse(create.responseExample) as { data: object[] }).data[0]!).sort(),
    );
    const edit = requestOf(enterprise.operations.find((o) => o.method === 'PUT')!);
    const edited = await t.app.inject({ ...edit, url: edit.url.replace(/\/1$/, `/${record.id}`) });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  it('is cached like other published content', async () => {
    const res = await t.app.inject({ url: REFERENCE });
    expect(res.headers['cache-control']).toBe(publicCacheControl(CONTENT_CACHE));
    expect((await t.app.inject({ url: REFERENCE, headers: { 'if-none-match': String(res.headers.etag) } })).statusCode).toBe(304);
  });
});

describe('开放服务 API reference and the deployment', () => {
  it('keeps to the public operations with API_DOCS=all, and leaves out CAS when the embedded server is off', async () => {
    const all = await createTestApp('sqlite', { API_DOCS: 'all' });
    try {
      const groups = await referenceOf(all);
      expect(Object.fromEntries(groups.map((g) => [g.key, g.operations.map((o) => o.path)]))).toEqual(EXPECTED);
    } finally {
      await all.close();
    }
    const external = await createTestApp('sqlite', { CAS_EMBEDDED: '0', CAS_SERVER_URL: 'https://sso.example.cn/cas' });
    try {
      // The OpenID provider signs in through the embedded CAS: off with it, and machine clients get no tokens either.
      expect((await referenceOf(external)).map((g) => g.key)).toEqual(['content', 'identifier', 'handle']);
    } finally {
      await external.close();
    }
  });

  it('answers 404 when the deployment publishes no API documentation (API_DOCS=off)', async () => {
    const off = await createTestApp('sqlite', { API_DOCS: 'off' });
    try {
      const res = await off.app.inject({ url: REFERENCE });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 1, msg: '接口参考未开放' });
    } finally {
      await off.close();
    }
  });
});
