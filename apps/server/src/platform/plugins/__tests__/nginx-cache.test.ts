import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, freePort, localConfig, startNginx } from '../../../../../../scripts/nginx-config.mjs';
import { REPO_ROOT } from '../../config.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { CONTENT_CACHE } from '../http-cache.js';

const nginx = findNginx();
if (!nginx) console.warn('the portal is not checked behind nginx: apt-get install nginx');

interface Answer {
  status: number;
  cacheStatus: string;
  body: string;
}

/** One GET through nginx, as a visitor's browser sends it (the portal answers Host `localhost`). */
function get(port: number, pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: pathname, agent: false, headers: { host: 'localhost', accept: 'application/json', ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, cacheStatus: String(response.headers['x-cache-status'] ?? ''), body }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

const TREE = '/open-api/cms/v1/category/tree?channel=news';
const HTML = { accept: 'text/html,application/xhtml+xml' };
// The built web app and its server renderer (`npm run build`): pages are answered as in production.
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
const SSR_ENTRY = path.join(REPO_ROOT, 'apps/web/dist-ssr/entry-server.js');

/** docs/deploy/nginx.conf as shipped (paths and ports rewritten) in front of the portal. */
describe.skipIf(!nginx).each(testDialects())('the portal behind docs/deploy/nginx.conf on %s', (dialect) => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  let port = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-cache-'));
  beforeAll(async () => {
    if (!fs.existsSync(SSR_ENTRY)) throw new Error('the web app is not built: run `npm run build` first');
    // Imported ahead of the app, which then finds it loaded: on a busy machine the first import of the
    // renderer can outlast Fastify's plugin timeout.
    await import(pathToFileURL(SSR_ENTRY).href);
    t = await createTestApp(dialect, { WEB_DIST, WEB_SSR_ENTRY: SSR_ENTRY });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const upstream = (t.app.server.address() as AddressInfo).port;
    port = await freePort();
    const { text } = localConfig({ dir, upstreams: [`127.0.0.1:${upstream}`], httpPort: port });
    proxy = await startNginx(nginx ?? 'nginx', dir, text, port);
  });
  afterAll(async () => {
    await proxy?.stop();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a public page or read again from its cache, and a signed-in visitor’s never from it', async () => {
    for (const [pathname, headers] of [
      ['/news', HTML],
      ['/', HTML],
      ['/config.js', { accept: '*/*' }],
      [TREE, {}],
    ] as const) {
      const first = await get(port, pathname, headers);
      expect(first.status, pathname).toBe(200);
      const second = await get(port, pathname, headers);
      expect(second.cacheStatus, pathname).toBe('HIT');
      expect(second.body, pathname).toBe(first.body);
      const signedIn = await get(port, pathname, { ...headers, cookie: 'PORTAL_SESSION=some-session' });
      expect(signedIn.cacheStatus, pathname).toBe('BYPASS');
    }
    // The identifier lookups reach the portal every time (标识统计 counts each one): they never touch the cache.
    for (let i = 0; i < 2; i++) {
      expect((await get(port, '/web-api/portal/v1/identity/query?handle=88.118.8%2FNO-SUCH')).cacheStatus).toBe('');
    }
  });

  it('shows a console write within the content age it documents (s-maxage), from the cache until then', async () => {
    for (const [pathname, headers] of [
      ['/news', HTML],
      [TREE, {}],
    ] as const) {
      expect((await get(port, pathname, headers)).body).toContain('行业动态');
    }
    const operator = await tokenFor(t, 'operator');
    const renamed = await t.app.inject({
      method: 'PUT',
      url: '/web-api/cms/v1/category/news',
      headers: { authorization: operator, 'x-requested-with': 'XMLHttpRequest' },
      payload: { name: '行业动态速递' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const written = performance.now();
    // The copies nginx holds are what visitors get until they are older than s-maxage; then the next
    // request refreshes each (the one that finds it expired may still get the old copy).
    const deadline = written + CONTENT_CACHE.sMaxAge * 1000 + 2_000;
    const reads = [
      ['/news', HTML],
      [TREE, {}],
    ] as const;
    for (const [pathname, headers] of reads) {
      const cached = await get(port, pathname, headers);
      // nginx's copy either way: fresh (HIT), or filled by the test before more than s-maxage ago (STALE,
      // refreshed in the background), as on a busy machine.
      expect(['HIT', 'STALE'], pathname).toContain(cached.cacheStatus);
      expect(cached.body, pathname).not.toContain('行业动态速递');
    }
    // What a visitor reloading the page sees: the new name, within s-maxage of the write.
    for (const [pathname, headers] of reads) {
      await expect
        .poll(async () => (await get(port, pathname, headers)).body, {
          message: `${pathname} not shown within ${CONTENT_CACHE.sMaxAge} s`,
          timeout: Math.max(100, deadline - performance.now()),
          interval: 100,
        })
        .toContain('行业动态速递');
    }
  }, 30_000);
});
