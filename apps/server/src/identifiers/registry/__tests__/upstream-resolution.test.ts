import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadConfig } from '../../../platform/config.js';
import { fakeUpstream } from '../../../testing/handle-upstream.js';
import { createTestApp, type TestApp, testClock, testDialects, tokenFor } from '../../../testing/test-app.js';

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
      upstreamCacheBytes: 32 * 1024 * 1024,
      upstreamMaxBytes: 256 * 1024,
      upstreamMaxValues: 500,
      upstreamPerIpPerMinute: 60,
      upstreamPerSecond: 20,
      statsFlushSeconds: 10,
    });
    for (const name of [
      'HANDLE_UPSTREAM_CACHE_MB',
      'HANDLE_UPSTREAM_MAX_KB',
      'HANDLE_UPSTREAM_MAX_VALUES',
      'HANDLE_UPSTREAM_IP_PER_MINUTE',
      'HANDLE_UPSTREAM_PER_SECOND',
      'IDENTIFIER_STATS_FLUSH_SECONDS',
    ]) {
      expect(() => loadConfig({ [name]: '0' })).toThrow(name);
    }
    expect(loadConfig({ HANDLE_UPSTREAM_URL: 'https://hdl.example.cn/' }).identifiers.upstreamUrl).toBe('https://hdl.example.cn');
  });
});

