// docs/deploy/nginx.conf as Debian's nginx runs it (only paths, ports and certificates rewritten), in
// front of a stub portal that answers with the Cache-Control headers the portal sends.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NGINX_MISSING,
  brotliInstalled,
  findNginx,
  freePort,
  localConfig,
  makeTestCertificate,
  startNginx,
  testConfig,
} from './nginx-config.mjs';

const nginx = findNginx();
if (!nginx) console.warn(`docs/deploy/nginx.conf is not checked: ${NGINX_MISSING}`);

/** Stub portal: each answer's headers come from its path; `seen` keeps every request it received. */
function stubPortal() {
  const seen = [];
  /** Requests with `together` in their query, each waiting for another to the same address. */
  const waiting = new Map();
  const big = JSON.stringify({ code: 20200, data: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `标题 ${i}` })) });
  const server = http.createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, bytes });
      const url = new URL(request.url, 'http://stub');
      if (url.searchParams.has('together')) {
        // Answered once a second request for the same address arrives (`met`), or alone after 3 s: only
        // requests nginx lets through at the same time meet here. Never shared, as the sign-in pages are.
        const answer = (met) => {
          response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, no-store', 'set-cookie': 'CASEXEC=x' });
          response.end(JSON.stringify({ met }));
        };
        const other = waiting.get(request.url);
        if (other) {
          waiting.delete(request.url);
          other();
          answer(true);
        } else {
          const alone = setTimeout(() => {
            waiting.delete(request.url);
            answer(false);
          }, 3000);
          waiting.set(request.url, () => {
            clearTimeout(alone);
            answer(true);
          });
        }
      } else if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/cas/assets/')) {
        response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=31536000, immutable' });
        response.end('export const x = 1;\n');
      } else if (url.pathname.startsWith('/public')) {
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'public, s-maxage=60, stale-while-revalidate=60',
        });
        response.end(big);
      } else if (url.pathname.startsWith('/compressed')) {
        // As the portal answers (@fastify/compress): encoded for the Accept-Encoding it received.
        const encoding = /\bbr\b/.test(request.headers['accept-encoding'] ?? '')
          ? 'br'
          : /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
            ? 'gzip'
            : undefined;
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'public, s-maxage=60, stale-while-revalidate=60',
          vary: 'accept-encoding',
          etag: 'W/"v1"',
          ...(encoding ? { 'content-encoding': encoding } : {}),
        });
        response.end(encoding === 'br' ? zlib.brotliCompressSync(big) : encoding === 'gzip' ? zlib.gzipSync(big) : big);
      } else if (url.pathname.startsWith('/private')) {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store' });
        response.end(big);
      } else if (url.pathname === '/web-api/portal/v1/identity/query' || url.pathname.startsWith('/api/handles/')) {
        // Identifier answers: kept by browsers for the Handle ttl, never by a shared cache (标识统计 counts each lookup).
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, max-age=86400' });
        response.end(big);
      } else {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ bytes }));
      }
    });
  });
  return { server, seen, count: (pathname) => seen.filter((r) => r.url === pathname).length };
}

