import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

/** A plain HTTP server answering every request with `handler` (or never, to time out). */
async function fakeUpstream(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const REMOTE = '88.200.1/PUMP-0001';

describe('identifier configuration', () => {
  it('is checked at start: an http(s) upstream, a timeout of at least 1 ms', () => {
    expect(() => loadConfig({ HANDLE_UPSTREAM_URL: 'hdl.example.cn' })).toThrow(/HANDLE_UPSTREAM_URL/);
    expect(() => loadConfig({ HANDLE_UPSTREAM_URL: 'https://hdl.example.cn/?x=1' })).toThrow(/HANDLE_UPSTREAM_URL/);
    expect(() => loadConfig({ HANDLE_UPSTREAM_TIMEOUT_MS: '0' })).toThrow(/HANDLE_UPSTREAM_TIMEOUT_MS/);
    expect(() => loadConfig({ HANDLE_TTL_SECONDS: '-1' })).toThrow(/HANDLE_TTL_SECONDS/);
    expect(loadConfig({}).identifiers).toEqual({
      ttlSeconds: 86400,
      upstreamUrl: undefined,
      upstreamTimeoutMs: 3000,
      upstreamCacheEntries: 10000,
    });
    expect(loadConfig({ HANDLE_UPSTREAM_URL: 'https://hdl.example.cn/' }).identifiers.upstreamUrl).toBe('https://hdl.example.cn');
  });
});

describe.each(testDialects())('resolution through an upstream resolver on %s', (dialect) => {
  // The upstream: a second portal instance (values with a 1-second ttl) serving the Handle API on a port.
  let upstream: TestApp;
  let upstreamUrl: string;
  let node: TestApp;
  let remoteRecordId: number;
  let upstreamOperator: string;

  const call = (t: TestApp, token: string, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    upstream = await createTestApp(dialect, { HANDLE_TTL_SECONDS: '1' });
    upstreamOperator = await tokenFor(upstream, 'operator');
    const enterprise = await upstream.database.db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '常州瑞驰液压科技有限公司')
      .executeTakeFirstOrThrow();
    expect(
      (
        await call(upstream, upstreamOperator, 'POST', '/web-api/identity/v1/prefix', {
          prefix: '88.200.1',
          name: '上游节点前缀',
          enterpriseId: enterprise.id,
        })
      ).statusCode,
    ).toBe(200);
    const template = await call(upstream, upstreamOperator, 'POST', '/web-api/identity/v1/template', {
      prefix: '88.200.1',
      name: '泵类产品',
      items: [
        { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 64 } },
        { name: '出厂编号', idType: 'serialNumber', required: true, metadata: { type: 'string', minLength: 1, maxLength: 32 } },
      ],
    });
    expect(template.statusCode, template.body).toBe(200);
    const templateId = template.json().data[0].id;
    const record = await call(upstream, upstreamOperator, 'POST', '/web-api/identity/v1/record', {
      prefix: '88.200.1',
      suffix: 'PUMP-0001',
      templateId,
      values: { productName: '斜轴式柱塞泵', serialNumber: 'SN-0001' },
    });
    expect(record.statusCode, record.body).toBe(200);
    remoteRecordId = record.json().data[0].id;
    // A record under a prefix the node itself holds: the node must never ask the upstream for it.
    const machinery = await upstream.database.db
      .selectFrom('idf_template')
      .select('id')
      .where('name', '=', '工程机械整机')
      .executeTakeFirstOrThrow();
    const shadow = await call(upstream, upstreamOperator, 'POST', '/web-api/identity/v1/record', {
      prefix: '88.118.8',
      suffix: 'UPSTREAM-ONLY-1',
      templateId: machinery.id,
      values: {
        productName: '挖掘机',
        productModel: 'HY-E60',
        serialNumber: 'X1',
        productionDate: '2024-01-01',
        manufacturer: '上游',
        warrantyPeriod: '12个月',
        serviceHotline: '0516-1',
      },
    });
    expect(shadow.statusCode, shadow.body).toBe(200);
    await upstream.app.listen({ port: 0, host: '127.0.0.1' });
    upstreamUrl = `http://127.0.0.1:${(upstream.app.server.address() as AddressInfo).port}`;
    node = await createTestApp(dialect, { HANDLE_UPSTREAM_URL: upstreamUrl, HANDLE_UPSTREAM_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await node?.close();
    await upstream?.close();
  });

  const query = (t: TestApp, handle: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}`, headers });

  it('resolves a handle of a prefix it does not hold at the upstream, on both endpoints', async () => {
    const portal = await query(node, REMOTE);
    expect(portal.statusCode, portal.body).toBe(200);
    const [entry] = portal.json().data;
    expect(entry.identity.handle).toBe(REMOTE);
    expect(entry.identity.value.map((v: { type: string; data: { value: string } }) => [v.type, v.data.value])).toEqual([
      ['productName', '斜轴式柱塞泵'],
      ['serialNumber', 'SN-0001'],
    ]);
    // A Handle answer carries no template: each value is an item labelled with its type.
    expect(entry.template.items).toEqual([
      { name: 'productName', idType: 'productName', idIndex: 2000 },
      { name: 'serialNumber', idType: 'serialNumber', idIndex: 2001 },
    ]);
    expect(entry.template.name).toBe('泵类产品 v1');
    // Kept by shared caches for the upstream values' ttl (1 s there), like the upstream's own answer.
    expect(portal.headers['cache-control']).toBe('public, max-age=1, s-maxage=1');

    const handle = await node.app.inject({ url: `/api/handles/${REMOTE}?type=serialNumber&index=100` });
    expect(handle.statusCode).toBe(200);
    const body = handle.json();
    expect(body.responseCode).toBe(1);
    expect(handle.headers['cache-control']).toBe('public, max-age=1, s-maxage=1');
    expect(body.values.map((v: { index: number; type: string; ttl: number }) => [v.index, v.type, v.ttl])).toEqual([
      [100, 'HS_ADMIN', 1],
      [2001, 'serialNumber', 1],
    ]);
  });

  it('answers "not found" for what the upstream does not know', async () => {
    expect((await query(node, '88.200.1/NOPE')).json()).toEqual({ code: 20200, msg: '未找到该标识', data: [] });
    const handle = await node.app.inject({ url: '/api/handles/88.200.1/NOPE' });
    expect(handle.statusCode).toBe(404);
    expect(handle.json().responseCode).toBe(100);
  });

  it('never passes on a handle of a prefix it holds', async () => {
    expect((await query(upstream, '88.118.8/UPSTREAM-ONLY-1')).json().data).toHaveLength(1);
    expect((await query(node, '88.118.8/UPSTREAM-ONLY-1')).json().data).toEqual([]);
    expect((await node.app.inject({ url: '/api/handles/88.118.8/UPSTREAM-ONLY-1' })).json().responseCode).toBe(100);
  });

  it('never passes on a request that came from another resolver (no loops), and lets no shared cache keep that answer', async () => {
    const hop = await query(node, REMOTE, { 'x-handle-resolver-hop': '1' });
    expect(hop.json().data).toEqual([]);
    expect(hop.headers['cache-control']).toBe('private, no-store');
  });

  it("keeps an upstream answer for its values' ttl, then asks again", async () => {
    const cached = '88.200.1/PUMP-0001';
    expect((await query(node, cached)).json().data[0].identity.value[1].data.value).toBe('SN-0001');
    const changed = await call(upstream, upstreamOperator, 'PUT', `/web-api/identity/v1/record/${remoteRecordId}`, {
      values: { productName: '斜轴式柱塞泵', serialNumber: 'SN-0001-R' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // Within the ttl (1 s) the node answers from its cache.
    expect((await query(node, cached)).json().data[0].identity.value[1].data.value).toBe('SN-0001');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await query(node, cached)).json().data[0].identity.value[1].data.value).toBe('SN-0001-R');
  });

  describe('when the upstream fails', () => {
    const withUpstream = async (url: string, timeoutMs: string, check: (t: TestApp) => Promise<void>) => {
      const t = await createTestApp(dialect, { HANDLE_UPSTREAM_URL: url, HANDLE_UPSTREAM_TIMEOUT_MS: timeoutMs });
      try {
        await check(t);
      } finally {
        await t.close();
      }
    };

    it('says so clearly when it cannot be reached: code 1 on the portal, responseCode 2 on the Handle API', async () => {
      const closed = await fakeUpstream(() => undefined);
      const url = closed.url;
      await closed.close();
      await withUpstream(url, '2000', async (t) => {
        const portal = await query(t, REMOTE);
        expect(portal.statusCode).toBe(502);
        expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务不可用，请稍后重试' });
        expect(portal.headers['cache-control']).toBe('private, no-store');
        const handle = await t.app.inject({ url: `/api/handles/${REMOTE}` });
        expect(handle.statusCode).toBe(500);
        expect(handle.headers['cache-control']).toBe('private, no-store');
        expect(handle.json()).toEqual({ responseCode: 2, message: '上游标识解析服务不可用，请稍后重试' });
        // Local identifiers are unaffected.
        expect((await query(t, '88.118.8/EX-2024-000123')).json().data).toHaveLength(1);
      });
    });

    it('gives up after the timeout', async () => {
      const silent = await fakeUpstream(() => undefined);
      try {
        await withUpstream(silent.url, '300', async (t) => {
          const started = Date.now();
          const portal = await query(t, REMOTE);
          expect(Date.now() - started).toBeLessThan(2000);
          expect(portal.statusCode).toBe(504);
          expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务响应超时，请稍后重试' });
          const handle = await t.app.inject({ url: `/api/handles/${REMOTE}` });
          expect(handle.json()).toEqual({ responseCode: 2, message: '上游标识解析服务响应超时，请稍后重试' });
        });
      } finally {
        await silent.close();
      }
    });

    it('refuses an answer that is not the Handle JSON API, and does not cache failures', async () => {
      let calls = 0;
      const garbage = await fakeUpstream((_req, res) => {
        calls++;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>维护中</html>');
      });
      try {
        await withUpstream(garbage.url, '2000', async (t) => {
          for (let i = 0; i < 2; i++) {
            const portal = await query(t, REMOTE);
            expect(portal.statusCode).toBe(502);
            expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务返回了无法识别的结果' });
          }
          expect(calls).toBe(2);
        });
      } finally {
        await garbage.close();
      }
    });

    it('passes the handle on with its path escaped, so it cannot reach another upstream path', async () => {
      const seen: string[] = [];
      const recorder = await fakeUpstream((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ responseCode: 100, handle: 'x' }));
      });
      try {
        await withUpstream(recorder.url, '2000', async (t) => {
          await query(t, '88.200.1/a b?c#d/e');
          expect(seen).toEqual(['/api/handles/88.200.1/a%20b%3Fc%23d/e']);
        });
      } finally {
        await recorder.close();
      }
    });
  });
});