describe.each(testDialects())('resolution through an upstream resolver on %s', (dialect) => {
  // The upstream: a second portal instance (values with a 1-second ttl) serving the Handle API on a port.
  let upstream: TestApp;
  let upstreamUrl: string;
  let node: TestApp;
  // The node's cache keeps an answer for its values' ttl on this clock: time passes when a test moves it.
  const clock = testClock();
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
    node = await createTestApp(dialect, { HANDLE_UPSTREAM_URL: upstreamUrl, HANDLE_UPSTREAM_TIMEOUT_MS: '2000' }, { clock });
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
    // Kept by the client (no shared cache) for the upstream values' ttl (1 s there), like the upstream's own answer.
    expect(portal.headers['cache-control']).toBe('private, max-age=1');

    const handle = await node.app.inject({ url: `/api/handles/${REMOTE}?type=serialNumber&index=100` });
    expect(handle.statusCode).toBe(200);
    const body = handle.json();
    expect(body.responseCode).toBe(1);
    expect(handle.headers['cache-control']).toBe('private, max-age=1');
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

  it('never passes on a request that came from another resolver (no loops), and lets no cache keep that answer', async () => {
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
    clock.advance(999);
    expect((await query(node, cached)).json().data[0].identity.value[1].data.value).toBe('SN-0001');
    clock.advance(2);
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
          // A new app's first lookup also pays for what loads on first use (seconds on a busy runner):
          // the time measured below is the timeout's alone.
          expect((await query(t, '88.200.1/WARM-UP')).statusCode).toBe(504);
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

  describe('limits on what the upstream costs this node', () => {
    const withNode = async (upstreamUrl: string, env: Record<string, string>, check: (t: TestApp) => Promise<void>) => {
      const t = await createTestApp(dialect, { HANDLE_UPSTREAM_URL: upstreamUrl, HANDLE_UPSTREAM_TIMEOUT_MS: '3000', ...env });
      try {
        await check(t);
      } finally {
        await t.close();
      }
    };
    /** A Handle answer of `count` string values of `size` characters each. */
    const answerOf = (count: number, size = 8) =>
      JSON.stringify({
        responseCode: 1,
        handle: REMOTE,
        values: Array.from({ length: count }, (_, i) => ({
          index: 2000 + i,
          type: `item${i}`,
          data: { format: 'string', value: 'v'.repeat(size) },
          ttl: 86400,
        })),
      });
    /** An upstream that knows every handle and counts the lookups that reach it. */
    const countingUpstream = async (body: string) => {
      const seen: string[] = [];
      const server = await fakeUpstream((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
      return { ...server, seen };
    };
    const handleApi = (t: TestApp, handle: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({ url: `/api/handles/${handle}`, remoteAddress });
    const lookup = (t: TestApp, handle: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}`, remoteAddress });

    it('refuses an answer larger than HANDLE_UPSTREAM_MAX_KB, whether its length is declared or not', async () => {
      const declared = await countingUpstream(answerOf(1, 300 * 1024));
      try {
        await withNode(declared.url, {}, async (t) => {
          const portal = await query(t, REMOTE);
          expect(portal.statusCode).toBe(502);
          expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务返回的结果过大' });
          const handle = await handleApi(t, REMOTE);
          expect(handle.statusCode).toBe(500);
          expect(handle.json()).toEqual({ responseCode: 2, message: '上游标识解析服务返回的结果过大' });
        });
        await withNode(declared.url, { HANDLE_UPSTREAM_MAX_KB: '512' }, async (t) => {
          expect((await query(t, REMOTE)).statusCode).toBe(200);
        });
      } finally {
        await declared.close();
      }
      // An answer that never ends: cut off at the limit, long before the timeout.
      let cutOff = false;
      const endless = await fakeUpstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"responseCode":1,"values":[{"index":2000,"type":"a","data":{"format":"string","value":"');
        const timer = setInterval(() => res.write('v'.repeat(64 * 1024)), 2);
        res.on('close', () => {
          clearInterval(timer);
          cutOff = true;
        });
      });
      try {
        await withNode(endless.url, { HANDLE_UPSTREAM_TIMEOUT_MS: '10000' }, async (t) => {
          const started = Date.now();
          const portal = await query(t, REMOTE);
          expect(portal.statusCode).toBe(502);
          expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务返回的结果过大' });
          expect(Date.now() - started).toBeLessThan(5000);
          await expect.poll(() => cutOff).toBe(true);
        });
      } finally {
        await endless.close();
      }
    });

    it('refuses an answer with more values than HANDLE_UPSTREAM_MAX_VALUES', async () => {
      const many = await countingUpstream(answerOf(501));
      try {
        await withNode(many.url, {}, async (t) => {
          const portal = await query(t, REMOTE);
          expect(portal.statusCode).toBe(502);
          expect(portal.json()).toEqual({ code: 1, msg: '上游标识解析服务返回的标识值过多' });
          expect((await handleApi(t, REMOTE)).json()).toEqual({ responseCode: 2, message: '上游标识解析服务返回的标识值过多' });
        });
        await withNode(many.url, { HANDLE_UPSTREAM_MAX_VALUES: '501' }, async (t) => {
          expect((await query(t, REMOTE)).json().data[0].identity.value).toHaveLength(501);
        });
      } finally {
        await many.close();
      }
    });

    it('keeps upstream answers within HANDLE_UPSTREAM_CACHE_MB of memory', async () => {
      // Answers of about 200 KB: five fit in 1 MB, a sixth pushes the oldest out.
      const large = await countingUpstream(answerOf(1, 200 * 1000));
      try {
        await withNode(large.url, { HANDLE_UPSTREAM_CACHE_MB: '1' }, async (t) => {
          const handles = ['A', 'B', 'C', 'D', 'E', 'F'].map((s) => `88.200.1/${s}`);
          expect((await query(t, handles[0]!)).statusCode).toBe(200);
          expect((await query(t, handles[0]!)).statusCode).toBe(200);
          expect(large.seen).toHaveLength(1);
          for (const handle of handles.slice(1)) expect((await query(t, handle)).statusCode).toBe(200);
          expect(large.seen).toHaveLength(6);
          expect((await query(t, handles[0]!)).statusCode).toBe(200);
          expect(large.seen).toHaveLength(7);
        });
      } finally {
        await large.close();
      }
    });

    it('limits the upstream lookups of each client IP; answers from memory and local identifiers are not limited', async () => {
      const upstream = await countingUpstream(answerOf(1));
      try {
        await withNode(upstream.url, { HANDLE_UPSTREAM_IP_PER_MINUTE: '3' }, async (t) => {
          for (const suffix of ['A', 'B', 'C']) expect((await lookup(t, `88.200.1/${suffix}`)).statusCode).toBe(200);
          const refused = await lookup(t, '88.200.1/D');
          expect(refused.statusCode).toBe(429);
          expect(refused.json()).toEqual({ code: 1, msg: '标识解析请求过于频繁，请稍后再试' });
          expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
          expect(refused.headers['cache-control']).toBe('private, no-store');
          const handle = await handleApi(t, '88.200.1/E');
          expect(handle.statusCode).toBe(429);
          expect(handle.json()).toEqual({ responseCode: 2, message: '标识解析请求过于频繁，请稍后再试' });
          expect(handle.headers['retry-after']).toBeDefined();
          // What this node already holds still answers, and so does what it never asks upstream for.
          expect((await lookup(t, '88.200.1/A')).statusCode).toBe(200);
          expect((await handleApi(t, '88.200.1/B')).statusCode).toBe(200);
          expect((await lookup(t, '88.118.8/EX-2024-000123')).json().data).toHaveLength(1);
          // Another client has its own window.
          expect((await lookup(t, '88.200.1/D', '10.0.0.2')).statusCode).toBe(200);
          expect(upstream.seen).toHaveLength(4);
        });
      } finally {
        await upstream.close();
      }
    });

    it('limits the upstream lookups of the whole instance per second (HANDLE_UPSTREAM_PER_SECOND)', async () => {
      const upstream = await countingUpstream(answerOf(1));
      try {
        await withNode(upstream.url, { HANDLE_UPSTREAM_PER_SECOND: '2' }, async (t) => {
          // Only Date stands still (timers, I/O and the database run as ever): the three lookups share
          // one one-second window however slow the machine, and the test moves to the next one.
          vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
          onTestFinished(() => {
            vi.useRealTimers();
          });
          const answers = await Promise.all(['A', 'B', 'C'].map((s, i) => lookup(t, `88.200.1/${s}`, `10.0.0.${i + 1}`)));
          expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 429]);
          expect(answers.find((a) => a.statusCode === 429)!.json()).toEqual({ code: 1, msg: '上游标识解析服务繁忙，请稍后再试' });
          expect(upstream.seen).toHaveLength(2);
          // The next second's window (@fastify/rate-limit reads Date.now()).
          vi.setSystemTime(Date.now() + 1000);
          expect((await lookup(t, '88.200.1/C', '10.0.0.3')).statusCode).toBe(200);
        });
      } finally {
        await upstream.close();
      }
    });
  });
});