/** One request to nginx, bytes as sent (no decompression). */
function send(port, pathname, { tls = true, method = 'GET', headers = {}, body } = {}) {
  const client = tls ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        headers: { host: 'portal.example.com', ...headers },
        ...(tls ? { rejectUnauthorized: false, servername: 'portal.example.com' } : {}),
        agent: false,
      },
      (response) => {
        const chunks = [];
        response.on('data', (c) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe.skipIf(!nginx)('docs/deploy/nginx.conf on nginx', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-test-'));
  const stub = stubPortal();
  let tls;
  let proxy;

  beforeAll(async () => {
    await new Promise((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    tls = { ...makeTestCertificate(dir), httpPort: await freePort(), httpsPort: await freePort() };
    const { text } = localConfig({ dir, upstreams: [`127.0.0.1:${stub.server.address().port}`], tls });
    proxy = await startNginx(nginx, dir, text, tls.httpsPort);
  });

  afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => stub.server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is accepted by nginx -t with its TLS server block', () => {
    const { text } = localConfig({ dir, upstreams: ['127.0.0.1:8070'], tls });
    const checked = testConfig(nginx, dir, text);
    expect(checked.output).toContain('test is successful');
    expect(checked.ok).toBe(true);
  });

  it('sends plain HTTP to HTTPS', async () => {
    const answer = await send(tls.httpPort, '/news?page=2', { tls: false });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('https://portal.example.com/news?page=2');
  });

  it("passes Host, the scheme and the client's own address (not one the client claims)", async () => {
    await send(tls.httpsPort, '/echo-headers', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    const seen = stub.seen.findLast((r) => r.url === '/echo-headers');
    expect(seen.headers.host).toBe('portal.example.com');
    expect(seen.headers['x-forwarded-proto']).toBe('https');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    // Keep-alive to the upstream: HTTP/1.1 without `Connection: close`.
    expect(seen.headers.connection).toBeUndefined();
  });

  it('never forwards /metrics or /readyz, whatever the request carries', async () => {
    for (const path of ['/metrics', '/metrics?x=1', '/readyz', '/readyz?x=1']) {
      const answer = await send(tls.httpsPort, path, { headers: { authorization: 'Bearer scrape-token-0123456789abcdef' } });
      expect(answer.status).toBe(404);
    }
    expect(stub.seen.filter((r) => r.url.startsWith('/metrics') || r.url.startsWith('/readyz'))).toEqual([]);
  });

  it('sends its own request id (never the client’s) and answers with it, a cached answer with its own', async () => {
    const answer = await send(tls.httpsPort, '/echo-headers?rid=1', { headers: { 'x-request-id': 'client-chosen-id-123' } });
    const seen = stub.seen.findLast((r) => r.url === '/echo-headers?rid=1');
    expect(seen.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.headers['x-request-id']).toBe(seen.headers['x-request-id']);
    const first = await send(tls.httpsPort, '/public/list?rid=2');
    const second = await send(tls.httpsPort, '/public/list?rid=2');
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('answers a public read from its cache the second time', async () => {
    const first = await send(tls.httpsPort, '/public/list?page=1');
    const second = await send(tls.httpsPort, '/public/list?page=1');
    expect(first.status).toBe(200);
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(stub.count('/public/list?page=1')).toBe(1);
  });

  it('neither reads nor fills the cache for a signed-in visitor or an API client', async () => {
    const signedIn = { cookie: 'theme=dark; PORTAL_SESSION=abc' };
    const client = { authorization: 'Bearer t' };
    for (const headers of [signedIn, client, signedIn]) {
      const answer = await send(tls.httpsPort, '/public/tree', { headers });
      expect(answer.headers['x-cache-status']).toBe('BYPASS');
    }
    await send(tls.httpsPort, '/public/tree');
    expect(stub.count('/public/tree')).toBe(4);
  });

  it('never caches private answers or answers without Cache-Control', async () => {
    for (let i = 0; i < 2; i++) {
      await send(tls.httpsPort, '/private/me');
      await send(tls.httpsPort, '/plain');
    }
    expect(stub.count('/private/me')).toBe(2);
    expect(stub.count('/plain')).toBe(2);
  });

  it('passes every identifier lookup on to the portal, which counts it, while browsers may keep the answer', async () => {
    const lookups = ['/web-api/portal/v1/identity/query?handle=88.118.8%2FEX-2024-000123', '/api/handles/88.118.8/EX-2024-000123'];
    for (let i = 0; i < 2; i++) {
      for (const url of lookups) {
        const answer = await send(tls.httpsPort, url);
        expect(answer.headers['cache-control']).toBe('private, max-age=86400');
      }
    }
    for (const url of lookups) expect(stub.count(url)).toBe(2);
  });

  it('lets visitors into the sign-in protocols and identifier lookups side by side, never queued behind the cache', async () => {
    // Two browsers opening the same application's login (or looking up the same identifier) at once:
    // both reach the portal while the other waits for its answer, none held back by the cache lock.
    for (const pathname of [
      '/cas/login?service=https%3A%2F%2Fapp.example.com%2F',
      '/oidc/auth?client_id=hengyue-inspection&response_type=code',
      '/saml/sso?SAMLRequest=abc',
      '/scim/v2/Users?count=1',
      '/web-api/portal/v1/identity/query?handle=88.118.8%2FEX-2024-000123',
      '/api/handles/88.118.8/EX-2024-000123?type=URL',
    ]) {
      const address = `${pathname}&together=1`;
      const answers = await Promise.all([send(tls.httpsPort, address), send(tls.httpsPort, address)]);
      for (const answer of answers) expect(JSON.parse(answer.body.toString()), pathname).toEqual({ met: true });
    }
    // The login page's stylesheet is the same for everyone: still answered from the cache.
    await send(tls.httpsPort, '/cas/assets/login.css');
    expect((await send(tls.httpsPort, '/cas/assets/login.css')).headers['x-cache-status']).toBe('HIT');
    expect(stub.count('/cas/assets/login.css')).toBe(1);
  });

  it('compresses JSON for clients that accept it', async () => {
    const gzip = await send(tls.httpsPort, '/private/me', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await send(tls.httpsPort, '/private/me');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.body.length).toBeLessThan(plain.body.length);
    if (brotliInstalled()) {
      const br = await send(tls.httpsPort, '/private/me', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
    }
  });

  it('passes answers the portal compressed as they are, and caches one copy per encoding whatever the browser sends', async () => {
    const plain = await send(tls.httpsPort, '/compressed/list');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.body.toString('utf8');
    const gzip = await send(tls.httpsPort, '/compressed/list', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    // Not compressed a second time: one gunzip gives the JSON.
    expect(zlib.gunzipSync(gzip.body).toString('utf8')).toBe(json);
    const again = await send(tls.httpsPort, '/compressed/list', { headers: { 'accept-encoding': 'deflate, gzip' } });
    expect(again.headers['x-cache-status']).toBe('HIT');
    expect(zlib.gunzipSync(again.body).toString('utf8')).toBe(json);
    if (brotliInstalled()) {
      const br = await send(tls.httpsPort, '/compressed/list', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.body).toString('utf8')).toBe(json);
    }
    // One request per encoding reached the portal.
    expect(stub.count('/compressed/list')).toBe(brotliInstalled() ? 3 : 2);
  });

  it("limits request bodies to the server's 1 MiB, more on the upload and import routes", async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    const headers = { 'content-type': 'text/csv' };
    const refused = await send(tls.httpsPort, '/web-api/portal/v1/anything', { method: 'POST', headers, body });
    expect(refused.status).toBe(413);
    const imported = await send(tls.httpsPort, '/web-api/identity/v1/record/import', { method: 'POST', headers, body });
    expect(imported.status).toBe(200);
    expect(JSON.parse(imported.body.toString()).bytes).toBe(body.length);
    // A 10 MiB certification material with its multipart envelope reaches the portal; more does not.
    const material = Buffer.alloc(10 * 1024 * 1024 + 4096, 'a');
    const certification = '/web-api/console/v1/enterprise/certification/file';
    const uploaded = await send(tls.httpsPort, certification, { method: 'POST', headers, body: material });
    expect(uploaded.status).toBe(200);
    expect(JSON.parse(uploaded.body.toString()).bytes).toBe(material.length);
    const oversized = Buffer.alloc(12 * 1024 * 1024, 'a');
    expect((await send(tls.httpsPort, certification, { method: 'POST', headers, body: oversized })).status).toBe(413);
    // The material limit is that route's alone: the rest of the console API keeps the 1 MiB limit.
    expect((await send(tls.httpsPort, '/web-api/console/v1/enterprise/certification', { method: 'POST', headers, body })).status).toBe(413);
  });

  it('lets browsers keep hashed build files for a year', async () => {
    await send(tls.httpsPort, '/assets/index-abc123.js');
    const again = await send(tls.httpsPort, '/assets/index-abc123.js');
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.headers['x-cache-status']).toBe('HIT');
  });
});
