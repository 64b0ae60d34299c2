import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { type TestApp, createTestApp, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('request hardening (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 421 in the envelope for a Host it does not serve, and never registers that host as a CAS service', async () => {
    const tree = await t.app.inject({ url: '/open-api/cms/v1/category/tree', headers: { host: '169.254.169.254' } });
    expect(tree.statusCode).toBe(421);
    expect(tree.json()).toEqual({ code: 1, msg: '不受支持的访问地址，请使用门户的正式地址访问' });
    const login = await t.app.inject({
      url: `/cas/login?service=${encodeURIComponent('http://10.0.0.7:8080/web/portal/cas/callback')}`,
      headers: { host: '10.0.0.7:8080' },
    });
    expect(login.statusCode).toBe(421);
    expect(login.headers.location).toBeUndefined();
    const handle = await t.app.inject({ url: '/api/handles/88.118.8/EX-1', headers: { host: 'evil.example' } });
    expect(handle.statusCode).toBe(421);
    expect(handle.json()).toMatchObject({ responseCode: 2 });
    // The health check answers whatever address a load balancer probes.
    expect((await t.app.inject({ url: '/healthz', headers: { host: '10.1.2.3:8070' } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/open-api/cms/v1/category/tree' })).statusCode).toBe(200);
  });

  it('refuses non-finite, huge and unsafe numbers with 400 before any query', async () => {
    for (const bad of ['Infinity', '-Infinity', '1e309', '1e23', '9007199254740993', '2147483648']) {
      const res = await t.app.inject({ url: `/open-api/cms/v1/article/published/page/list?offset=${bad}&limit=10` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code, bad).toBe(1);
      expect(res.json().msg, bad).toMatch(/offset/);
    }
  });

  it('refuses control characters in queries, paths and bodies with a Chinese message', async () => {
    const query = await t.app.inject({ url: '/open-api/cms/v1/article/published/page/list?searchKey=%E5%B7%A5%00' });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({ code: 1, msg: '查询参数 searchKey 含有不允许的控制字符' });
    const path = await t.app.inject({ url: '/open-api/cms/v1/article/a%00b/detail' });
    expect(path.statusCode).toBe(400);
    expect(path.json().code).toBe(1);
    const service = await t.app.inject({ url: `/cas/login?service=${encodeURIComponent('http://localhost/\r\nSet-Cookie: x=1')}` });
    expect(service.statusCode).toBe(400);
    expect(service.json()).toEqual({ code: 1, msg: '查询参数 service 含有不允许的控制字符' });
    const body = await t.app.inject({
      method: 'POST',
      url: '/cas/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=staff%00&password=x',
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().code).toBe(1);
  });
});

describe('configured hosts and proxies', () => {
  it('answers for loopback on the configured port when neither PUBLIC_URL nor ALLOWED_HOSTS is set', () => {
    expect(loadConfig({ PORT: '8070' }).allowedHosts).toEqual([
      { hostname: 'localhost', port: 8070 },
      { hostname: '127.0.0.1', port: 8070 },
      { hostname: '::1', port: 8070 },
    ]);
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.cn', ALLOWED_HOSTS: 'www.example.cn, 10.0.0.5:8070' }).allowedHosts).toEqual([
      { hostname: 'portal.example.cn' },
      { hostname: 'www.example.cn' },
      { hostname: '10.0.0.5', port: 8070 },
    ]);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'http://x/y' })).toThrow(/ALLOWED_HOSTS/);
  });

  it('TRUST_PROXY=1 trusts one hop: a client cannot forge its address with X-Forwarded-For', async () => {
    const t = await createTestApp('sqlite', { TRUST_PROXY: '1' });
    t.app.get('/test/ip', async (request) => ({ ip: request.ip }));
    const res = await t.app.inject({ url: '/test/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' } });
    expect(res.json()).toEqual({ ip: '203.0.113.9' });
    await t.close();
    const listed = await createTestApp('sqlite', { TRUST_PROXY: '127.0.0.1' });
    listed.app.get('/test/ip', async (request) => ({ ip: request.ip }));
    const fromProxy = await listed.app.inject({
      url: '/test/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(fromProxy.json()).toEqual({ ip: '203.0.113.9' });
    const notProxy = await listed.app.inject({
      url: '/test/ip',
      remoteAddress: '198.51.100.2',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(notProxy.json()).toEqual({ ip: '198.51.100.2' });
    await listed.close();
  });

  it('answers oversized headers with 431 and malformed requests with 400, both in the envelope', async () => {
    const t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(address.port, '127.0.0.1', () => socket.write(request));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const big = await raw(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toEqual({ code: 1, msg: '请求头过大' });
    const broken = await raw('GET /healthz HTTP/1.1\r\nHost localhost\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toEqual({ code: 1, msg: '请求格式不正确' });
    await t.close();
  });
});
